// expect: compiles
#include <metal_stdlib>
using namespace metal;

template <typename U>
struct Max {
    template <typename T> T operator()(T a, T b) const { return a > b ? a : b; }
    template <> float operator()(float a, float b) const { return fmax(a, b); }
};

struct Scale {
    template <typename T, int N = 2> T apply(T x) const { return x * T(N); }
    template <> float apply<float, 3>(float x) const { return x + 3.0f; }
};

kernel void pairwise_max(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = Max<float>{}(data[i], 0.5f) + Scale{}.apply<float, 3>(data[i]) + Scale{}.apply(data[i]);
}
