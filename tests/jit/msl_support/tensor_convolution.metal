// expect: error: convolution2d<int> op
// language: 4.0
#include <metal_stdlib>
#include <metal_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

kernel void tensor_convolution(device half* p [[buffer(0)]])
{
    convolution2d<int> op;
    (void)op;
    p[0] = 0;
}
