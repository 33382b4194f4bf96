#include <metalcpu/kernel_prelude.h>
#line 4 "threadgroup_parameter.metal"
using namespace metal;

static void store_and_sync(            float* scratch, uint slot, float value)
{
    scratch[slot] = value;
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

inline void reverse_in_group(       float* data              ,
                                         float* scratch                   ,
                             uint gid                            ,
                             uint lid                                   ,
                             uint count                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b2 = decltype(gid); using __mc_b3 = decltype(lid);
    {
#line 6 "threadgroup_parameter.metal"
                                                                  ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 6 "threadgroup_parameter.metal"
                                                                  float value_i1
#line 18 "threadgroup_parameter.metal"
    = (                          data[gid] * float(half(1.0f)) ) ;
#line 8 "threadgroup_parameter.metal"
    scratch[lid ] = value_i1; } });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
#line 18 "threadgroup_parameter.metal"
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b2 gid = ::metalcpu_kernel::builtin<__mc_b2, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 19 "threadgroup_parameter.metal"
    data[gid] = scratch[count - 1 - lid]; } });
}
#line 1 "<metalcpu generated>"
// "reverse_in_group"
#if METALCPU_SELECTS_KERNEL(0xa58fc92577dba4bdull)
namespace {
using __mc_0_fn = decltype(&::reverse_in_group);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::threadgroup_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::reverse_in_group(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 12, 44, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"scratch", "threadgroup float*", MC_PARAM_THREADGROUP, 0, MC_ADDRESS_SPACE_THREADGROUP, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 13, 49, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 14, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 15, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"count", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADS_PER_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 16, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xa58fc92577dba4bdull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.reverse_in_group") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xa58fc92577dba4bdull)
    {"reverse_in_group", "threadgroup_parameter.metal", 12, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "reverse_in_group", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "threadgroup_parameter.metal", nullptr, 0)
//@columns "threadgroup_parameter.metal" 8 29-36=26
//@columns "threadgroup_parameter.metal" 9 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "threadgroup_parameter.metal" 16 68-116=68
//@columns "threadgroup_parameter.metal" 17 2-122=1
//@columns "threadgroup_parameter.metal" 19 42-48=41
