#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_sum_sincos.metal", "sum_sincos", 9u, 20u},
    {"validation_sum_sincos.metal", "sum_sincos", 9u, 26u},
    {"validation_sum_sincos.metal", "sum_sincos", 9u, 42u},
};
#line 4 "validation_sum_sincos.metal"
using namespace metal;

template <typename T>
       void sum_sincos(::metalcpu_kernel::checked_ptr<const T, 2> x, ::metalcpu_kernel::checked_ptr< T, 1> out,
                       uint index                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false) {
    ::metalcpu_kernel::store(out, index + 1, ::__mc_sites[0]) = sin(::metalcpu_kernel::load_in_rows(x, index, ::__mc_sites[1], __mc_rows_inside)) + cos(::metalcpu_kernel::load_in_rows(x, index, ::__mc_sites[2], __mc_rows_inside));
}
#line 1 "<metalcpu generated>"
// "sum_sincos_float"
#if METALCPU_SELECTS_KERNEL(0xadf476a8232d8c89ull)
namespace {
#line 12 "validation_sum_sincos.metal"
using __mc_0_fn = decltype(&::sum_sincos<float>);
#line 7 "<metalcpu generated>"
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_sum_sincos.metal", "sum_sincos_float", 7u, 36u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_sum_sincos.metal", "sum_sincos_float", 7u, 63u});
    if (::metalcpu_kernel::rows_inside(__g, __a0)) {
        ::metalcpu_kernel::for_each_thread_in_rows(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
            ::sum_sincos<float>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g, true);
        });
        return;
    }
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::sum_sincos<float>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_sum_sincos.metal", "sum_sincos_float", 7u, 36u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_sum_sincos.metal", "sum_sincos_float", 7u, 63u});
    ::sum_sincos<float>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"x", "constant T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 7, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"out", "device T*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 7, 63, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"index", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 8, 29, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xadf476a8232d8c89ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.sum_sincos_float") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xadf476a8232d8c89ull)
    {"sum_sincos_float", "validation_sum_sincos.metal", 7, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 3, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, "sum_sincos<float>", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_sum_sincos.metal", nullptr, 0)
//@columns "validation_sum_sincos.metal" 7 61-62=33 62-66=34 67-68=36 68-69=51 70-101=53 102-103=60 103-107=61 108-111=63 111-112=80
//@columns "validation_sum_sincos.metal" 8 62-147=62 148-149=64
//@columns "validation_sum_sincos.metal" 9 5-33=5 33-35=8 35-40=9 41-42=15 43-44=17 44-62=18 63-64=20 65-68=22 68-69=25 69-102=26 102-104=27 104-109=28 109-145=33 145-146=34 147-148=36 149-152=38 152-153=41 153-186=42 186-188=43 188-193=44 193-229=49 229-230=50 230-231=51
