// expect: compiles
#include <metal_stdlib>
using namespace metal;

template <typename U>
struct Max {
    template <typename T> T operator()(T a, T b) const { return a > b ? a : b; }
    template <> float operator()(float a, float b) const { return fmax(a, b); }
};

kernel void pairwise_max(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = Max<float>{}(data[i], 0.5f);
}
