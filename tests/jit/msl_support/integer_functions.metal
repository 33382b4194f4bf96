// expect: compiles
#include <metal_stdlib>
using namespace metal;

// A library's own min, beside metal's (PyTorch's c10::metal): metal's plain overload wins.
namespace lib {
template <typename T, typename U> enable_if_t<is_integral_v<T> && is_integral_v<U>, T> min(T a, U b) {
    return a < T(b) ? a : T(b);
}
}
using namespace lib;

kernel void integers(device uint* u [[buffer(0)]], device int* s [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    u[i] = popcount(u[i]) + clz(u[i]) + ctz(u[i]) + mulhi(u[i], 3u) + rotate(u[i], 4u) + extract_bits(u[i], 2, 4);
    s[i] = abs(s[i]) + min(s[i], 3) + addsat(s[i], 7) + absdiff(s[i], 2);
}
