#include <metalcpu/kernel_prelude.h>
#line 4 "namespace_kernel.metal"
using namespace metal;

namespace demo {
namespace ops {

inline float square(float x) { return x * x; }

inline void squares(       float* data              , uint i                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    data[i] = square(data[i]);
}

template <typename T>
       void negate(       T* data              , uint i                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    data[i] = -data[i];
}

}



}
#line 1 "<metalcpu generated>"
// "squares"
#if METALCPU_SELECTS_KERNEL(0x0036f175c0394c0full)
namespace demo { namespace ops { namespace {
using __mc_0_fn = decltype(&::demo::ops::squares);
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::demo::ops::squares(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    ::demo::ops::squares(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 11, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 11, 60, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
};
} } }
#endif

// "negate_float"
#if METALCPU_SELECTS_KERNEL(0x39f499913e343a2eull)
namespace demo { namespace {
#line 24 "namespace_kernel.metal"
using __mc_1_fn = decltype(&::demo::ops::negate<float>);
#line 29 "<metalcpu generated>"
__attribute__((flatten)) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::demo::ops::negate<float>(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    ::demo::ops::negate<float>(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data", "device T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 17, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 17, 55, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
};
} }
#endif

#if METALCPU_SELECTS_KERNEL(0x0036f175c0394c0full)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.squares") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x39f499913e343a2eull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.negate_float") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x0036f175c0394c0full)
    {"squares", "namespace_kernel.metal", 11, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::demo::ops::__mc_0_params, METALCPU_KERNEL_CODE(&::demo::ops::__mc_0_run_group), METALCPU_KERNEL_CODE(&::demo::ops::__mc_0_run_thread), 0, nullptr, "squares", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x39f499913e343a2eull)
    {"negate_float", "namespace_kernel.metal", 17, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::demo::__mc_1_params, METALCPU_KERNEL_CODE(&::demo::__mc_1_run_group), METALCPU_KERNEL_CODE(&::demo::__mc_1_run_thread), 0, nullptr, "negate<float>", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "namespace_kernel.metal", nullptr, 0)
//@columns "namespace_kernel.metal" 11 89-137=89
//@columns "namespace_kernel.metal" 17 84-132=84
