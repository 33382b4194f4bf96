// Swizzle assignments write only their components: each `=` goes through __mc_swz, in the
// kernel and in the header it includes; compound assignments and single components do not.
#include <metal_stdlib>
using namespace metal;
#include "swizzle_assignments.h"

kernel void swizzles(device float4* data [[buffer(0)]],
                     uint index [[thread_position_in_grid]])
{
    float4 v = data[index];
    swap_halves(v);
    data[index].xy = v.zw;
    (data + index)->zw = v.xy;
    v.x = 1.0f;
    data[index].zw = data[index].xy = v.xy;
}
