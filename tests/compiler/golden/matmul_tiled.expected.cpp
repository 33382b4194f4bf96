#include <metalcpu/kernel_prelude.h>
#line 3 "matmul_tiled.metal"
using namespace metal;



inline void matmul_tiled(       const float* A              ,
                                const float* B              ,
                                float* C              ,
                         const    uint& N              ,
                         uint2 group                                 ,
                         uint2 local                                   , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b5 = decltype(local); using __mc_t0 = const uint; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = const uint; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = float; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>();
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 local = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 14 "matmul_tiled.metal"
    const uint row = group.y * 16   + local.y;
    const uint col = group.x * 16   + local.x;
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], row); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], col); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], acc); } });
    for (uint t = 0; t < N /__mc_div->* 16;
#line 17 "matmul_tiled.metal"
                                   ++t) {
        auto& tileA = ::metalcpu_kernel::threadgroup_variable<float[16][16], 0x1ull>(__mc_group);
        auto& tileB = ::metalcpu_kernel::threadgroup_variable<float[16][16], 0x2ull>(__mc_group);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 local = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0 row = __mc_v0[__mc_t.slot]; __mc_t1 col = __mc_v1[__mc_t.slot]; { 
#line 20 "matmul_tiled.metal"
        tileA[local.y][local.x] = A[row * N + t * 16   + local.x];
        tileB[local.y][local.x] = B[(t * 16   + local.y) * N + col]; } });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 local = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t2 acc = __mc_v2[__mc_t.slot]; { 
#line 23 "matmul_tiled.metal"
#pragma GCC unroll 16
        for (uint k = 0; k < 16  ; ++k) {
            acc += tileA[local.y][k] * tileB[k][local.x];
        } } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], acc); });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 row = __mc_v0[__mc_t.slot]; __mc_t1 col = __mc_v1[__mc_t.slot]; __mc_t2 acc = __mc_v2[__mc_t.slot]; { 
#line 29 "matmul_tiled.metal"
    C[row * N + col] = acc; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], acc); });
}
#line 1 "<metalcpu generated>"
// "matmul_tiled"
#if METALCPU_SELECTS_KERNEL(0x94ebf52f58198866ull)
namespace {
using __mc_0_fn = decltype(&::matmul_tiled);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::matmul_tiled(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"A", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 7, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"B", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 8, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"C", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 9, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"N", "constant uint&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 10, 41, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"group", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 11, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"local", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 12, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull, 0x2ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x94ebf52f58198866ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.matmul_tiled") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x94ebf52f58198866ull)
    {"matmul_tiled", "matmul_tiled.metal", 7, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 6, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 2, ::__mc_0_sites, "matmul_tiled", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "matmul_tiled.metal", nullptr, 0)
//@columns "matmul_tiled.metal" 12 72-120=72
//@columns "matmul_tiled.metal" 13 2-316=1
//@columns "matmul_tiled.metal" 16 22-187=21
//@columns "matmul_tiled.metal" 21 69-75=68
//@columns "matmul_tiled.metal" 22 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "matmul_tiled.metal" 26 10-69=9
//@columns "matmul_tiled.metal" 27 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "matmul_tiled.metal" 29 28-87=27
