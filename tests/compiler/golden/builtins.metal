// Built-in inputs in their scalar and vector forms.
#include <metal_stdlib>
using namespace metal;

kernel void positions(device uint4* out [[buffer(0)]],
                      ushort2 local [[thread_position_in_threadgroup]],
                      uint3 group [[threadgroup_position_in_grid]],
                      uint3 groups [[threadgroups_per_grid]],
                      ushort lane [[thread_index_in_simdgroup]],
                      uint simd [[simdgroup_index_in_threadgroup]],
                      uint2 size [[threads_per_threadgroup]],
                      uint flat [[thread_index_in_threadgroup]])
{
    uint groupIndex = (group.z * groups.y + group.y) * groups.x + group.x;
    out[groupIndex * size.x * size.y + flat] = uint4(local.x, local.y, lane, simd);
}
