// Buffers without [[buffer(n)]] take the first index no other parameter names explicitly.
#include <metal_stdlib>
using namespace metal;

kernel void scale_and_offset(device float* out,
                             constant float& scale [[buffer(0)]],
                             device const float* in,
                             constant float* offsets [[buffer(2)]],
                             constant uint& count,
                             uint i [[thread_position_in_grid]])
{
    if (i < count) out[i] = in[i] * scale + offsets[i % 4];
}
