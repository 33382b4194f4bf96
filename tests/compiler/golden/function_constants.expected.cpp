#include <metalcpu/kernel_prelude.h>
#undef METALCPU_FUNCTION_CONSTANTS
#define METALCPU_FUNCTION_CONSTANTS 4, __mc_function_constants
#line 5 "function_constants.metal"
using namespace metal; constinit



const    bool has_bias                          = ::metalcpu_kernel::function_constant<bool, (0)>::value; using __mc_fc_has_bias = ::metalcpu_kernel::function_constant<bool, (0)>; static_assert(__has_trivial_destructor(__typeof__(has_bias)), "program-scope variable 'has_bias' must be trivially destructible (no kernel code may run when a library unloads)"); constinit
const    int nsg                                      = ::metalcpu_kernel::function_constant<int, (600 + 1)>::value; using __mc_fc_nsg = ::metalcpu_kernel::function_constant<int, (600 + 1)>; static_assert(__has_trivial_destructor(__typeof__(nsg)), "program-scope variable 'nsg' must be trivially destructible (no kernel code may run when a library unloads)"); constinit
const    float scale                          = ::metalcpu_kernel::function_constant<float, (2)>::value; using __mc_fc_scale = ::metalcpu_kernel::function_constant<float, (2)>; static_assert(__has_trivial_destructor(__typeof__(scale)), "program-scope variable 'scale' must be trivially destructible (no kernel code may run when a library unloads)"); constexpr
const    int span = nsg * 2 + 1; static_assert(__has_trivial_destructor(__typeof__(span)), "program-scope variable 'span' must be trivially destructible (no kernel code may run when a library unloads)"); constinit
const    uint shift                          = ::metalcpu_kernel::function_constant<uint, (3)>::value; using __mc_fc_shift = ::metalcpu_kernel::function_constant<uint, (3)>; static_assert(__has_trivial_destructor(__typeof__(shift)), "program-scope variable 'shift' must be trivially destructible (no kernel code may run when a library unloads)");
#if METALCPU_SELECTS_KERNEL(0x638d52fda4986aabull)
#line 15 "function_constants.metal"
inline void scaled_sum(       const float* in              ,
                              const float* bias                                           ,
                              float* out              ,
                       uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    float sum = 0;
    for (int i = 0; i < nsg; ++i) sum += in[gid * nsg + i];
    if (has_bias) sum += bias[gid];
    uint extra =                              __mc_fc_shift::defined ? shift : 0;
    out[gid] = sum * scale + span + extra;
}
#endif
#if METALCPU_SELECTS_KERNEL(0xb756a77766d33a84ull)
#line 27 "function_constants.metal"
inline void untouched(       float* out              , uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    out[gid] = 1.0f;
}
#endif
#line 1 "<metalcpu generated>"
const char* const __mc_fc_users_0[] = {METALCPU_KERNEL_USER(0x638d52fda4986aabull, "scaled_sum"), };
const char* const __mc_fc_users_1[] = {METALCPU_KERNEL_USER(0x638d52fda4986aabull, "scaled_sum"), };
const char* const __mc_fc_users_2[] = {METALCPU_KERNEL_USER(0x638d52fda4986aabull, "scaled_sum"), };
const char* const __mc_fc_users_3[] = {METALCPU_KERNEL_USER(0x638d52fda4986aabull, "scaled_sum"), };
const ::mc_function_constant __mc_function_constants[] = {
    {"has_bias", ::__mc_fc_has_bias::index, ::__mc_fc_has_bias::data_type, MC_FUNCTION_CONSTANT_REQUIRED | (::__mc_fc_has_bias::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), 1, __mc_fc_users_0},
    {"nsg", ::__mc_fc_nsg::index, ::__mc_fc_nsg::data_type, MC_FUNCTION_CONSTANT_REQUIRED | (::__mc_fc_nsg::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), 1, __mc_fc_users_1},
    {"scale", ::__mc_fc_scale::index, ::__mc_fc_scale::data_type, MC_FUNCTION_CONSTANT_REQUIRED | (::__mc_fc_scale::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), 1, __mc_fc_users_2},
    {"shift", ::__mc_fc_shift::index, ::__mc_fc_shift::data_type, 0u | (::__mc_fc_shift::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), 1, __mc_fc_users_3},
};
// "scaled_sum"
#if METALCPU_SELECTS_KERNEL(0x638d52fda4986aabull)
namespace {
using __mc_0_fn = decltype(&::scaled_sum);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, static_cast<bool>(::__mc_fc_has_bias::value));
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::scaled_sum(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, static_cast<bool>(::__mc_fc_has_bias::value));
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    ::scaled_sum(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"in", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 15, 44, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"bias", "device const float*", (static_cast<bool>(::__mc_fc_has_bias::value) ? MC_PARAM_BUFFER : MC_PARAM_ABSENT), 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 16, 44, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"out", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 17, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 18, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
};
}
#endif

// "untouched"
#if METALCPU_SELECTS_KERNEL(0xb756a77766d33a84ull)
namespace {
using __mc_1_fn = decltype(&::untouched);
__attribute__((flatten)) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::untouched(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    ::untouched(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 27, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 27, 61, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x638d52fda4986aabull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.scaled_sum") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xb756a77766d33a84ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.untouched") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x638d52fda4986aabull)
    {"scaled_sum", "function_constants.metal", 15, 13, 0u | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, "scaled_sum", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xb756a77766d33a84ull)
    {"untouched", "function_constants.metal", 27, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 0, nullptr, "untouched", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "function_constants.metal", nullptr, 0)
//@columns "function_constants.metal" 5 23-33=22
//@columns "function_constants.metal" 9 48-369=48
//@columns "function_constants.metal" 10 54-370=54
//@columns "function_constants.metal" 11 46-360=46
//@columns "function_constants.metal" 12 33-214=32
//@columns "function_constants.metal" 13 45-347=45
//@columns "function_constants.metal" 18 60-108=60
//@columns "function_constants.metal" 23 70-71=54 72-77=56 78-79=62 80-81=64 81-82=65
//@columns "function_constants.metal" 27 92-140=92
