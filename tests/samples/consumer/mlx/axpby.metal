// An MLX extension's kernel, built with mlx_build_metallib() (INCLUDE_DIRS mlx).
#include <metal_stdlib>
#include "axpby.h"
using namespace metal;

kernel void axpby(device int* out [[buffer(0)]]) {
    out[0] = ALPHA * 10 + BETA;
}
