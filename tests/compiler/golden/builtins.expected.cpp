#include <metalcpu/kernel_prelude.h>
#line 3 "builtins.metal"
using namespace metal;

inline void positions(       uint4* out              ,
                      ushort2 local                                   ,
                      uint3 group                                 ,
                      uint3 groups                          ,
                      ushort lane                              ,
                      uint simd                                   ,
                      uint2 size                            ,
                      uint flat                                , [[maybe_unused]] const ::mc_group* __mc_group)
{
    uint groupIndex = (group.z * groups.y + group.y) * groups.x + group.x;
    out[groupIndex * size.x * size.y + flat] = uint4(local.x, local.y, lane, simd);
}
#line 1 "<metalcpu generated>"
// "positions"
#if METALCPU_SELECTS_KERNEL(0x0ac7093f4700b5dbull)
namespace {
using __mc_0_fn = decltype(&::positions);
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::positions(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREADGROUPS_PER_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::positions(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREADGROUPS_PER_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"out", "device uint4*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 5, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"local", "ushort2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 6, 31, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"group", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 7, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"groups", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUPS_PER_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 8, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"lane", "ushort", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_SIMDGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 9, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"simd", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_SIMDGROUP_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 10, 28, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
    {"size", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADS_PER_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 11, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 0, nullptr},
    {"flat", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, 12, 28, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 7>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x0ac7093f4700b5dbull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.positions") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x0ac7093f4700b5dbull)
    {"positions", "builtins.metal", 5, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 8, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, "positions", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "builtins.metal", nullptr, 0)
//@columns "builtins.metal" 12 64-112=64
