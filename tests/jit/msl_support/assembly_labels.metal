// expect: error: kernel code cannot contain assembly: Apple's AIR intrinsic "air.simdgroup_async_copy_3d.p3i8.p1i8" is not there on the CPU
#include <metal_stdlib>
using namespace metal;

// An __asm label that is not one of the AIR intrinsics metalcpu implements (the SIMD-group
// async copies and their wait) stays assembly, which kernel code cannot contain.
void copy_3d(threadgroup void*, const device void*) __asm("air.simdgroup_async_copy_3d.p3i8.p1i8");

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[32];
    copy_3d(tile, out);
    out[lid] = tile[lid];
}
