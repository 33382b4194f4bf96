// expect: compiles
#include <metal_stdlib>
using namespace metal;

struct Sum {
    template <typename T, enable_if_t<sizeof(T) < 8, bool> = true>
    T operator()(T a, T b) const { return a + b; }
};

kernel void reduce_pairs(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = Sum{}(data[i], 1.0f);
}
