// expect: compiles
#include <metal_stdlib>
using namespace metal;

// PyTorch's shape: one functor for real and complex (float2) values, chosen by traits that
// hold for vectors, and c10::metal's scalar-only spelling beside them.
template <typename T> constexpr constant bool is_scalar_floating = is_floating_point_v<T> && is_scalar_v<T>;

struct negate_functor {
    template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
    T operator()(T x) { return -x; }
};

static_assert(is_floating_point_v<float2> && is_integral_v<int4> && !is_scalar_v<half2>);
static_assert(is_scalar_floating<float> && !is_scalar_floating<float2>);

kernel void traits(device float* x [[buffer(0)]], device float2* z [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    x[i] = negate_functor()(x[i]);
    z[i] = negate_functor()(z[i]);
}
