#include <metalcpu/kernel_prelude.h>
#line 2 "simdgroup_trip_loops.metal"
using namespace metal;




inline void keys(       const float* queries              ,
                        const float* keys              ,
                        float* out              ,
                 const    uint& count              ,
                 uint gid                            ,
                 uint lid                                ,
                 uint simd_gid                                   ,
                 uint simd_lid                              , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_b5 = decltype(lid); using __mc_b6 = decltype(simd_gid); using __mc_b7 = decltype(simd_lid); using __mc_t0 = const float; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = float; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = uint; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); using __mc_t3 = const float; auto* const __mc_v3 = __mc_wi.slots<__mc_t3>(); using __mc_t4 = float; auto* const __mc_v4 = __mc_wi.slots<__mc_t4>(); ::metalcpu_kernel::collective_site __mc_c0; bool* const __mc_g0 = __mc_wi.slots<bool>();
    constexpr uint BN = 4;
    auto& partial = ::metalcpu_kernel::threadgroup_variable<float[BN], 0x1ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 17 "simdgroup_trip_loops.metal"
    const float q = queries[gid];
    float best = -1e30f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], q); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], best); } });
         ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b6 simd_gid = ::metalcpu_kernel::builtin<__mc_b6, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 19 "simdgroup_trip_loops.metal"
         uint i = simd_gid; ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], i); } });
#line 19 "simdgroup_trip_loops.metal"
                            for (::mc_u32 __mc_i0 = 0;; ++__mc_i0) { ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 i = __mc_v2[__mc_t.slot]; { const auto __mc_c0 = [&]() __attribute__((always_inline)) -> bool { return bool(
#line 19 "simdgroup_trip_loops.metal"
                            i < count); }; if (__mc_i0 == 0 || __mc_g0[__mc_t.slot]) { if (__mc_i0 != 0) { 
#line 19 "simdgroup_trip_loops.metal"
                                       i += BN; } __mc_g0[__mc_t.slot] = __mc_c0(); } } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], i); }); if (!::metalcpu_kernel::any_thread(__mc_wi, [&](::mc_u32 __mc_l) __attribute__((always_inline)) -> bool { return __mc_g0[__mc_l]; })) break;
#line 19 "simdgroup_trip_loops.metal"
                                                {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; if (!(__mc_g0[__mc_t.slot])) return; __mc_b7 simd_lid = ::metalcpu_kernel::builtin<__mc_b7, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_t2 i = __mc_v2[__mc_t.slot]; { 
#line 20 "simdgroup_trip_loops.metal"
        const float k = keys[i * 32 + simd_lid]; ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], k); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], i); });
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ::metalcpu_kernel::simd_mark(__mc_c0, __mc_wi, __mc_t, __mc_g0[__mc_t.slot]); if (!(__mc_g0[__mc_t.slot])) return; __mc_t0 q = __mc_v0[__mc_t.slot]; __mc_t3 k = __mc_v3[__mc_t.slot]; ::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }, __mc_wi, __mc_t, q * k); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; if (!(__mc_g0[__mc_t.slot])) return; __mc_t0 q = __mc_v0[__mc_t.slot]; __mc_t3 k = __mc_v3[__mc_t.slot]; { 
#line 21 "simdgroup_trip_loops.metal"
        float score = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(q * k))>(__mc_c0, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }); ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], score); } });
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; if (!(__mc_g0[__mc_t.slot])) return; __mc_t4 score = __mc_v4[__mc_t.slot]; __mc_t1 best = __mc_v1[__mc_t.slot]; { 
#line 22 "simdgroup_trip_loops.metal"
        if (score > best) best = score; } ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], score); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], best); });
    } }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b7 simd_lid = ::metalcpu_kernel::builtin<__mc_b7, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_b6 simd_gid = ::metalcpu_kernel::builtin<__mc_b6, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t1 best = __mc_v1[__mc_t.slot]; { 
#line 24 "simdgroup_trip_loops.metal"
    if (simd_lid == 0) partial[simd_gid] = best; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], best); });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_b5 lid = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 26 "simdgroup_trip_loops.metal"
    out[gid] = partial[lid %__mc_div->* BN]; } });
}

inline void rounds(       float* out              ,
                   uint gid                            ,
                   uint sg                                   , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b1 = decltype(gid); using __mc_b2 = decltype(sg); using __mc_t0 = const uint; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = float; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = uint; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); ::metalcpu_kernel::collective_site __mc_c0; bool* const __mc_g0 = __mc_wi.slots<bool>();
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 sg = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_b1 gid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 32 "simdgroup_trip_loops.metal"
    const uint left = sg + 1;
    float x = out[gid]; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], left); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); } });
         ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 34 "simdgroup_trip_loops.metal"
         uint r = 0; ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], r); } });
#line 34 "simdgroup_trip_loops.metal"
                     for (::mc_u32 __mc_i0 = 0;; ++__mc_i0) { ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 r = __mc_v2[__mc_t.slot]; __mc_t0 left = __mc_v0[__mc_t.slot]; { const auto __mc_c0 = [&]() __attribute__((always_inline)) -> bool { return bool(
#line 34 "simdgroup_trip_loops.metal"
                     r < left); }; if (__mc_i0 == 0 || __mc_g0[__mc_t.slot]) { if (__mc_i0 != 0) { 
#line 34 "simdgroup_trip_loops.metal"
                               ++r; } __mc_g0[__mc_t.slot] = __mc_c0(); } } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], r); }); if (!::metalcpu_kernel::any_thread(__mc_wi, [&](::mc_u32 __mc_l) __attribute__((always_inline)) -> bool { return __mc_g0[__mc_l]; })) break;
#line 34 "simdgroup_trip_loops.metal"
                                    {
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ::metalcpu_kernel::simd_mark(__mc_c0, __mc_wi, __mc_t, __mc_g0[__mc_t.slot]); if (!(__mc_g0[__mc_t.slot])) return; __mc_t1 x = __mc_v1[__mc_t.slot]; ::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }, __mc_wi, __mc_t, x * 0.5f); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; if (!(__mc_g0[__mc_t.slot])) return; __mc_t1 x = __mc_v1[__mc_t.slot]; { 
#line 35 "simdgroup_trip_loops.metal"
        x = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(x * 0.5f))>(__mc_c0, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }); } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); });
    } }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 gid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t1 x = __mc_v1[__mc_t.slot]; { 
#line 37 "simdgroup_trip_loops.metal"
    out[gid] = x; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], x); });
}
#line 1 "<metalcpu generated>"
// "keys"
#if METALCPU_SELECTS_KERNEL(0x581987d75cbd3e2dull)
namespace {
using __mc_0_fn = decltype(&::keys);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::keys(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"queries", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 7, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"keys", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 8, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"out", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 9, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"count", "constant uint&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 10, 33, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 11, 23, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 12, 23, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
    {"simd_gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 13, 23, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 0, nullptr},
    {"simd_lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, 14, 23, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

// "rounds"
#if METALCPU_SELECTS_KERNEL(0x6e99a8003d10ccb8ull)
namespace {
using __mc_1_fn = decltype(&::rounds);
__attribute__((flatten, optimize("O3"))) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::rounds(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 29, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 30, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"sg", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 31, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x581987d75cbd3e2dull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.keys") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x6e99a8003d10ccb8ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.rounds") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x581987d75cbd3e2dull)
    {"keys", "simdgroup_trip_loops.metal", 7, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 8, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "keys", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x6e99a8003d10ccb8ull)
    {"rounds", "simdgroup_trip_loops.metal", 29, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 3, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "rounds", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "simdgroup_trip_loops.metal", nullptr, 0)
//@columns "simdgroup_trip_loops.metal" 14 61-109=61 110-758=63
//@columns "simdgroup_trip_loops.metal" 18 25-136=24
//@columns "simdgroup_trip_loops.metal" 19 28-29=27
//@columns "simdgroup_trip_loops.metal" 20 49-157=48
//@columns "simdgroup_trip_loops.metal" 21 274-336=38
//@columns "simdgroup_trip_loops.metal" 22 40-155=39
//@columns "simdgroup_trip_loops.metal" 23 6-8=5
//@columns "simdgroup_trip_loops.metal" 24 49-109=48
//@columns "simdgroup_trip_loops.metal" 25 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "simdgroup_trip_loops.metal" 26 41-43=30 43-44=32 44-51=33
//@columns "simdgroup_trip_loops.metal" 31 62-110=62 111-537=64
//@columns "simdgroup_trip_loops.metal" 33 24-135=23
//@columns "simdgroup_trip_loops.metal" 34 21-22=20
//@columns "simdgroup_trip_loops.metal" 35 267-325=31
//@columns "simdgroup_trip_loops.metal" 36 6-8=5
//@columns "simdgroup_trip_loops.metal" 37 18-75=17
