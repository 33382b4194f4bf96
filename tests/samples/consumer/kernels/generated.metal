// Includes a header that a custom target generates (metal_add_library(DEPENDS <target>) makes
// it exist before this file is compiled).
#include <metal_stdlib>
#include "generated_value.h"
using namespace metal;

kernel void generated(device int* out [[buffer(0)]]) {
    out[0] = GENERATED_VALUE;
}
