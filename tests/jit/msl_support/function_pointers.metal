// expect: compiles
#include <metal_stdlib>
using namespace metal;

// Function pointers as parameters, as PyTorch's atomic.h CAS loops take their operation, and
// functions as template arguments, as ggml's dequantisers and PyTorch's index_reduce pass them.
inline float add_op(float a, float b) { return a + b; }
inline float max_op(float a, float b) { return max(a, b); }
struct Ops {
    template <typename T> static T mul(T a, T b) { return a * b; }
};

inline float apply(float (*op)(float, float), float a, float b) { return op(a, b); }
template <float (*op)(float, float)> float reduce2(float a, float b) { return op(a, b); }

// A type named through decltype, cast to as PyTorch's BinaryKernel does, by static_cast.
template <typename T, typename U> using sum_t = decltype(T() + U());

kernel void function_pointers(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    auto y = static_cast<device sum_t<float, float>*>(static_cast<device void*>(x + i));
    *y += 1.0f;
    x[i] = apply(add_op, x[i], 1.0f) + reduce2<max_op>(x[i], 0.0f) + reduce2<Ops::mul<float>>(x[i], 2.0f);
}
