// expect: compiles
#include <metal_stdlib>

// An operator of the language: usable before any `using namespace metal`.
namespace c10 {
inline uint bits(float x) { return as_type<uint>(x); }
}

using namespace metal;

kernel void bits(device float* f [[buffer(0)]], device uint* u [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    u[i] = c10::bits(f[i]) ^ 0x80000000u;
    f[i] = as_type<float>(u[i]) + float(as_type<int2>(float2(f[i])).x & 1);
}

// naga's WGSL `bitcast<i32>(bitcast<f32>(old) + 1.0)`: the unsuffixed literal keeps the sum a float.
kernel void bitcast_plus_one(device int* p [[buffer(0)]]) { p[0] = as_type<int>(as_type<float>(p[0]) + 1.0); }

// Tint's bitcast of a packed 3-vector member: its three elements.
struct Packed { packed_int3 position; int pad; };
kernel void packed_three(const device Packed* in [[buffer(0)]], device int3* out [[buffer(1)]]) {
    out[0] = as_type<int3>(in->position);
}
