// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void positions(device uint* out [[buffer(0)]], uint3 gid [[thread_position_in_grid]],
                      uint2 tg [[threadgroup_position_in_grid]], uint3 local [[thread_position_in_threadgroup]],
                      uint3 tpg [[threads_per_threadgroup]], uint3 groups [[threadgroups_per_grid]],
                      uint flat [[thread_index_in_threadgroup]], uint3 grid [[threads_per_grid]]) {
    out[gid.x + grid.x * gid.y] = tg.x + local.y + tpg.z + groups.x + flat;
}
