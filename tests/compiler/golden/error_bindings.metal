// Errors: a duplicate buffer index, an index out of range, and a by-value buffer parameter.
#include <metal_stdlib>
using namespace metal;

kernel void broken(device float* a [[buffer(1)]],
                   device float* b [[buffer(1)]],
                   device float* c [[buffer(31)]],
                   constant float scale [[buffer(2)]],
                   uint i [[thread_position_in_grid]])
{
    a[i] = b[i] * scale + c[i];
}
