// expect: error: threadgroup_imageblock address space is not supported
#include <metal_stdlib>
using namespace metal;

kernel void tiles(device float* out [[buffer(0)]]) {
    threadgroup_imageblock float* block = nullptr;
    out[0] = block ? 1.0f : 0.0f;
}
