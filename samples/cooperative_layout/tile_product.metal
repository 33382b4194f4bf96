// D = A x B for float matrices (M x K times K x N, row-major, sides multiples of the 16 x 32
// tile), one SIMD-group per 16 x 32 tile of D, K in steps of 16 accumulated into a cooperative
// destination, as MLX's NAX matmul does. Two kernels compute the same tile product; they
// differ only in how they find which elements of a cooperative tensor a thread holds:
//  - portable_tile asks the cooperative tensor (get_multidimensional_index, is_valid_element);
//  - m5_tile hard-codes the lane map of Apple's M5 GPUs (apple10), as MLX's nax.h does.
// On an M5 both are right; on any other layout only the portable one is.
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>

using namespace metal;
using namespace mpp::tensor_ops;

struct Gemm { int m, n, k; };

constant constexpr int kRows = 16, kColumns = 32, kDepth = 16;

// Multiply-accumulate, with the B side already the right way round (the last three
// descriptor fields: no transposes, relaxed precision, accumulate into the destination).
constexpr auto kTileProduct = matmul2d_descriptor(kRows, kColumns, kDepth, false, false, true,
                                                  matmul2d_descriptor::mode::multiply_accumulate);
using TileProduct = matmul2d<kTileProduct, execution_simdgroup>;

// The threadgroup stages the current K step of A (16 x 16) and B (16 x 32); each cooperative
// slot then reads the element at the coordinates the device gives it. Extents are innermost
// first, so index [0] is the column and [1] the row within the operand's tile.
kernel void portable_tile(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                          device float* d [[buffer(2)]], constant Gemm& g [[buffer(3)]],
                          uint2 tile [[threadgroup_position_in_grid]], ushort lane [[thread_index_in_simdgroup]])
{
    threadgroup float stagedA[kRows * kDepth];
    threadgroup float stagedB[kDepth * kColumns];
    const int row0 = int(tile.y) * kRows, column0 = int(tile.x) * kColumns;
    TileProduct product;
    auto left = product.get_left_input_cooperative_tensor<float, float, float>();
    auto right = product.get_right_input_cooperative_tensor<float, float, float>();
    auto result = product.get_destination_cooperative_tensor<decltype(left), decltype(right), float>();
    for (int k0 = 0; k0 < g.k; k0 += kDepth) {
        for (int i = lane; i < kRows * kDepth; i += 32)
            stagedA[i] = a[(row0 + i / kDepth) * g.k + k0 + i % kDepth];
        for (int i = lane; i < kDepth * kColumns; i += 32)
            stagedB[i] = b[(k0 + i / kColumns) * g.n + column0 + i % kColumns];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (int i = 0; i < left.get_capacity(); ++i)
            if (left.is_valid_element(i)) {
                auto at = left.get_multidimensional_index(i);
                left[i] = stagedA[at[1] * kDepth + at[0]];
            }
        for (int i = 0; i < right.get_capacity(); ++i)
            if (right.is_valid_element(i)) {
                auto at = right.get_multidimensional_index(i);
                right[i] = stagedB[at[1] * kColumns + at[0]];
            }
        threadgroup_barrier(mem_flags::mem_threadgroup);  // staging is reused next step
        product.run(left, right, result);
    }
    for (int i = 0; i < result.get_capacity(); ++i)
        if (result.is_valid_element(i)) {
            auto at = result.get_multidimensional_index(i);
            d[(row0 + at[1]) * g.n + column0 + at[0]] = result[i];
        }
}

// Slot i of a 16 x 16 fragment on M5: lane l holds rows r0 and r0 + 8, four adjacent columns
// from c0. A has one fragment (8 slots); B and D have two side by side (16 slots).
kernel void m5_tile(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                    device float* d [[buffer(2)]], constant Gemm& g [[buffer(3)]],
                    uint2 tile [[threadgroup_position_in_grid]], ushort lane [[thread_index_in_simdgroup]])
{
    const int row0 = int(tile.y) * kRows, column0 = int(tile.x) * kColumns;
    const short q = lane >> 2, r0 = (q & 4) | ((lane >> 1) & 3), c0 = ((q & 2) | (lane & 1)) * 4;
    TileProduct product;
    auto left = product.get_left_input_cooperative_tensor<float, float, float>();
    auto right = product.get_right_input_cooperative_tensor<float, float, float>();
    auto result = product.get_destination_cooperative_tensor<decltype(left), decltype(right), float>();
    for (int k0 = 0; k0 < g.k; k0 += kDepth) {
        for (short i = 0; i < 8; ++i)
            left[i] = a[(row0 + r0 + 8 * (i >> 2)) * g.k + k0 + c0 + (i & 3)];
        for (short i = 0; i < 16; ++i)
            right[i] = b[(k0 + r0 + 8 * ((i & 7) >> 2)) * g.n + column0 + 16 * (i >> 3) + c0 + (i & 3)];
        product.run(left, right, result);
    }
    for (short i = 0; i < 16; ++i)
        d[(row0 + r0 + 8 * ((i & 7) >> 2)) * g.n + column0 + 16 * (i >> 3) + c0 + (i & 3)] = result[i];
}
