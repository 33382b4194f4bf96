// expect: compiles
#include <metal_stdlib>
using namespace metal;

struct Sum {
    template <typename T, enable_if_t<sizeof(T) < 8, bool> = true>
    T operator()(T a, T b) const { return a + b; }
};

// A comparison whose left operand is a non-type template parameter, without parentheses.
template <int N, enable_if_t<N < 8, bool> = true>
float scaled(float x) { return x * N; }

template <bool Small> float pick(float x) { return Small ? x : -x; }

template <int N> float both(float x) { return pick<N < 8>(scaled<N>(x)); }

// ... a constant, and a dependent name (no `template` keyword: not a template, as in C++).
constexpr constant int kLimit = 4;
struct Lanes { static constexpr constant int size = 4; };

template <typename T, enable_if_t<kLimit < 8 && T::size < 8, bool> = true>
float narrow(float x) { return x + T::size; }

kernel void reduce_pairs(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = Sum{}(data[i], 1.0f) + both<2>(data[i]) + narrow<Lanes>(data[i]);
}
