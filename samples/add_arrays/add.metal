#include <metal_stdlib>
using namespace metal;

// Adds two arrays element by element: one thread per element.
kernel void add_arrays(device const float* inA,
                       device const float* inB,
                       device float* result,
                       uint index [[thread_position_in_grid]])
{
    result[index] = inA[index] + inB[index];
}
