// Kernels and their helpers inside namespaces, including a template instantiated from
// another namespace.
#include <metal_stdlib>
using namespace metal;

namespace demo {
namespace ops {

inline float square(float x) { return x * x; }

kernel void squares(device float* data [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    data[i] = square(data[i]);
}

template <typename T>
kernel void negate(device T* data [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    data[i] = -data[i];
}

} // namespace ops

template [[host_name("negate_float")]] kernel void ops::negate<float>(device float*, uint);

} // namespace demo
