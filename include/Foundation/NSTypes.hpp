#pragma once

#include "NSDefines.hpp"

#include <cstdint>

// Headers a metal-cpp program gets with Apple's Foundation.hpp and uses without including
// them (assert, fabs, FLT_EPSILON, printf, memcpy, std::string, std::chrono::steady_clock):
// docs/foundation.md, "Headers that come with Foundation".
//
// Apple's NSTypes.hpp includes <CoreFoundation/CoreFoundation.h>, which includes these C
// headers unless CF_EXCLUDE_CSTD_HEADERS is defined (and, through CFBase.h, stdint.h and
// stdbool.h).
#if !defined(CF_EXCLUDE_CSTD_HEADERS)
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#endif

// Apple's headers include <functional>, from which Apple's libc++ reaches these in C++17 and
// C++20: its <atomic> brings the clocks of <chrono>; its Boyer-Moore searcher brings <array>,
// <unordered_map> and <vector>; its <vector> brings <algorithm> and, through <locale>,
// <string> with <cstdio> and <iterator>. libstdc++'s <functional> brings only some. Left out:
// <locale> itself and the streams and mutexes behind it. _LIBCPP_REMOVE_TRANSITIVE_INCLUDES,
// libc++'s switch for the same thing, turns them off.
#if !defined(_LIBCPP_REMOVE_TRANSITIVE_INCLUDES)
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iosfwd>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>
#endif

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
