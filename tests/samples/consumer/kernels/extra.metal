#include <metal_stdlib>
using namespace metal;

kernel void extra(device int* out [[buffer(0)]]) {
    out[0] = 99;
}
