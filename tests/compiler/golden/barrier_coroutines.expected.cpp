#include <metalcpu/kernel_prelude.h>
#line 6 "barrier_coroutines.metal"
using namespace metal;

namespace scan {

namespace { template <typename T, uint N> constexpr mc_u64 __mc_tg_owner_0() { return ::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } 
#line 10 "barrier_coroutines.metal"
template <typename T, uint N>
::metalcpu_kernel::barrier_task block_prefix( T* data    ,
                             const    uint& count              ,
                             uint gid                            ,
                             uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group)
{
    auto& partial = ::metalcpu_kernel::threadgroup_variable<T[N], 0x1ull, __mc_tg_owner_0<T, N>()>(__mc_group);
    auto load = [&](uint i) -> T { return i < count ? data[i] : T(0); };
    partial[lid] = load(gid);
    for (uint stride = 1;; stride *= 2) {
        if (stride >= N) break;
        co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);
        T value = lid >= stride ? partial[lid - stride] : T(0);
        co_await ::metalcpu_kernel::simdgroup_barrier_point(mem_flags::mem_threadgroup);
        partial[lid] += value;
    }
    co_await ::metalcpu_kernel::barrier_point(mem_flags::mem_threadgroup);
    if (gid >= count) {
        co_return;
    }
    data[gid] = partial[lid];
}

}



inline void reverse_by_lambda(       float* data              ,
                              uint lid                                ,
                              uint size                            , [[maybe_unused]] const ::mc_group* __mc_group)
{
    auto& tile = ::metalcpu_kernel::threadgroup_variable<float[256], 0x2ull>(__mc_group);
    auto exchange = [&](float x) {
        tile[lid] = x;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        return tile[size - 1 - lid];
    };
    data[lid] = exchange(data[lid]);
}
#line 1 "<metalcpu generated>"
// "block_prefix_float_64"
#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
namespace {
#line 35 "barrier_coroutines.metal"
using __mc_0_fn = decltype(&::scan::block_prefix<float, 64>);
#line 7 "<metalcpu generated>"
void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    ::metalcpu_kernel::run_coroutines(__g, [&](const ::metalcpu_kernel::thread_ids& __t) {
        return ::scan::block_prefix<float, 64>(__a0, __a1, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
const ::mc_param __mc_0_params[] = {
    {"data", "device T*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 11, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"count", "constant uint&", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 12, 45, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 13, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 14, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
constexpr mc_u64 __mc_0_threadgroup_owner = ::scan::__mc_tg_owner_0<float, 64>();
}
#endif

// "reverse_by_lambda"
#if METALCPU_SELECTS_KERNEL(0x8d5f4313ea5866d3ull)
namespace {
using __mc_1_fn = decltype(&::reverse_by_lambda);
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    ::reverse_by_lambda(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>, MC_BUILTIN_THREADS_PER_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 37, 45, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 38, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"size", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREADS_PER_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 39, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
};
const mc_u64 __mc_1_sites[] = {0x2ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.block_prefix_float_64") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x8d5f4313ea5866d3ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.reverse_by_lambda") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xc520a7d252f6dce1ull)
    {"block_prefix_float_64", "barrier_coroutines.metal", 11, 17, MC_KERNEL_COROUTINES, 0, 4, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "block_prefix<float, 64>", ::__mc_0_threadgroup_owner, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x8d5f4313ea5866d3ull)
    {"reverse_by_lambda", "barrier_coroutines.metal", 37, 13, MC_KERNEL_USES_BARRIERS, 0, 3, ::__mc_1_params, nullptr, METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 1, ::__mc_1_sites, "reverse_by_lambda", 0, "barrier_coroutines.metal:44:9: 'threadgroup_barrier' is called in a lambda or a local class", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "barrier_coroutines.metal", nullptr, 0)
//@columns "barrier_coroutines.metal" 11 1-33=1 33-45=17 45-46=29 47-48=37 48-49=38 50-54=40
//@columns "barrier_coroutines.metal" 14 70-118=70
//@columns "barrier_coroutines.metal" 21 50-51=35 51-60=36 60-62=45 62-77=47 77-78=62 78-79=63
//@columns "barrier_coroutines.metal" 23 60-61=35 61-70=36 70-72=45 72-87=47 87-88=62 88-89=63
//@columns "barrier_coroutines.metal" 26 46-47=24 47-56=25 56-58=34 58-73=36 73-74=51 74-75=52
//@columns "barrier_coroutines.metal" 28 18-19=15
//@columns "barrier_coroutines.metal" 39 68-116=68
