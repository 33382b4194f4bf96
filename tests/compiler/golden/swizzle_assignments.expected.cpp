#include <metalcpu/kernel_prelude.h>
#line 4 "swizzle_assignments.metal"
using namespace metal;
#line 5 "swizzle_assignments.h"
inline void swap_halves(       float4& v) {
    const float2 low = v.xy;
    v.xy ->*__mc_swz= v.zw;
    v.zw ->*__mc_swz= low;
}
#line 7 "swizzle_assignments.metal"
inline void swizzles(       float4* data              ,
                     uint index                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    float4 v = data[index];
    swap_halves(v);
    data[index].xy ->*__mc_swz= v.zw;
    (data + index)->zw ->*__mc_swz= v.xy;
    v.x = 1.0f;
    data[index].zw ->*__mc_swz= data[index].xy ->*__mc_swz= v.xy;
}
#line 1 "<metalcpu generated>"
// "swizzles"
#if METALCPU_SELECTS_KERNEL(0xd1ae5b7c00a87976ull)
namespace {
using __mc_0_fn = decltype(&::swizzles);
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::swizzles(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::swizzles(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"data", "device float4*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 7, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"index", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 8, 27, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xd1ae5b7c00a87976ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.swizzles") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xd1ae5b7c00a87976ull)
    {"swizzles", "swizzle_assignments.metal", 7, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, "swizzles", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "swizzle_assignments.metal", nullptr, 0)
//@columns "swizzle_assignments.metal" 8 60-108=60
//@columns "swizzle_assignments.metal" 12 33-34=22 34-35=23 35-37=24 37-38=26
//@columns "swizzle_assignments.metal" 13 37-38=26 38-39=27 39-41=28 41-42=30
//@columns "swizzle_assignments.metal" 15 33-37=22 37-38=26 38-43=27 43-44=32 44-45=33 45-47=34 48-60=37 61-62=39 62-63=40 63-65=41 65-66=43
//@columns "swizzle_assignments.h" 7 23-24=12 24-25=13 25-27=14 27-28=16
//@columns "swizzle_assignments.h" 8 23-26=12 26-27=15
