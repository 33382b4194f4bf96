#include <metalcpu/kernel_prelude.h>
#line 7 "work_item_loops.metal"
using namespace metal;

namespace scan {

namespace { template <typename T, uint N> constexpr mc_u64 __mc_tg_owner_0() { return ::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } 
#line 11 "work_item_loops.metal"
template <typename T, uint N>
           void block_prefix(       T* data              ,
                             const    uint& count              ,
                             uint gid                            ,
                             uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<true> __mc_wi(__mc_group); using __mc_b3 = decltype(lid); using __mc_t0 = decltype(gid); auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = T; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ::metalcpu_kernel::builtin<decltype(gid), MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t)); });
    auto& partial = ::metalcpu_kernel::threadgroup_variable<T[N], 0x1ull, __mc_tg_owner_0<T, N>()>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0 gid = __mc_v0[__mc_t.slot]; { 
#line 18 "work_item_loops.metal"
    auto load = [&](uint i) -> T { return i < count ? data[i] : T(0); };
    partial[lid] = load(gid); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], gid); });
    for (uint stride = 1; stride < N; stride *= 2) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 22 "work_item_loops.metal"
        T value = lid >= stride ? partial[lid - stride] : T(0); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], value); } });

        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t1 value = __mc_v1[__mc_t.slot]; { 
#line 24 "work_item_loops.metal"
        partial[lid] += value; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], value); });
    }
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0 gid = __mc_v0[__mc_t.slot]; { 
#line 27 "work_item_loops.metal"
    if (gid >= count) {
        return __mc_wi.retire(__mc_t);
    }
    data[gid] = partial[lid]; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], gid); });
}

}




struct Halves {
    const float weight;
    float total;
    Halves(float first) : weight(0.5f), total(first) {}
};

inline void halve_until(       float* data              ,
                        const    uint& rounds              ,
                        uint2 lid                                   ,
                        uint2 size                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(lid); using __mc_t0 = uint; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = float; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = Halves; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>();
    const uint kWidth = 16;
    auto& row = ::metalcpu_kernel::threadgroup_variable<float[kWidth], 0x2ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 51 "work_item_loops.metal"
    uint left = rounds;
    float mine = data[lid.x];
    Halves sum(mine); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], left); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mine); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], sum); } });
    while ((__mc_v0[__mc_wi.lead()]) > 0) {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t1 mine = __mc_v1[__mc_t.slot]; { 
#line 55 "work_item_loops.metal"
        row[lid.x %__mc_div->* kWidth] = mine; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mine); });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t1 mine = __mc_v1[__mc_t.slot]; __mc_t2 sum = __mc_v2[__mc_t.slot]; __mc_t0 left = __mc_v0[__mc_t.slot]; { 
#line 57 "work_item_loops.metal"
        mine = sum.weight * (mine + row[(lid.x + 1) %__mc_div->* kWidth]);
        sum.total += mine;
        left >>= 1; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], mine); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], sum); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], left); });
        if (size.x > 1) {
            ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        }
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 lid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t2 sum = __mc_v2[__mc_t.slot]; { 
#line 64 "work_item_loops.metal"
    data[lid.x] = sum.total; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], sum); });
}
#line 1 "<metalcpu generated>"
// "block_prefix_float_64"
#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
namespace {
#line 35 "work_item_loops.metal"
using __mc_0_fn = decltype(&::scan::block_prefix<float, 64>);
#line 7 "<metalcpu generated>"
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::scan::block_prefix<float, 64>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"data", "device T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 12, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"count", "constant uint&", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 13, 45, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 14, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 15, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
constexpr mc_u64 __mc_0_threadgroup_owner = ::scan::__mc_tg_owner_0<float, 64>();
}
#endif

// "halve_until"
#if METALCPU_SELECTS_KERNEL(0xbb086c077cd53ba4ull)
namespace {
using __mc_1_fn = decltype(&::halve_until);
__attribute__((flatten, optimize("O3"))) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::halve_until(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 44, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"rounds", "constant uint&", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 45, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"lid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 46, 31, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
    {"size", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADS_PER_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 47, 31, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 0, nullptr},
};
const mc_u64 __mc_1_sites[] = {0x2ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.block_prefix_float_64") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xbb086c077cd53ba4ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.halve_until") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
    {"block_prefix_float_64", "work_item_loops.metal", 12, 17, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 4, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "block_prefix<float, 64>", ::__mc_0_threadgroup_owner, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xbb086c077cd53ba4ull)
    {"halve_until", "work_item_loops.metal", 44, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 4, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 1, ::__mc_1_sites, "halve_until", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "work_item_loops.metal", nullptr, 0)
//@columns "work_item_loops.metal" 15 70-118=70
//@columns "work_item_loops.metal" 16 2-526=1
//@columns "work_item_loops.metal" 19 30-89=29
//@columns "work_item_loops.metal" 20 53-88=52
//@columns "work_item_loops.metal" 21 46-47=35 47-56=36 56-58=45 58-73=47 73-74=62 74-75=63
//@columns "work_item_loops.metal" 22 64-125=63
//@columns "work_item_loops.metal" 24 31-92=30
//@columns "work_item_loops.metal" 26 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "work_item_loops.metal" 28 38-39=15
//@columns "work_item_loops.metal" 30 30-89=29
//@columns "work_item_loops.metal" 47 63-111=63
//@columns "work_item_loops.metal" 48 2-304=1
//@columns "work_item_loops.metal" 53 22-189=21
//@columns "work_item_loops.metal" 54 38-39=17 40-41=19 41-42=20 43-44=22
//@columns "work_item_loops.metal" 55 32-38=21 38-39=27 40-41=29 42-46=31 46-107=35
//@columns "work_item_loops.metal" 56 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "work_item_loops.metal" 57 66-72=55 72-73=61 73-74=62 74-75=63
//@columns "work_item_loops.metal" 59 20-187=19
//@columns "work_item_loops.metal" 61 50-51=32 51-60=33 60-62=42 62-77=44 77-78=59 78-79=60
//@columns "work_item_loops.metal" 64 29-88=28
