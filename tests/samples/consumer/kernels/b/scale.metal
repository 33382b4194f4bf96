// The other scale.metal: SHARED_CONSTANT comes from the host program's include directory
// (INCLUDE_DIRECTORIES_FROM), FROM_OPTIONS from OPTIONS.
#include <metal_stdlib>
#include "shared_constants.h"
using namespace metal;

kernel void scale_b(device int* out [[buffer(0)]]) {
    out[0] = SHARED_CONSTANT * 3 + FROM_OPTIONS;
}
