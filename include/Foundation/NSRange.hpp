#pragma once

#include "NSDefines.hpp"
#include "NSTypes.hpp"

namespace NS {

// A span of indices (characters, buffers, array elements), laid out as in metal-cpp.
struct Range {
    static Range Make(UInteger loc, UInteger len);

    Range(UInteger loc, UInteger len);

    [[nodiscard]] bool Equal(const Range& range) const;
    [[nodiscard]] bool LocationInRange(UInteger loc) const;
    [[nodiscard]] UInteger Max() const;

    UInteger location;
    UInteger length;
} __attribute__((packed));

} // namespace NS
