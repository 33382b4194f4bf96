// expect: compiles
#include <metal_stdlib>
using namespace metal;

kernel void scalars(device half* h [[buffer(0)]], device long* l [[buffer(1)]], device char* c [[buffer(2)]],
                    device ushort* s [[buffer(3)]], uint i [[thread_position_in_grid]]) {
    half x = h[i] * 2.0h + half(1);
    size_t wide = size_t(i) << 40;
    int64_t signed_wide = -static_cast<int64_t>(wide);
    h[i] = x;
    l[i] = signed_wide + long(c[i]) + s[i];
}
