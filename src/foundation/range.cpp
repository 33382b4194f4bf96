// NS::Range: a value type; its members are out of line like every other public method.
#include <Foundation/NSRange.hpp>

NS::Range NS::Range::Make(UInteger loc, UInteger len) { return Range(loc, len); }

NS::Range::Range(UInteger loc, UInteger len) : location(loc), length(len) {}

bool NS::Range::Equal(const Range& range) const { return location == range.location && length == range.length; }

bool NS::Range::LocationInRange(UInteger loc) const { return loc >= location && loc - location < length; }

NS::UInteger NS::Range::Max() const { return location + length; }
