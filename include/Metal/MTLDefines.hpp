// metalcpu: shared definitions for the Metal headers.
#pragma once

#include "../Foundation/NSDefines.hpp"
#include "../Foundation/NSTypes.hpp"

// Seconds, as CoreFoundation defines it; GPU timestamps and present times use it. The same
// alias may also come from another header: repeating an alias for the same type is valid.
using CFTimeInterval = double;
