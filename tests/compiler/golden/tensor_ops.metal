// Metal 4 tensor operations, shaped like the kernels that use them in public code: Apple's
// inline-ML sample (tensor parameters without attributes, `run` in the body: a coroutine), a
// PyTorch-style GEMM template (tensor_inline views of buffers, early return, `if constexpr`,
// iterators: a coroutine), an attention-style row reduction (threadgroup tensor, reduce_rows,
// map_iterator: a coroutine), an MLX-style kernel whose `run` is in a helper (on fibers) and a
// llama.cpp-style template whose function-pointer parameter reaches only load_tile (a coroutine).
#include <metal_stdlib>
#include <metal_tensor>
#include <metal_cooperative_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

half clamp_below(half x) { return x < half(0.0f) ? half(0.0f) : x; }

kernel void tile_product(uint2 group [[threadgroup_position_in_grid]],
                         tensor<device half, dextents<int, 2>> left,
                         tensor<device half, dextents<int, 2>> right,
                         tensor<device half, dextents<int, 2>> product)
{
    constexpr int Tile = 64;
    const int column = Tile * group.x, row = Tile * group.y;
    auto a = left.slice<dynamic_extent, Tile>(0, row);
    auto b = right.slice<Tile, dynamic_extent>(column, 0);
    auto d = product.slice<Tile, Tile>(column, row);
    constexpr auto shape = matmul2d_descriptor(Tile, Tile, dynamic_length_v<int>);
    matmul2d<shape, execution_simdgroups<4>> mm;
    auto acc = mm.get_destination_cooperative_tensor<decltype(a), decltype(b), half>();
    mm.run(a, b, acc);
    for (int e = 0; e < acc.get_capacity(); ++e) acc[e] = clamp_below(acc[e]);
    acc.store(d);
}

namespace gemm {

template <typename T, int BM, int BN, bool TRANSPOSED>
kernel void strided(device T* a [[buffer(0)]],
                    device T* b [[buffer(1)]],
                    device float* c [[buffer(2)]],
                    constant int3& mnk [[buffer(3)]],
                    uint3 tg [[threadgroup_position_in_grid]])
{
    const int m = mnk.x, n = mnk.y, k = mnk.z;
    if (int(tg.x) * BN >= n || int(tg.y) * BM >= m) {
        return;
    }
    tensor<device T, dextents<int32_t, 2>, tensor_inline> ta(a, dextents<int32_t, 2>(k, m), array<int32_t, 2>{1, k});
    tensor<device T, dextents<int32_t, 2>, tensor_inline> tb(b, dextents<int32_t, 2>(n, k), array<int32_t, 2>{1, n});
    tensor<device float, dextents<int32_t, 2>, tensor_inline> tc(c, dextents<int32_t, 2>(n, m), array<int32_t, 2>{1, n});
    constexpr auto desc = matmul2d_descriptor(BM, BN, static_cast<int>(dynamic_extent), TRANSPOSED, false, true,
                                              matmul2d_descriptor::mode::multiply);
    mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>> op;
    auto sa = ta.template slice<dynamic_extent, BM>(0, int(tg.y) * BM);
    auto sb = tb.template slice<BN, dynamic_extent>(int(tg.x) * BN, 0);
    auto wide = op.template get_destination_cooperative_tensor<decltype(sa), decltype(sb), float>();
    if constexpr (TRANSPOSED) {
        op.run(sa, sb, wide);
    } else {
        op.run(sa, sb, wide);
    }
    auto narrow = op.template get_destination_cooperative_tensor<decltype(sa), decltype(sb), T>();
    int e = 0;
    for (auto it = wide.begin(); it != wide.end(); ++it, ++e) {
        if (!wide.is_valid_element(e)) continue;
        auto at = it.get_multidimensional_index();
        narrow[e] = T(wide[e] + float(at[0] + at[1]));
    }
    wide.store(tc.slice(int(tg.x) * BN, int(tg.y) * BM));
}

} // namespace gemm

template [[host_name("gemm_strided_half_64_32")]] kernel void gemm::strided<half, 64, 32, false>(
    device half*, device half*, device float*, constant int3&, uint3);

kernel void row_maxima(device half* scores [[buffer(0)]],
                       device float* maxima [[buffer(1)]],
                       uint simd [[simdgroup_index_in_threadgroup]])
{
    if (simd > 0) return;
    threadgroup half staged[32 * 16];
    auto q = tensor<threadgroup half, dextents<int32_t, 2>, tensor_inline>(staged, dextents<int32_t, 2>(32, 16));
    auto k = tensor<device half, dextents<int32_t, 2>, tensor_inline>(scores, dextents<int32_t, 2>(16, 32));
    simdgroup_barrier(mem_flags::mem_threadgroup);
    constexpr auto desc = matmul2d_descriptor(16, 16, 32);
    matmul2d<desc, execution_simdgroups<1>> qk;
    auto s = qk.get_destination_cooperative_tensor<decltype(q), decltype(k), float>();
    auto best = qk.get_row_reduction_destination_cooperative_tensor<decltype(q), decltype(k), float>();
    qk.run(q, k, s);
    reduce_rows(s, best, reduction_operation::max, numeric_limits<float>::lowest());
    mpp::tensor_ops::reduce_rows(s, best, reduction_operation::sum, 0.0f);
    for (int e = 0; e < s.get_capacity(); ++e) {
        auto it = s.get_iterator(e);
        auto row = best.map_iterator(it);
        maxima[s.get_multidimensional_index(e)[1]] = *row;
    }
}

template <typename Op, typename A, typename B, typename C>
void run_fragment(thread Op& op, thread A& a, thread B& b, thread C& c)
{
    op.run(a, b, c);
}

kernel void fragments(device float* out [[buffer(0)]],
                      uint lane [[thread_index_in_simdgroup]])
{
    constexpr auto desc = matmul2d_descriptor(16, 32, 16, false, false, true,
                                              matmul2d_descriptor::mode::multiply_accumulate);
    matmul2d<desc, execution_simdgroup> op;
    auto ca = op.get_left_input_cooperative_tensor<float, float, float>();
    auto cb = op.get_right_input_cooperative_tensor<float, float, float>();
    auto cc = op.get_destination_cooperative_tensor<decltype(ca), decltype(cb), float>();
    for (int i = 0; i < ca.get_capacity(); ++i) ca[i] = float(lane + i);
    for (int i = 0; i < cb.get_capacity(); ++i) cb[i] = 1.0f;
    run_fragment(op, ca, cb, cc);
    for (int i = 0; i < cc.get_capacity(); ++i) out[lane * 16 + i] = cc[i];
}

void load_tile(device const half* from, thread half& to) { to = from[0]; }

template <void (*load)(device const half*, thread half&)>
kernel void quantised(device const half* src [[buffer(0)]],
                      device float* dst [[buffer(1)]],
                      uint tid [[thread_index_in_threadgroup]])
{
    threadgroup half tile[64 * 32];
    half v = half(0.0f);
    load(src + tid, v);
    tile[tid] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    auto ta = tensor(tile, dextents<int32_t, 2>(32, 64));
    auto tb = tensor(src, dextents<int32_t, 2>(32, 32), array<int, 2>({1, 32}));
    mpp::tensor_ops::matmul2d<mpp::tensor_ops::matmul2d_descriptor(32, 64, static_cast<int>(dynamic_extent), false,
                                                                   true, true,
                                                                   mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate),
                              execution_simdgroups<4>> mm;
    auto ct = mm.get_destination_cooperative_tensor<decltype(tb), decltype(ta), float>();
    mm.run(tb, ta, ct);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    auto td = tensor(dst, dextents<int32_t, 2>(32, 64));
    ct.store(td);
}

template [[host_name("quantised_plain")]] kernel void quantised<load_tile>(device const half*, device float*, uint);
