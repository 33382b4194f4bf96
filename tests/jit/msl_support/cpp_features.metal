// expect: compiles
#include <metal_stdlib>
using namespace metal;

template <typename T, int N>
struct Accumulator {
    T values[N];
    constexpr T sum() const thread {
        T s = 0;
        for (int k = 0; k < N; ++k) s += values[k];
        return s;
    }
};

struct Square {
    template <typename T>
    T operator()(T x) const { return x * x; }
};

template <typename Op, typename T>
inline T apply(Op op, T x) {
    if constexpr (is_floating_point_v<T>) return op(x);
    else return x;
}

kernel void features(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    Accumulator<float, 4> acc{{1, 2, 3, float(i)}};
    auto twice = [&](float v) { return v * 2.0f; };
    static_assert(sizeof(float4) == 16, "vector sizes are Metal's");
    out[i] = twice(apply(Square{}, acc.sum()));
}
