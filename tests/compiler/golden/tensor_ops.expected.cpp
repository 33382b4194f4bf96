#define METALCPU_TENSOR_HEADERS 1
#include <metalcpu/kernel_prelude.h>
#line 11 "tensor_ops.metal"
using namespace metal;
using namespace mpp::tensor_ops;

half clamp_below(half x) { return x < half(0.0f) ? half(0.0f) : x; }

::metalcpu_kernel::barrier_task tile_product(uint2 group             ,
                         tensor<       half, dextents<int, 2>> left,
                         tensor<       half, dextents<int, 2>> right,
                         tensor<       half, dextents<int, 2>> product, [[maybe_unused]] const ::mc_group* __mc_group)
{
    constexpr int Tile = 64;
    const int column = Tile * group.x, row = Tile * group.y;
    auto a = left.slice<dynamic_extent, Tile>(0, row);
    auto b = right.slice<Tile, dynamic_extent>(column, 0);
    auto d = product.slice<Tile, Tile>(column, row);
    constexpr auto shape = matmul2d_descriptor(Tile, Tile, dynamic_length_v<int>);
    matmul2d<shape, execution_simdgroups<4>> mm;
    auto acc = mm.get_destination_cooperative_tensor<decltype(a), decltype(b), half>();
    co_await ::metalcpu_kernel::scope_run(mm, a, b, acc);
    for (int e = 0; e < acc.get_capacity(); ++e) acc[e] = clamp_below(acc[e]);
    acc.store(d);
}

namespace gemm {

template <typename T, int BM, int BN, bool TRANSPOSED>
::metalcpu_kernel::barrier_task strided( T* a,
                           T* b              ,
                           float* c              ,
                    const    int3& mnk              ,
                    uint3 tg                                 , [[maybe_unused]] const ::mc_group* __mc_group)
{
    const int m = mnk.x, n = mnk.y, k = mnk.z;
    if (int(tg.x) * BN >= n || int(tg.y) * BM >= m) {
        co_return;
    }
    tensor<       T, dextents<int32_t, 2>, tensor_inline> ta(a, dextents<int32_t, 2>(k, m), array<int32_t, 2>{1, k});
    tensor<       T, dextents<int32_t, 2>, tensor_inline> tb(b, dextents<int32_t, 2>(n, k), array<int32_t, 2>{1, n});
    tensor<       float, dextents<int32_t, 2>, tensor_inline> tc(c, dextents<int32_t, 2>(n, m), array<int32_t, 2>{1, n});
    constexpr auto desc = matmul2d_descriptor(BM, BN, static_cast<int>(dynamic_extent), TRANSPOSED, false, true,
                                              matmul2d_descriptor::mode::multiply);
    mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>> op;
    auto sa = ta.template slice<dynamic_extent, BM>(0, int(tg.y) * BM);
    auto sb = tb.template slice<BN, dynamic_extent>(int(tg.x) * BN, 0);
    auto wide = op.template get_destination_cooperative_tensor<decltype(sa), decltype(sb), float>();
    if constexpr (TRANSPOSED) {
        co_await ::metalcpu_kernel::scope_run(op, sa, sb, wide);
    } else {
        co_await ::metalcpu_kernel::scope_run(op, sa, sb, wide);
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

}




::metalcpu_kernel::barrier_task row_maxima( half* scores,
                              float* maxima              ,
                       uint simd                                   , [[maybe_unused]] const ::mc_group* __mc_group)
{
    if (simd > 0) co_return;
    auto& staged = ::metalcpu_kernel::threadgroup_variable<half[32 * 16], 0x1ull>(__mc_group);
    auto q = tensor<            half, dextents<int32_t, 2>, tensor_inline>(staged, dextents<int32_t, 2>(32, 16));
    auto k = tensor<       half, dextents<int32_t, 2>, tensor_inline>(scores, dextents<int32_t, 2>(16, 32));
    co_await ::metalcpu_kernel::simdgroup_barrier_point(mem_flags::mem_threadgroup);
    constexpr auto desc = matmul2d_descriptor(16, 16, 32);
    matmul2d<desc, execution_simdgroups<1>> qk;
    auto s = qk.get_destination_cooperative_tensor<decltype(q), decltype(k), float>();
    auto best = qk.get_row_reduction_destination_cooperative_tensor<decltype(q), decltype(k), float>();
    co_await ::metalcpu_kernel::scope_run(qk, q, k, s);
    co_await ::metalcpu_kernel::scope_reduce_rows(s, best, reduction_operation::max, numeric_limits<float>::lowest());
    co_await ::metalcpu_kernel::scope_reduce_rows(s, best, reduction_operation::sum, 0.0f);
    for (int e = 0; e < s.get_capacity(); ++e) {
        auto it = s.get_iterator(e);
        auto row = best.map_iterator(it);
        maxima[s.get_multidimensional_index(e)[1]] = *row;
    }
}

template <typename Op, typename A, typename B, typename C>
void run_fragment(       Op& op,        A& a,        B& b,        C& c)
{
    op.run(a, b, c);
}

inline void fragments(       float* out              ,
                      uint lane                              , [[maybe_unused]] const ::mc_group* __mc_group)
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

void load_tile(       const half* from,        half& to) { to = from[0]; }

template <void (*load)(       const half*,        half&)>
::metalcpu_kernel::barrier_task quantised( const half* src,
                             float* dst              ,
                      uint tid                                , [[maybe_unused]] const ::mc_group* __mc_group)
{
    auto& tile = ::metalcpu_kernel::threadgroup_variable<half[64 * 32], 0x2ull>(__mc_group);
    half v = half(0.0f);
    load(src + tid, v);
    tile[tid] = v;
    co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);
    auto ta = tensor(tile, dextents<int32_t, 2>(32, 64));
    auto tb = tensor(src, dextents<int32_t, 2>(32, 32), array<int, 2>({1, 32}));
    mpp::tensor_ops::matmul2d<mpp::tensor_ops::matmul2d_descriptor(32, 64, static_cast<int>(dynamic_extent), false,
                                                                   true, true,
                                                                   mpp::tensor_ops::matmul2d_descriptor::mode::multiply_accumulate),
                              execution_simdgroups<4>> mm;
    auto ct = mm.get_destination_cooperative_tensor<decltype(tb), decltype(ta), float>();
    co_await ::metalcpu_kernel::scope_run(mm, tb, ta, ct);
    co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);
    auto td = tensor(dst, dextents<int32_t, 2>(32, 64));
    ct.store(td);
}
#line 1 "<metalcpu generated>"
// "tile_product"
#if METALCPU_SELECTS_KERNEL(0xd1495e5593bfaf61ull)
namespace {
using __mc_0_fn = decltype(&::tile_product);
void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a1 = ::metalcpu_kernel::tensor_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 0);
    auto&& __a2 = ::metalcpu_kernel::tensor_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 1);
    auto&& __a3 = ::metalcpu_kernel::tensor_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 2);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return ::tile_product(::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), __a1, __a2, __a3, __g);
    });
}
const ::mc_param __mc_0_params[] = {
    {"group", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 16, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"left", "tensor<device half, dextents<int, 2>>", MC_PARAM_TENSOR, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 17, 64, 0, 0, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>::rank, static_cast<mc_u32>(::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>::data_type), 0, nullptr, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>::index_type, 0, nullptr},
    {"right", "tensor<device half, dextents<int, 2>>", MC_PARAM_TENSOR, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 18, 64, 0, 0, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rank, static_cast<mc_u32>(::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::data_type), 0, nullptr, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::index_type, 0, nullptr},
    {"product", "tensor<device half, dextents<int, 2>>", MC_PARAM_TENSOR, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 19, 64, 0, 0, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rank, static_cast<mc_u32>(::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::data_type), 0, nullptr, ::metalcpu_kernel::tensor_parameter<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::index_type, 0, nullptr},
};
}
#endif

// "gemm_strided_half_64_32"
#if METALCPU_SELECTS_KERNEL(0x47046c8344134580ull)
namespace {
#line 73 "tensor_ops.metal"
using __mc_1_fn = decltype(&::gemm::strided<half, 64, 32, false>);
#line 28 "<metalcpu generated>"
void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>(__g, 3);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return ::gemm::strided<half, 64, 32, false>(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), __g);
    });
}
const ::mc_param __mc_1_params[] = {
    {"a", "device T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 37, 31, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"b", "device T*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 38, 31, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"c", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 39, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
    {"mnk", "constant int3&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 40, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 0, nullptr},
    {"tg", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, 41, 27, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, 0, nullptr},
};
}
#endif

// "row_maxima"
#if METALCPU_SELECTS_KERNEL(0x85483296daefe147ull)
namespace {
using __mc_2_fn = decltype(&::row_maxima);
void __mc_2_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return ::row_maxima(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
const ::mc_param __mc_2_params[] = {
    {"scores", "device half*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 76, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 0, nullptr},
    {"maxima", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 77, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 0, nullptr},
    {"simd", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 78, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 0, nullptr},
};
const mc_u64 __mc_2_sites[] = {0x1ull};
}
#endif

// "fragments"
#if METALCPU_SELECTS_KERNEL(0x9fb3829a4ccbf3caull)
namespace {
using __mc_3_fn = decltype(&::fragments);
void __mc_3_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0);
    ::fragments(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), __g);
}
const ::mc_param __mc_3_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 105, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 0, nullptr},
    {"lane", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 106, 28, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
};
}
#endif

// "quantised_plain"
#if METALCPU_SELECTS_KERNEL(0x7a176872f4f5d5aaull)
namespace {
#line 145 "tensor_ops.metal"
using __mc_4_fn = decltype(&::quantised<load_tile>);
#line 89 "<metalcpu generated>"
void __mc_4_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_4_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_4_fn, 1>>(__g, 1);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return ::quantised<load_tile>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_4_fn, 2>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
const ::mc_param __mc_4_params[] = {
    {"src", "device const half*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_4_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_4_fn, 0>>, 123, 42, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_4_fn, 0>>, 0, nullptr},
    {"dst", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_4_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_4_fn, 1>>, 124, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_4_fn, 1>>, 0, nullptr},
    {"tid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_4_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_4_fn, 2>>, 125, 28, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_4_fn, 2>>, 0, nullptr},
};
const mc_u64 __mc_4_sites[] = {0x2ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xd1495e5593bfaf61ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.tile_product") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x47046c8344134580ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.gemm_strided_half_64_32") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x85483296daefe147ull)
__attribute__((used, visibility("hidden"))) char __mc_2_name __asm__("metalcpu.kernel.row_maxima") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x9fb3829a4ccbf3caull)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.fragments") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x7a176872f4f5d5aaull)
__attribute__((used, visibility("hidden"))) char __mc_4_name __asm__("metalcpu.kernel.quantised_plain") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xd1495e5593bfaf61ull)
    {"tile_product", "tensor_ops.metal", 16, 13, MC_KERNEL_COROUTINES, 0, 4, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "tile_product", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x47046c8344134580ull)
    {"gemm_strided_half_64_32", "tensor_ops.metal", 37, 13, MC_KERNEL_COROUTINES, 0, 5, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "strided<half, 64, 32, false>", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x85483296daefe147ull)
    {"row_maxima", "tensor_ops.metal", 76, 13, MC_KERNEL_COROUTINES, 0, 3, ::__mc_2_params, METALCPU_KERNEL_CODE(&::__mc_2_run_group), nullptr, 1, ::__mc_2_sites, "row_maxima", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x9fb3829a4ccbf3caull)
    {"fragments", "tensor_ops.metal", 105, 13, MC_KERNEL_USES_BARRIERS, 0, 2, ::__mc_3_params, nullptr, METALCPU_KERNEL_CODE(&::__mc_3_run_thread), 0, nullptr, "fragments", 0, "tensor_ops.metal:116:5: it calls 'run_fragment', which uses a tensor operation (tensor_ops.metal:100:6): the front end splits a kernel only at the barriers and SIMD-group functions its own body calls, and at its calls of collective helpers (functions whose only effect is their value and whose lanes make the same SIMD-group functions in the same order: one `return simd_f(...);`, or staged, several in a row, as MLX's `CumMax::simd_scan`); a tensor operation is in none", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x7a176872f4f5d5aaull)
    {"quantised_plain", "tensor_ops.metal", 123, 13, MC_KERNEL_COROUTINES, 0, 3, ::__mc_4_params, METALCPU_KERNEL_CODE(&::__mc_4_run_group), nullptr, 1, ::__mc_4_sites, "quantised<load_tile>", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "tensor_ops.metal", nullptr, 0)
//@columns "tensor_ops.metal" 16 1-33=1 33-45=13 45-46=25 46-51=26 52-57=32
//@columns "tensor_ops.metal" 19 71-119=71
//@columns "tensor_ops.metal" 29 5-45=5 45-47=7 47-48=12 48-49=13 50-51=15 51-52=16 53-56=18 56-57=21 57-58=22
//@columns "tensor_ops.metal" 37 1-33=1 33-40=13 40-41=20 42-43=28 43-44=29 45-46=31
//@columns "tensor_ops.metal" 41 62-110=62
//@columns "tensor_ops.metal" 45 18-19=15
//@columns "tensor_ops.metal" 57 9-49=9 49-51=11 51-53=16 53-54=18 55-57=20 57-58=22 59-63=24 63-64=28 64-65=29
//@columns "tensor_ops.metal" 59 9-49=9 49-51=11 51-53=16 53-54=18 55-57=20 57-58=22 59-63=24 63-64=28 64-65=29
//@columns "tensor_ops.metal" 76 1-33=1 33-43=13 43-44=23 45-49=31 49-50=35 51-57=37
//@columns "tensor_ops.metal" 78 68-116=68
//@columns "tensor_ops.metal" 80 28-29=25
//@columns "tensor_ops.metal" 84 56-57=22 57-66=23 66-68=32 68-83=34 83-84=49 84-85=50
//@columns "tensor_ops.metal" 89 5-45=5 45-47=7 47-48=12 48-49=13 50-51=15 51-52=16 53-54=18 54-55=19 55-56=20
//@columns "tensor_ops.metal" 90 50-51=16 51-52=17 52-53=18 54-58=20 58-59=24 60-79=26 79-81=45 81-84=47 84-85=50 86-100=52 100-101=66 101-106=67 106-107=72 107-109=73 109-115=75 115-116=81 116-117=82 117-118=83 118-119=84
//@columns "tensor_ops.metal" 91 50-51=33 51-52=34 52-53=35 54-58=37 58-59=41 60-79=43 79-81=62 81-84=64 84-85=67 86-90=69 90-91=73 91-92=74
//@columns "tensor_ops.metal" 106 62-110=62
//@columns "tensor_ops.metal" 123 1-33=1 33-42=13 42-43=22 44-49=30 50-54=36 54-55=40 56-59=42
//@columns "tensor_ops.metal" 125 63-111=63
//@columns "tensor_ops.metal" 131 46-47=24 47-56=25 56-58=34 58-73=36 73-74=51 74-75=52
//@columns "tensor_ops.metal" 139 5-45=5 45-47=7 47-49=12 49-50=14 51-53=16 53-54=18 55-57=20 57-58=22 58-59=23
//@columns "tensor_ops.metal" 140 46-47=24 47-56=25 56-58=34 58-73=36 73-74=51 74-75=52
