#include <metalcpu/kernel_prelude.h>
#line 2 "simdgroup_matrix_work_items.metal"
using namespace metal;





inline void gemm(       const float* a              ,
                        const float* b              ,
                        float* c              ,
                 const    uint& k              ,
                             float* staged                   ,
                 ushort lid                                ,
                 ushort threads                            , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b5 = decltype(lid); using __mc_t0 = simdgroup_float8x8; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = simdgroup_float8x8; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = simdgroup_float8x8; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); ::metalcpu_kernel::collective_site __mc_c0;
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 15 "simdgroup_matrix_work_items.metal"
    simdgroup_float8x8 ma, mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.f); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ma); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mb); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mc); } });
    for (uint k0 = 0; k0 < k; k0 += 8) {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 lid = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 18 "simdgroup_matrix_work_items.metal"
        for (uint i = lid; i < 128; i += threads)
            staged[i] = i < 64 ? a[i /__mc_div->* 8 * k + k0 + i %__mc_div->* 8] : b[(i - 64) /__mc_div->* 8 * k + k0 + i %__mc_div->* 8]; } });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; const ::metalcpu_kernel::simd_lane_scope __mc_lane(__mc_wi, __mc_t); __mc_t0 ma = __mc_v0[__mc_t.slot]; __mc_t1 mb = __mc_v1[__mc_t.slot]; { 
#line 21 "simdgroup_matrix_work_items.metal"
        simdgroup_load(ma, staged, 8);
        simdgroup_load(mb, staged + 64, 8, 0, true); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ma); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mb); });
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 mc = __mc_v2[__mc_t.slot]; __mc_t0 ma = __mc_v0[__mc_t.slot]; __mc_t1 mb = __mc_v1[__mc_t.slot]; ::metalcpu_kernel::simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(mc))>(__mc_c0, __mc_wi, __mc_t, ma, mb, mc); }); ::metalcpu_kernel::run_product_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 mc = __mc_v2[__mc_t.slot]; __mc_t0 ma = __mc_v0[__mc_t.slot]; __mc_t1 mb = __mc_v1[__mc_t.slot]; { 
#line 23 "simdgroup_matrix_work_items.metal"
        ::metalcpu_kernel::simd_collect_product(mc, __mc_c0, __mc_t); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mc); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ma); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mb); });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; const ::metalcpu_kernel::simd_lane_scope __mc_lane(__mc_wi, __mc_t); __mc_t2 mc = __mc_v2[__mc_t.slot]; { 
#line 26 "simdgroup_matrix_work_items.metal"
    simdgroup_store(mc, c, 8); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mc); });
}


inline void scaled(       const half* a              ,
                          float* d              ,
                   uint lane                              , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(lane); using __mc_t0 = simdgroup_half8x8; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = simdgroup_float8x8; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = simdgroup_float8x8; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); ::metalcpu_kernel::collective_site __mc_c0; bool* const __mc_g0 = __mc_wi.slots<bool>();
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; const ::metalcpu_kernel::simd_lane_scope __mc_lane(__mc_wi, __mc_t); { 
#line 33 "simdgroup_matrix_work_items.metal"
    simdgroup_half8x8 ma;
    simdgroup_load(ma, a);
    simdgroup_float8x8 twice(2.0f);
    simdgroup_float8x8 md; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ma); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], twice); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], md); } });
       ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lane = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_g0[__mc_t.slot] = bool
#line 37 "simdgroup_matrix_work_items.metal"
       (lane < 16); });
#line 37 "simdgroup_matrix_work_items.metal"
                   {
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ::metalcpu_kernel::simd_mark(__mc_c0, __mc_wi, __mc_t, __mc_g0[__mc_t.slot]); if (!(__mc_g0[__mc_t.slot])) return; __mc_t2 md = __mc_v2[__mc_t.slot]; __mc_t0 ma = __mc_v0[__mc_t.slot]; __mc_t1 twice = __mc_v1[__mc_t.slot]; ::metalcpu_kernel::simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(md))>(__mc_c0, __mc_wi, __mc_t, ma, twice); }); ::metalcpu_kernel::run_product_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; if (!(__mc_g0[__mc_t.slot])) return; __mc_t2 md = __mc_v2[__mc_t.slot]; __mc_t0 ma = __mc_v0[__mc_t.slot]; __mc_t1 twice = __mc_v1[__mc_t.slot]; { 
#line 38 "simdgroup_matrix_work_items.metal"
        ::metalcpu_kernel::simd_collect_product(md, __mc_c0, __mc_t); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], md); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ma); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], twice); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; const ::metalcpu_kernel::simd_lane_scope __mc_lane(__mc_wi, __mc_t); __mc_t2 md = __mc_v2[__mc_t.slot]; { 
#line 40 "simdgroup_matrix_work_items.metal"
    simdgroup_store(md, d); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], md); });
}


inline void nested(       float* d              , [[maybe_unused]] const ::mc_group* __mc_group) {
    simdgroup_float8x8 m;
    simdgroup_load(m, d);
    auto square = [&] { simdgroup_multiply(m, m, m); };
    square();
    simdgroup_store(m, d);
}



inline void wmma(       float* data0              ,
                        const float* data1              ,
                 uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(lid); using __mc_t0 = float2; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = simdgroup_float8x8; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = simdgroup_float8x8; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); ::metalcpu_kernel::collective_site __mc_c0;
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 57 "simdgroup_matrix_work_items.metal"
    float2 acc0 = float2(0.0f, 0.0f); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc0); } });
    for (int ridx0 = 0; ridx0 < 4; ridx0++) {
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0 acc0 = __mc_v0[__mc_t.slot]; { 
#line 59 "simdgroup_matrix_work_items.metal"
        simdgroup_float8x8 mat_a, mat_c;
        mat_a.thread_elements()[0] = data1[ridx0 * 64 + 2 * lid];
        mat_a.thread_elements()[1] = data1[ridx0 * 64 + 2 * lid + 1];
        mat_c.thread_elements() = acc0; ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mat_a); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mat_c); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc0); } 
        { (void)__mc_t; __mc_t2 mat_c = __mc_v2[__mc_t.slot]; __mc_t1 mat_a = __mc_v1[__mc_t.slot]; ::metalcpu_kernel::simd_deposit_product<decltype(::metalcpu_kernel::simd_destination(mat_c))>(__mc_c0, __mc_wi, __mc_t, mat_a, mat_a, mat_c); } }); ::metalcpu_kernel::run_product_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 mat_c = __mc_v2[__mc_t.slot]; __mc_t1 mat_a = __mc_v1[__mc_t.slot]; { 
#line 63 "simdgroup_matrix_work_items.metal"
        ::metalcpu_kernel::simd_collect_product(mat_c, __mc_c0, __mc_t); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mat_c); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mat_a); 
        { (void)__mc_t; __mc_t0 acc0 = __mc_v0[__mc_t.slot]; __mc_t2 mat_c = __mc_v2[__mc_t.slot]; { 
#line 64 "simdgroup_matrix_work_items.metal"
        acc0 = float2(mat_c.thread_elements()[0], mat_c.thread_elements()[1]); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc0); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], mat_c); } });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0 acc0 = __mc_v0[__mc_t.slot]; { 
#line 66 "simdgroup_matrix_work_items.metal"
    data0[lid] = acc0.x + acc0.y; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc0); });
}
#line 1 "<metalcpu generated>"
// "gemm"
#if METALCPU_SELECTS_KERNEL(0x673ff971efc12bc3ull)
namespace {
using __mc_0_fn = decltype(&::gemm);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3);
    auto&& __a4 = ::metalcpu_kernel::threadgroup_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::gemm(__a0, __a1, __a2, __a3, __a4, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"a", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 8, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"b", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 9, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"c", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 10, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"k", "constant uint&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 11, 33, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"staged", "threadgroup float*", MC_PARAM_THREADGROUP, 0, MC_ADDRESS_SPACE_THREADGROUP, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 12, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"lid", "ushort", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 13, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
    {"threads", "ushort", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADS_PER_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 14, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 0, nullptr},
};
}
#endif

// "scaled"
#if METALCPU_SELECTS_KERNEL(0x5d9dfbb82160e74full)
namespace {
using __mc_1_fn = decltype(&::scaled);
__attribute__((flatten, optimize("O3"))) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::scaled(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"a", "device const half*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 30, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"d", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 31, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"lane", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 32, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
};
}
#endif

// "nested"
#if METALCPU_SELECTS_KERNEL(0xefc5f08b07530a0aull)
namespace {
using __mc_2_fn = decltype(&::nested);
void __mc_2_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0);
    (void)__t;
    ::nested(__a0, __g);
}
const ::mc_param __mc_2_params[] = {
    {"d", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 44, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 0, nullptr},
};
}
#endif

// "wmma"
#if METALCPU_SELECTS_KERNEL(0x820e3df6408b865full)
namespace {
using __mc_3_fn = decltype(&::wmma);
__attribute__((flatten, optimize("O3"))) void __mc_3_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::wmma(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_3_params[] = {
    {"data0", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 54, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 0, nullptr},
    {"data1", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 55, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 56, 23, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x673ff971efc12bc3ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.gemm") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x5d9dfbb82160e74full)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.scaled") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xefc5f08b07530a0aull)
__attribute__((used, visibility("hidden"))) char __mc_2_name __asm__("metalcpu.kernel.nested") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x820e3df6408b865full)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.wmma") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x673ff971efc12bc3ull)
    {"gemm", "simdgroup_matrix_work_items.metal", 8, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 7, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "gemm", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x5d9dfbb82160e74full)
    {"scaled", "simdgroup_matrix_work_items.metal", 30, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 3, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "scaled", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xefc5f08b07530a0aull)
    {"nested", "simdgroup_matrix_work_items.metal", 44, 13, MC_KERNEL_USES_BARRIERS, 0, 1, ::__mc_2_params, nullptr, METALCPU_KERNEL_CODE(&::__mc_2_run_thread), 0, nullptr, "nested", 0, "simdgroup_matrix_work_items.metal:47:25: 'simdgroup_multiply' is called in a lambda or a local class", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x820e3df6408b865full)
    {"wmma", "simdgroup_matrix_work_items.metal", 54, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 3, ::__mc_3_params, METALCPU_KERNEL_CODE(&::__mc_3_run_group), nullptr, 0, nullptr, "wmma", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "simdgroup_matrix_work_items.metal", nullptr, 0)
//@columns "simdgroup_matrix_work_items.metal" 14 60-108=60 109-495=62
//@columns "simdgroup_matrix_work_items.metal" 16 73-235=72
//@columns "simdgroup_matrix_work_items.metal" 19 51-52=40 53-54=42 55-56=44 57-58=46 59-61=48 62-63=51 64-65=53 66-78=55 79-80=57 80-81=58 82-83=60 84-85=62 85-86=63 86-87=64 87-88=65 89-90=67 91-93=69 93-94=71 95-107=73 108-109=75 110-111=77 112-113=79 114-115=81 116-118=83 119-120=86 121-122=88 123-135=90 136-137=92 137-138=93 138-145=94
//@columns "simdgroup_matrix_work_items.metal" 20 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "simdgroup_matrix_work_items.metal" 22 53-163=52
//@columns "simdgroup_matrix_work_items.metal" 23 69-232=54
//@columns "simdgroup_matrix_work_items.metal" 24 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "simdgroup_matrix_work_items.metal" 26 31-89=30
//@columns "simdgroup_matrix_work_items.metal" 32 59-107=59 108-539=61
//@columns "simdgroup_matrix_work_items.metal" 36 27-192=26
//@columns "simdgroup_matrix_work_items.metal" 37 19-20=18
//@columns "simdgroup_matrix_work_items.metal" 38 69-235=49
//@columns "simdgroup_matrix_work_items.metal" 40 28-86=27
//@columns "simdgroup_matrix_work_items.metal" 44 49-97=49 98-99=51
//@columns "simdgroup_matrix_work_items.metal" 56 58-106=58 107-481=60
//@columns "simdgroup_matrix_work_items.metal" 57 38-98=37
//@columns "simdgroup_matrix_work_items.metal" 62 40-209=39
//@columns "simdgroup_matrix_work_items.metal" 63 72-186=66
//@columns "simdgroup_matrix_work_items.metal" 64 79-196=78
//@columns "simdgroup_matrix_work_items.metal" 66 34-94=33
