// One of two kernels.metal-like sources with the same file name (kernels/b/scale.metal).
// FACTOR comes from COMPILE_DEFINITIONS, OFFSET from an INCLUDE_DIRECTORIES header.
#include <metal_stdlib>
#include "offset.h"
using namespace metal;

kernel void scale_a(device int* out [[buffer(0)]]) {
    out[0] = OFFSET + FACTOR * 2;
}
