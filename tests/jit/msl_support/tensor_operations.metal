// expect: compiles
// language: 4.0
// matmul2d into a cooperative tensor, an element-wise epilogue through
// get_multidimensional_index, a row reduction, and a store clipped to the destination.
#include <metal_stdlib>
#include <metal_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

kernel void tensor_operations(device half* a [[buffer(0)]], device half* b [[buffer(1)]],
                              device float* d [[buffer(2)]], device float* row_max [[buffer(3)]],
                              constant int& k [[buffer(4)]])
{
    auto ta = tensor(a, dextents<int, 2>(k, 32));
    auto tb = tensor(b, dextents<int, 2>(32, k));
    auto td = tensor(d, dextents<int, 2>(32, 32));
    constexpr auto shape = matmul2d_descriptor(32, 32, dynamic_length_v<int>);
    matmul2d<shape, execution_simdgroups<2>> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(ta), decltype(tb), float>();
    op.run(ta, tb, ct);
    for (int e = 0; e < ct.get_capacity(); ++e) {
        if (!ct.is_valid_element(e)) continue;
        auto at = ct.get_multidimensional_index(e);
        ct[e] += float(at[0] == at[1]);
    }
    auto maxima = op.get_row_reduction_destination_cooperative_tensor<decltype(ta), decltype(tb), float>();
    reduce_rows(ct, maxima, reduction_operation::max, numeric_limits<float>::lowest());
    for (int e = 0; e < maxima.get_capacity(); ++e)
        if (maxima.is_valid_element(e)) row_max[maxima.get_multidimensional_index(e)[1]] = maxima[e];
    ct.store(td);
}
