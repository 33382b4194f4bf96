#include <metalcpu/kernel_prelude.h>
#line 6 "work_item_arrays.metal"
using namespace metal;

struct Pair {
    float low;
    float high = 1.0f;
};

void accumulate(       float* total, float value) { *total += value; }

namespace { template <typename T, int N> constexpr mc_u64 __mc_tg_owner_1() { return ::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } 
#line 15 "work_item_arrays.metal"
template <typename T, int N>
       void scan_chunk(       const T* in              ,
                              T* out              ,
                       uint gid                            ,
                       uint lane                              ,
                       uint sg                                   , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(gid); using __mc_b3 = decltype(lane); using __mc_b4 = decltype(sg); using __mc_t0 = T [N]; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = T [N]; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = float; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); using __mc_t3 = float; auto* const __mc_v3 = __mc_wi.slots<__mc_t3>(); using __mc_t4 = float [2][2]; auto* const __mc_v4 = __mc_wi.slots<__mc_t4>(); using __mc_t5 = int; auto* const __mc_v5 = __mc_wi.slots<__mc_t5>(); using __mc_t6 = int; auto* const __mc_v6 = __mc_wi.slots<__mc_t6>(); using __mc_t7 = const T; auto* const __mc_v7 = __mc_wi.slots<__mc_t7>(); using __mc_t8 = const T; auto* const __mc_v8 = __mc_wi.slots<__mc_t8>(); ::metalcpu_kernel::collective_site __mc_c0;
    auto& totals = ::metalcpu_kernel::threadgroup_variable<T[32], 0x1ull, __mc_tg_owner_1<T, N>()>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 23 "work_item_arrays.metal"
    T (&values)[N] = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot]);
    for (int k = 0; k < N; ++k) values[k] = in[gid * N + k];
    T (&prefix)[N] = ::metalcpu_kernel::emplace(__mc_v1[__mc_t.slot], __mc_t1{
#line 25 "work_item_arrays.metal"
                   });
    float &total= ::metalcpu_kernel::emplace(__mc_v2[__mc_t.slot], 0), count = 1, (&weights)[2][2] = ::metalcpu_kernel::emplace(__mc_v4[__mc_t.slot], __mc_t4{
#line 26 "work_item_arrays.metal"
                                                 {1, 2}, {3, 4}});
    int i, j;
    const T mine = values[N - 1]; (void)values; (void)prefix; (void)total; ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], count); (void)weights; ::metalcpu_kernel::place(__mc_v5[__mc_t.slot], i); ::metalcpu_kernel::place(__mc_v6[__mc_t.slot], j); ::metalcpu_kernel::place(__mc_v7[__mc_t.slot], mine); } });
    ::metalcpu_kernel::run_deposit_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t7 mine = __mc_v7[__mc_t.slot]; ::metalcpu_kernel::simd_deposit(__mc_c0, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_prefix_exclusive_sum(__mc_a..., __mc_w); }, __mc_wi, __mc_t, mine); }); ::metalcpu_kernel::run_collect_work_items(__mc_wi, __mc_c0, [&](const auto& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t7 mine = __mc_v7[__mc_t.slot]; { 
#line 29 "work_item_arrays.metal"
    const T before = ::metalcpu_kernel::simd_collect<decltype(::metalcpu_kernel::simd_arguments(mine))>(__mc_c0, __mc_wi, __mc_t, [](const ::metalcpu_kernel::simd_site& __mc_w, const auto&... __mc_a) __attribute__((always_inline)) { return simd_prefix_exclusive_sum(__mc_a..., __mc_w); }); ::metalcpu_kernel::place(__mc_v8[__mc_t.slot], before); } });
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lane = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__mc_group, __mc_t); __mc_b4 sg = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t7 mine = __mc_v7[__mc_t.slot]; { 
#line 30 "work_item_arrays.metal"
    if (lane == 0) totals[sg] = mine; } });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t5 i = __mc_v5[__mc_t.slot]; __mc_t6 j = __mc_v6[__mc_t.slot]; __mc_t1& prefix = __mc_v1[__mc_t.slot]; __mc_t8 before = __mc_v8[__mc_t.slot]; __mc_t0& values = __mc_v0[__mc_t.slot]; __mc_t4& weights = __mc_v4[__mc_t.slot]; __mc_t2& total = __mc_v2[__mc_t.slot]; { 
#line 32 "work_item_arrays.metal"
    i = 0, j = 1;
    for (int k = 0; k < N; ++k) prefix[k] = before + values[k] + totals[0] * weights[i][j];
    accumulate(&total, float(prefix[0])); } ::metalcpu_kernel::place(__mc_v5[__mc_t.slot], i); ::metalcpu_kernel::place(__mc_v6[__mc_t.slot], j); });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t1& prefix = __mc_v1[__mc_t.slot]; __mc_t2& total = __mc_v2[__mc_t.slot]; __mc_t3 count = __mc_v3[__mc_t.slot]; { 
#line 36 "work_item_arrays.metal"
    for (int k = 0; k < N; ++k) out[gid * N + k] = prefix[k] + T(total /__mc_div->* count); } ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], count); });
}




inline void pairs(       float* data              ,
                  uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b1 = decltype(lid); using __mc_t0 = Pair; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = Pair; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = Pair; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); using __mc_t3 = float [2]; auto* const __mc_v3 = __mc_wi.slots<__mc_t3>(); using __mc_t4 = float*; auto* const __mc_v4 = __mc_wi.slots<__mc_t4>(); using __mc_t5 = float *; auto* const __mc_v5 = __mc_wi.slots<__mc_t5>();
    auto& shared = ::metalcpu_kernel::threadgroup_variable<float[64], 0x2ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 lid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 46 "work_item_arrays.metal"
    Pair &p = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot]);
    Pair q = {data[lid], data[lid + 1]}, r{2.0f, 3.0f};
    float (&rows)[2] = ::metalcpu_kernel::emplace(__mc_v3[__mc_t.slot], __mc_t3{
#line 48 "work_item_arrays.metal"
                  data[lid], 0.0f});
           float* where = data + lid, *other(data);
    shared[lid %__mc_div->* 64] = rows[0]; (void)p; ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], q); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], r); (void)rows; ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], where); ::metalcpu_kernel::place(__mc_v5[__mc_t.slot], other); } });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b1 lid = ::metalcpu_kernel::builtin<__mc_b1, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t3& rows = __mc_v3[__mc_t.slot]; __mc_t0& p = __mc_v0[__mc_t.slot]; __mc_t4 where = __mc_v4[__mc_t.slot]; __mc_t1 q = __mc_v1[__mc_t.slot]; __mc_t2 r = __mc_v2[__mc_t.slot]; __mc_t5 other = __mc_v5[__mc_t.slot]; { 
#line 52 "work_item_arrays.metal"
    rows[1] = shared[(lid + 1) %__mc_div->* 64];
           const Pair* first = &p;
    *where = rows[0] + rows[1] + first->high + q.low + q.high + r.low + r.high + other[0] * 0.0f; } ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], where); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], q); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], r); ::metalcpu_kernel::place(__mc_v5[__mc_t.slot], other); });
}
#line 1 "<metalcpu generated>"
// "scan_chunk_float_4"
#if METALCPU_SELECTS_KERNEL(0xf056be26ca283510ull)
namespace {
#line 39 "work_item_arrays.metal"
using __mc_0_fn = decltype(&::scan_chunk<float, 4>);
#line 7 "<metalcpu generated>"
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::scan_chunk<float, 4>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"in", "device const T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 16, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"out", "device T*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 17, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 18, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lane", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 19, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"sg", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 20, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
constexpr mc_u64 __mc_0_threadgroup_owner = ::__mc_tg_owner_1<float, 4>();
}
#endif

// "pairs"
#if METALCPU_SELECTS_KERNEL(0x544438a7391e1e26ull)
namespace {
using __mc_1_fn = decltype(&::pairs);
__attribute__((flatten, optimize("O3"))) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::pairs(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 42, 33, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 43, 24, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
};
const mc_u64 __mc_1_sites[] = {0x2ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xf056be26ca283510ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.scan_chunk_float_4") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x544438a7391e1e26ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.pairs") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xf056be26ca283510ull)
    {"scan_chunk_float_4", "work_item_arrays.metal", 16, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "scan_chunk<float, 4>", ::__mc_0_threadgroup_owner, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x544438a7391e1e26ull)
    {"pairs", "work_item_arrays.metal", 42, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 2, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 1, ::__mc_1_sites, "pairs", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "work_item_arrays.metal", nullptr, 0)
//@columns "work_item_arrays.metal" 20 66-114=66
//@columns "work_item_arrays.metal" 21 2-843=1
//@columns "work_item_arrays.metal" 23 7-16=7 16-17=13 17-18=14 18-19=15 19-71=16
//@columns "work_item_arrays.metal" 25 7-16=7 16-17=13 17-18=14 18-19=15 21-23=21
//@columns "work_item_arrays.metal" 26 11-17=11 18-50=17 65-67=65
//@columns "work_item_arrays.metal" 28 34-307=33
//@columns "work_item_arrays.metal" 29 289-352=53
//@columns "work_item_arrays.metal" 30 38-44=37
//@columns "work_item_arrays.metal" 31 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "work_item_arrays.metal" 34 42-150=41
//@columns "work_item_arrays.metal" 35 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "work_item_arrays.metal" 36 85-90=74 90-91=79 91-153=80
//@columns "work_item_arrays.metal" 43 59-107=59
//@columns "work_item_arrays.metal" 44 2-521=1
//@columns "work_item_arrays.metal" 46 10-12=10 12-64=11
//@columns "work_item_arrays.metal" 48 11-18=11 18-19=15 35-37=35
//@columns "work_item_arrays.metal" 50 29-31=18 31-32=20 33-34=22 35-39=24 39-40=28 40-41=29 41-42=30 42-282=31
//@columns "work_item_arrays.metal" 51 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "work_item_arrays.metal" 52 45-47=34 47-48=36 48-49=37
//@columns "work_item_arrays.metal" 54 98-316=97
