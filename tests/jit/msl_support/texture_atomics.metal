// expect: compiles
#include <metal_stdlib>
using namespace metal;

// MSL 3.1's texture atomics as naga (WGSL texture atomics) and SPIRV-Cross (image atomics) write them.
kernel void texel_atomics(texture2d<uint, access::read_write> image [[texture(0)]],
                          texture2d_array<int, access::read_write> layers [[texture(1)]],
                          device uint* out [[buffer(0)]], uint2 gid [[thread_position_in_grid]]) {
    image.atomic_fetch_max(uint2(0, 0), 1u);
    out[gid.x] = image.atomic_fetch_add(gid, 1u).x + image.atomic_load(gid).x;
    uint4 expected = uint4(0);
    image.atomic_compare_exchange_weak(gid, &expected, uint4(5));
    layers.atomic_fetch_min(gid, 1, -3);
    layers.atomic_store(gid, 0, int4(2));
}

// 64-bit texture atomics as naga writes them for `texture_storage_2d<r64uint, atomic>`
// (its write of a ulong4 in a branch never taken included).
kernel void cs_main(uint3 id [[thread_position_in_threadgroup]],
                    metal::texture2d<ulong, metal::access::read_write> image [[texture(0)]]) {
    image.atomic_max(metal::uint2(metal::int2(0, 0)), 1uL);
    if (metal::int2(0, 0).x == -99999) { image.write(ulong4(0uL), metal::uint2(metal::int2(0, 0))); }
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    image.atomic_min(metal::uint2(metal::int2(0, 0)), 1uL);
}
