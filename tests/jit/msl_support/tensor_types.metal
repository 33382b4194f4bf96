// expect: compiles
// language: 4.0
// Metal 4 tensors: a tensor_handle parameter, tensors made over buffers (CTAD, explicit
// strides), static and dynamic slices, extents queried.
#include <metal_stdlib>
#include <metal_tensor>
using namespace metal;

kernel void tensor_types(tensor<device float, dextents<int, 2>> bound,
                         device float* raw [[buffer(1)]],
                         device float* out [[buffer(2)]],
                         uint i [[thread_position_in_grid]])
{
    auto packed = tensor(raw, dextents<int, 2>(8, 4));
    tensor<device float, dextents<int, 2>, tensor_inline> strided(raw, dextents<int, 2>(4, 4), array<int, 2>({1, 8}));
    auto rows = packed.slice<dynamic_extent, 2>(0, 1);
    auto corner = strided.slice(2, 2);
    out[i] = float(bound.get_extent(0) + rows.get_extent(1) + corner.get_extent(0) + packed.get_stride(1));
}
