#include <metalcpu/kernel_prelude.h>
#line 4 "generated_kernel_forms.metal"
using namespace metal;

inline void r_16_16(       float* data0_16,        float* data1_256, uint3 gid                                 ,
                    uint3 lid                                   , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b3 = decltype(lid); using __mc_t0 = int; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = int; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>();
  auto& buf0 = ::metalcpu_kernel::threadgroup_variable<float[16], 0x1ull, 0, true, (16)>(__mc_group);
  ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); { 
#line 9 "generated_kernel_forms.metal"
  float buf1[1];
  int gidx0 = gid.x;
  int lidx0 = lid.x;
  *(buf1+0) = (*(data1_256+(gidx0<<4)+lidx0));
  *(buf0+lidx0) = (*(buf1+0)); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], gidx0); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], lidx0); } });
  ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
  ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t1 lidx0 = __mc_v1[__mc_t.slot]; __mc_t0 gidx0 = __mc_v0[__mc_t.slot]; { 
#line 15 "generated_kernel_forms.metal"
  if (lidx0==0) {
    float acc0 = 0.0f;
    for (int Ridx0 = 0; Ridx0 < 16; Ridx0++) {
      float val0 = (*(buf0+Ridx0));
      acc0 = ((acc0<val0)?val0:acc0);
    }
    *(data0_16+gidx0) = acc0;
  } } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], lidx0); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], gidx0); });
}

inline void E_4(       float4* data0_4,        half4* data1_4, uint3 gid                                 , [[maybe_unused]] const ::mc_group* __mc_group) {
  int gidx0 = gid.x;
  half4 val0 = (*(data1_4+gidx0));
  *(data0_4+gidx0) = ::metalcpu_kernel::convert_vector(val0, ::metalcpu_kernel::vector_type<float4>{}
#line 28 "generated_kernel_forms.metal"
                                                         );
}
#line 1 "<metalcpu generated>"
// "r_16_16"
#if METALCPU_SELECTS_KERNEL(0xdeb5dcc04f1a7895ull)
namespace {
using __mc_0_fn = decltype(&::r_16_16);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::r_16_16(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"data0_16", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 6, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"data1_256", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 6, 59, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 6, 76, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lid", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 7, 27, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

// "E_4"
#if METALCPU_SELECTS_KERNEL(0xd99f71198e99781bull)
namespace {
using __mc_1_fn = decltype(&::E_4);
__attribute__((flatten)) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::E_4(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    ::E_4(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data0_4", "device float4*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 25, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"data1_4", "device half4*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 25, 55, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"gid", "uint3", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADGROUP_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 25, 70, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xdeb5dcc04f1a7895ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.r_16_16") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xd99f71198e99781bull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.E_4") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xdeb5dcc04f1a7895ull)
    {"r_16_16", "generated_kernel_forms.metal", 6, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 4, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "r_16_16", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xd99f71198e99781bull)
    {"E_4", "generated_kernel_forms.metal", 25, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 3, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 0, nullptr, "E_4", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "generated_kernel_forms.metal", nullptr, 0)
//@columns "generated_kernel_forms.metal" 7 65-113=65 114-342=67
//@columns "generated_kernel_forms.metal" 13 31-147=30
//@columns "generated_kernel_forms.metal" 14 40-41=22 41-50=23 50-52=32 52-67=34 67-68=49 68-69=50
//@columns "generated_kernel_forms.metal" 22 4-120=3
//@columns "generated_kernel_forms.metal" 25 106-154=106 155-156=108
//@columns "generated_kernel_forms.metal" 28 55-56=45 56-58=46
