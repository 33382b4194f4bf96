// expect: compiles
// Names of Apple's <metal_stdlib> internals that libraries use (candle's reduce.metal): limits
// of a library type given by specialising _numeric_limits_impl, and the requirement of the
// SIMD-group functions asked to pick a SIMD-group path or a threadgroup-memory fallback.
#include <metal_stdlib>
using namespace metal;

template <typename T> struct ranked { uint rank; T value; };

template <typename T>
struct _numeric_limits_impl<ranked<T>> {
    static constexpr METAL_FUNC ranked<T> lowest() { return ranked<T>{0, numeric_limits<T>::lowest()}; }
};

template <typename T> constexpr constant bool takes_simd = __is_valid_simdgroup_type<T>::value;
static_assert(takes_simd<float> && takes_simd<half4> && takes_simd<uint> && takes_simd<short2>, "32 bits or fewer");
static_assert(!takes_simd<ulong> && !takes_simd<long> && !takes_simd<bfloat> && !takes_simd<ranked<float>>,
              "no 64-bit integers, bfloat or classes");

template <typename T>
T largest(T x) {
    if constexpr (takes_simd<T>) {
        return simd_max(x);
    } else {
        return x;
    }
}

kernel void lowest_ranked(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    const ranked<float> r = numeric_limits<ranked<float>>::lowest();
    out[i] = largest(r.value) + float(largest(ranked<float>{i, 1.0f}).rank);
}
