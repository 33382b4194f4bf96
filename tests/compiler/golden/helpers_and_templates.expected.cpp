#include <metalcpu/kernel_prelude.h>
#line 5 "helpers_and_templates.metal"
using namespace metal;

struct Accumulator {
    float total;


    void add(float x)        { total += x; }

    float value() const        { return total; }

};

struct SumOp {
    float operator()(float a, float b) const { return a + b; }
};

template <int N>
float group_sum(float x, uint lid)
{
    auto& partial = ::metalcpu_kernel::threadgroup_variable<float[N], 0x1ull>(nullptr);
    partial[lid %__mc_div->* N] = simd_sum(x);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return partial[0];
}

template <typename Op, int WM, int WN>
                                                            void reduce_rows(
           const float* in              ,
           float* out              ,
    uint gid                            ,
    uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group)
{
    Op op;
    Accumulator acc;
    acc.total = half(0.0f);
#pragma GCC unroll 16
    for (int i = 0; i < WM; ++i) {
        acc.add(op(in[gid * WM + i], 0.0f));
    }
    out[gid] = (::metalcpu_kernel::simd_call_site(), group_sum<WN * 32>(acc.value(), lid));
} namespace { template <typename Op, int WM, int WN> constexpr unsigned __mc_max_threads_8() { return (WM * WN * 32); } }

typedef decltype(reduce_rows<SumOp, 2, 4>) reduce_rows_t;
#line 1 "<metalcpu generated>"
// "reduce_rows_sum_2x4"
#if METALCPU_SELECTS_KERNEL(0x705f430f27b80fa4ull)
namespace {
#line 48 "helpers_and_templates.metal"
using __mc_0_fn = decltype(&::reduce_rows<SumOp, 2, 4>);
#line 7 "<metalcpu generated>"
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    ::reduce_rows<SumOp, 2, 4>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"in", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 32, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"out", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 33, 19, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 34, 10, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 35, 10, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
constexpr mc_u32 __mc_0_max_threads = static_cast<mc_u32>(::__mc_max_threads_8<SumOp, 2, 4>());
}
#endif

#if METALCPU_SELECTS_KERNEL(0x705f430f27b80fa4ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.reduce_rows_sum_2x4") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x705f430f27b80fa4ull)
    {"reduce_rows_sum_2x4", "helpers_and_templates.metal", 31, 66, MC_KERNEL_USES_BARRIERS, ::__mc_0_max_threads, 4, ::__mc_0_params, nullptr, METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 1, ::__mc_0_sites, "reduce_rows<SumOp, 2, 4>", 0, "helpers_and_templates.metal:44:16: it calls 'group_sum', which uses SIMD-group function 'simd_sum' (helpers_and_templates.metal:25:24): the front end splits a kernel only at the barriers and SIMD-group functions its own body calls, and at its calls of collective helpers (functions whose only effect is their value and whose lanes make the same SIMD-group functions in the same order: one `return simd_f(...);`, or staged, several in a row, as MLX's `CumMax::simd_scan`), which 'group_sum' is not: it calls barrier 'threadgroup_barrier', which is in none; the call is not inlined: 'group_sum' declares a threadgroup variable (one per group, not per call) (helpers_and_templates.metal:24:5)", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "helpers_and_templates.metal", nullptr, 0)
//@columns "helpers_and_templates.metal" 25 30-31=19 31-32=20 33-34=22 35-43=24 43-44=32 44-45=33 45-46=34 46-47=35
//@columns "helpers_and_templates.metal" 35 45-93=45
//@columns "helpers_and_templates.metal" 39 27-28=21
//@columns "helpers_and_templates.metal" 44 16-63=16 63-64=25 64-66=26 67-68=29 69-71=31 71-72=33 72-73=34 73-76=35 76-77=38 77-82=39 82-83=44 83-84=45 84-85=46 86-89=48 89-91=51 91-92=52
//@columns "helpers_and_templates.metal" 45 2-122=1
