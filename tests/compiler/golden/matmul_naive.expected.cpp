#include <metalcpu/kernel_prelude.h>
#line 3 "matmul_naive.metal"
using namespace metal;

struct MatmulShape {
    uint rows;
    uint inner;
    uint cols;
};

inline void matmul_naive(       const float* a              ,
                                const float* b              ,
                                float* c              ,
                         const    MatmulShape& shape              ,
                         uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8, true> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); if (::metalcpu_kernel::lane_any(gid.x >= shape.cols || gid.y >= shape.rows )) goto __mc_lanes_scalar; using __mc_lt_sum = ::metalcpu_kernel::varying<float, 8>; __mc_lt_sum sum = ::metalcpu_kernel::lane_as<__mc_lt_sum>(0.0f); for (uint k = 0; k < shape.inner; ++k) { sum += a[gid.y * shape.inner + k] * ::metalcpu_kernel::lane_load((b) + (k * shape.cols + gid.x )); } ::metalcpu_kernel::lane_store((c) + (gid.y * shape.cols + gid.x ), sum ); continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 17 "matmul_naive.metal"
    if (gid.x >= shape.cols || gid.y >= shape.rows) return __mc_wi.retire(__mc_t);
    float sum = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); } });
    for (uint k = 0; k < shape.inner; ++k) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { 
#line 20 "matmul_naive.metal"
        sum += a[gid.y * shape.inner + k] * b[k * shape.cols + gid.x]; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { 
#line 22 "matmul_naive.metal"
    c[gid.y * shape.cols + gid.x] = sum; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
} 
#line 23 "matmul_naive.metal"
}
#line 1 "<metalcpu generated>"
// "matmul_naive"
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
namespace {
using __mc_0_fn = decltype(&::matmul_naive);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::matmul_naive(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_3[] = {
    {"rows", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, rows), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::stride},
    {"inner", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, inner), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::stride},
    {"cols", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, cols), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_0_params[] = {
    {"a", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 11, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"b", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 12, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"c", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 13, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"shape", "constant MatmulShape&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 14, 48, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 3, ::__mc_0_members_3},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 15, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.matmul_naive") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
    {"matmul_naive", "matmul_naive.metal", 11, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "matmul_naive", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "matmul_naive.metal", nullptr, 0)
//@columns "matmul_naive.metal" 15 63-111=63
//@columns "matmul_naive.metal" 16 2-953=1
//@columns "matmul_naive.metal" 17 82-83=59
//@columns "matmul_naive.metal" 18 22-81=21
//@columns "matmul_naive.metal" 19 45-80=44
//@columns "matmul_naive.metal" 20 71-130=70
//@columns "matmul_naive.metal" 22 41-100=40
