// metalcpu: Foundation for metal-cpp programs on Linux. Declarations only; see src/foundation.
#pragma once

// metal-cpp programs define these in one translation unit to emit Objective-C selector
// tables. metalcpu has no such tables, so the macros are accepted and ignored, in any
// number of translation units.
// NS_PRIVATE_IMPLEMENTATION, MTL_PRIVATE_IMPLEMENTATION, CA_PRIVATE_IMPLEMENTATION

#if defined(__BLOCKS__)
#define METALCPU_HAS_BLOCKS 1
#else
#define METALCPU_HAS_BLOCKS 0
#endif

// Inline methods that may run with `this == nullptr` (metal-cpp's nil messaging), so that
// programs built with UBSan are not told about calls metal-cpp declares legal.
#define METALCPU_NIL_RECEIVER __attribute__((no_sanitize("null")))
