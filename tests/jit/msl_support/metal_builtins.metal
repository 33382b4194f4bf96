// expect: compiles
#include <metal_stdlib>
using namespace metal;

// The way MLX's bf16_math.h defines its math overloads, over Apple's builtins.
METAL_FUNC float mlx_style_exp(float x) { return __metal_exp(x, __METAL_MAYBE_FAST_MATH__); }
METAL_FUNC float mlx_style_abs(float x) { return __metal_fabs(x, __METAL_PRECISE_MATH__); }

kernel void builtins(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = mlx_style_exp(data[i]) + mlx_style_abs(-data[i]);
}
