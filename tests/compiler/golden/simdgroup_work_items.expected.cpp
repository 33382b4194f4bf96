#include <metalcpu/kernel_prelude.h>
#line 2 "simdgroup_work_items.metal"
using namespace metal;




inline void reduce(       const float* in              ,
                          float* out              ,
                   uint gid                            ,
                   uint group                                 ,
                   uint lane                              ,
                   uint sg                                   , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(gid); using __mc_b4 = decltype(lane); using __mc_b5 = decltype(sg); using __mc_t0 = float; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = float; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); ::metalcpu_kernel::collective_site __mc_c0; ::metalcpu_kernel::collective_site __mc_c1; ::metalcpu_kernel::collective_site __mc_c2;
    auto& partial = ::metalcpu_kernel::threadgroup_variable<float[32], 0x1ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 14 "simdgroup_work_items.metal"
    float s = in[gid]; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); } });
    ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 s = __mc_v0[__mc_t.slot]; ::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }, __mc_wi, __mc_t, s); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 s = __mc_v0[__mc_t.slot]; { 
#line 15 "simdgroup_work_items.metal"
    float total = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(s))>(__mc_c0, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], total); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });
    for (ushort offset = 16; offset > 0; offset /=__mc_div= 2) {
        ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c1, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 s = __mc_v0[__mc_t.slot]; ::metalcpu_kernel::simd_deposit(__mc_c1, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return metal::simd_shuffle_down(__mc_a..., __mc_w); }, __mc_wi, __mc_t, s, offset); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c1, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 s = __mc_v0[__mc_t.slot]; { 
#line 17 "simdgroup_work_items.metal"
        s += ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(s, offset))>(__mc_c1, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return metal::simd_shuffle_down(__mc_a..., __mc_w); }); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 lane = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_b5 sg = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t1 total = __mc_v1[__mc_t.slot]; __mc_t0 s = __mc_v0[__mc_t.slot]; { 
#line 19 "simdgroup_work_items.metal"
    if (lane == 0) partial[sg] = total + s; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], total); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c2, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 lane = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); ::metalcpu_kernel::simd_deposit(__mc_c2, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_max(__mc_a..., __mc_w); }, __mc_wi, __mc_t, partial[lane %__mc_div->* 4]); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c2, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 lane = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_t0 s = __mc_v0[__mc_t.slot]; { 
#line 21 "simdgroup_work_items.metal"
    s = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(partial[lane %__mc_div->* 4]))>(__mc_c2, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_max(__mc_a..., __mc_w); }); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 s = __mc_v0[__mc_t.slot]; { 
#line 22 "simdgroup_work_items.metal"
    if (gid == 0) out[group] = s; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], s); });
}


inline void operand(       float* out              , uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b1 = decltype(gid); using __mc_t0 = float; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); ::metalcpu_kernel::collective_site __mc_c0;
                      ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 gid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); ::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }, __mc_wi, __mc_t, out[gid]); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 gid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 27 "simdgroup_work_items.metal"
                      float simd_sum_value_i36 = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(out[gid]))>(__mc_c0, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_sum(__mc_a..., __mc_w); }) ; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], simd_sum_value_i36); } });
#line 27 "simdgroup_work_items.metal"
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 gid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 simd_sum_value_i36 = __mc_v0[__mc_t.slot]; { 
#line 27 "simdgroup_work_items.metal"
    out[gid] = 2.0f * simd_sum_value_i36; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], simd_sum_value_i36); });
}
#line 1 "<metalcpu generated>"
// "reduce"
#if METALCPU_SELECTS_KERNEL(0x2f92df0bac03dce7ull)
namespace {
using __mc_0_fn = decltype(&::reduce);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::reduce(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"in", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 7, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"out", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 8, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 9, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"group", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 10, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"lane", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 11, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"sg", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 12, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

// "operand"
#if METALCPU_SELECTS_KERNEL(0x3c8d57b2495136feull)
namespace {
using __mc_1_fn = decltype(&::operand);
__attribute__((flatten, optimize("O3"))) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::operand(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 26, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 26, 59, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x2f92df0bac03dce7ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.reduce") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x3c8d57b2495136feull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.operand") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x2f92df0bac03dce7ull)
    {"reduce", "simdgroup_work_items.metal", 7, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 6, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "reduce", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x3c8d57b2495136feull)
    {"operand", "simdgroup_work_items.metal", 26, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 2, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "operand", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "simdgroup_work_items.metal", nullptr, 0)
//@columns "simdgroup_work_items.metal" 12 62-110=62 111-537=64
//@columns "simdgroup_work_items.metal" 14 23-80=22
//@columns "simdgroup_work_items.metal" 15 266-379=30
//@columns "simdgroup_work_items.metal" 16 61-62=52 62-63=53 64-65=55
//@columns "simdgroup_work_items.metal" 17 285-343=49
//@columns "simdgroup_work_items.metal" 19 44-156=43
//@columns "simdgroup_work_items.metal" 20 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "simdgroup_work_items.metal" 21 283-341=36
//@columns "simdgroup_work_items.metal" 22 34-91=33
//@columns "simdgroup_work_items.metal" 26 90-138=90 139-344=92
//@columns "simdgroup_work_items.metal" 27 42-116=41
