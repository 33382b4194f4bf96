// D = relu(A x B) for half matrices whose sides are multiples of 64, written as Apple's
// Metal 4 sample writes it: tensor parameters, 64 x 64 destination tiles, one inline
// matmul2d per tile done by the threadgroup's four SIMD-groups, and a ReLU applied to the
// elements each thread owns in the cooperative result.
#include <metal_stdlib>
#include <metal_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>

using namespace metal;
using namespace mpp::tensor_ops;

constant constexpr int kTile = 64;

kernel void matmul_relu(tensor<device half, dextents<int, 2>> a,
                        tensor<device half, dextents<int, 2>> b,
                        tensor<device half, dextents<int, 2>> d,
                        uint2 tile [[threadgroup_position_in_grid]])
{
    // Extents are innermost first: a row-major M x K matrix is (K, M).
    const int column = int(tile.x) * kTile, row = int(tile.y) * kTile;
    auto rowsOfA = a.slice<dynamic_extent, kTile>(0, row);
    auto columnsOfB = b.slice<kTile, dynamic_extent>(column, 0);
    auto tileOfD = d.slice<kTile, kTile>(column, row);

    constexpr auto shape = matmul2d_descriptor(kTile, kTile, dynamic_length_v<int>);
    matmul2d<shape, execution_simdgroups<4>> product;
    auto result = product.get_destination_cooperative_tensor<decltype(rowsOfA), decltype(columnsOfB), half>();
    product.run(rowsOfA, columnsOfB, result);

    // Which elements a thread owns is the device's business; each thread touches its own.
    for (int e = 0; e < result.get_capacity(); ++e)
        if (result.is_valid_element(e)) result[e] = max(result[e], half(0));
    result.store(tileOfD);
}
