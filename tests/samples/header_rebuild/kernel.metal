#include <metal_stdlib>
#include "value.h"
using namespace metal;

kernel void value(device int* out [[buffer(0)]]) {
    out[0] = VALUE * SCALE;
}
