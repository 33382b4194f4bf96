// Included by swizzle_assignments.metal: a header of the kernel's own is preprocessed into
// the unit, so its swizzle assignments are rewritten as the kernel's are.
#pragma once

inline void swap_halves(thread float4& v) {
    const float2 low = v.xy;
    v.xy = v.zw;
    v.zw = low;
}
