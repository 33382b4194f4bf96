#pragma once

#include "NSDefines.hpp"

#include <cstdint>

namespace NS {

using Integer = std::intptr_t;
using UInteger = std::uintptr_t;
using TimeInterval = double;
using unichar = unsigned short;

const Integer IntegerMax = INTPTR_MAX;
const Integer IntegerMin = INTPTR_MIN;
const UInteger UIntegerMax = UINTPTR_MAX;
const Integer NotFound = IntegerMax;

struct OperatingSystemVersion {
    Integer majorVersion;
    Integer minorVersion;
    Integer patchVersion;
} __attribute__((packed));

enum ComparisonResult : Integer {
    OrderedAscending = -1,
    OrderedSame = 0,
    OrderedDescending = 1,
};

} // namespace NS
