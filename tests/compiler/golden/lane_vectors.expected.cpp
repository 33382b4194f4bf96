#include <metalcpu/kernel_prelude.h>
#line 4 "lane_vectors.metal"
using namespace metal;

struct MatMulParams {
    uint rows;
    uint cols;
    uint inner;
};


inline void mat_mul_register_8x4(       const float* A,
                                        const float* B,
                                        float* C,
                                 const    MatMulParams& params,
                                 uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8, true> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = const uint; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; using __mc_t1 = const uint; ::metalcpu_kernel::lane_slots<__mc_t1, 8> __mc_s1; auto* const __mc_v1 = __mc_s1.lanes; using __mc_t2 = float4x4; ::metalcpu_kernel::lane_slots<__mc_t2, 8> __mc_s2; auto* const __mc_v2 = __mc_s2.lanes; using __mc_t3 = float4x4; ::metalcpu_kernel::lane_slots<__mc_t3, 8> __mc_s3; auto* const __mc_v3 = __mc_s3.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); const uint i = gid.y * 8; using __mc_lt_j = ::metalcpu_kernel::lane_local<uint, 8, decltype((gid.x * 4 ))>; const __mc_lt_j j = ::metalcpu_kernel::lane_as<__mc_lt_j>(gid.x * 4 ); if (::metalcpu_kernel::lane_any(i >= params.rows || j >= params.cols )) goto __mc_lanes_scalar; using __mc_lt_top = ::metalcpu_kernel::varying<float4x4, 8>; __mc_lt_top top = ::metalcpu_kernel::lane_as<__mc_lt_top>(float4x4(0.0f)); using __mc_lt_bottom = ::metalcpu_kernel::varying<float4x4, 8>; __mc_lt_bottom bottom = ::metalcpu_kernel::lane_as<__mc_lt_bottom>(float4x4(0.0f)); for (uint k = 0; k < params.inner; k += 4) { ::metalcpu_kernel::varying<float4x4, 8> bt(::metalcpu_kernel::lane_load(::metalcpu_kernel::lane_cast<const float4*>((B + (k + 0) * params.cols + j) )), ::metalcpu_kernel::lane_load(::metalcpu_kernel::lane_cast<const float4*>((B + (k + 1) * params.cols + j) )), ::metalcpu_kernel::lane_load(::metalcpu_kernel::lane_cast<const float4*>((B + (k + 2) * params.cols + j) )), ::metalcpu_kernel::lane_load(::metalcpu_kernel::lane_cast<const float4*>((B + (k + 3) * params.cols + j) ))); float4x4 upper(*( const float4*)(A + (i + 0) * params.inner + k), *( const float4*)(A + (i + 1) * params.inner + k), *( const float4*)(A + (i + 2) * params.inner + k), *( const float4*)(A + (i + 3) * params.inner + k)); float4x4 lower(*( const float4*)(A + (i + 4) * params.inner + k), *( const float4*)(A + (i + 5) * params.inner + k), *( const float4*)(A + (i + 6) * params.inner + k), *( const float4*)(A + (i + 7) * params.inner + k)); top += bt * upper ; bottom += bt * lower ; } for (uint r = 0; r < 4; ++r) { ::metalcpu_kernel::lane_store(::metalcpu_kernel::lane_cast<float4*>((C + (i + r) * params.cols + j) ), top[r] ); ::metalcpu_kernel::lane_store(::metalcpu_kernel::lane_cast<float4*>((C + (i + 4 + r) * params.cols + j) ), bottom[r] ); } continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 19 "lane_vectors.metal"
    const uint i = gid.y * 8;
    const uint j = gid.x * 4;
    if (i >= params.rows || j >= params.cols) {
        return __mc_wi.retire(__mc_t);
    }
    float4x4 top(0.0f);
    float4x4 bottom(0.0f); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], i); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], j); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); } });
    for (uint k = 0; k < params.inner; k += 4) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t1 j = __mc_v1[__mc_t.slot]; __mc_t0 i = __mc_v0[__mc_t.slot]; __mc_t2 top = __mc_v2[__mc_t.slot]; __mc_t3 bottom = __mc_v3[__mc_t.slot]; { 
#line 27 "lane_vectors.metal"
        float4x4 bt(*(       const float4*)(B + (k + 0) * params.cols + j),
                    *(       const float4*)(B + (k + 1) * params.cols + j),
                    *(       const float4*)(B + (k + 2) * params.cols + j),
                    *(       const float4*)(B + (k + 3) * params.cols + j));
        float4x4 upper(*(       const float4*)(A + (i + 0) * params.inner + k),
                       *(       const float4*)(A + (i + 1) * params.inner + k),
                       *(       const float4*)(A + (i + 2) * params.inner + k),
                       *(       const float4*)(A + (i + 3) * params.inner + k));
        float4x4 lower(*(       const float4*)(A + (i + 4) * params.inner + k),
                       *(       const float4*)(A + (i + 5) * params.inner + k),
                       *(       const float4*)(A + (i + 6) * params.inner + k),
                       *(       const float4*)(A + (i + 7) * params.inner + k));
        top += bt * upper;
        bottom += bt * lower; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 i = __mc_v0[__mc_t.slot]; __mc_t1 j = __mc_v1[__mc_t.slot]; __mc_t2 top = __mc_v2[__mc_t.slot]; __mc_t3 bottom = __mc_v3[__mc_t.slot]; { 
#line 42 "lane_vectors.metal"
    for (uint r = 0; r < 4; ++r) {
        *(       float4*)(C + (i + r) * params.cols + j) = top[r];
        *(       float4*)(C + (i + 4 + r) * params.cols + j) = bottom[r];
    } } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); });
} 
#line 46 "lane_vectors.metal"
}

struct Polynomial {
    uint count;
    uint terms;
};


inline void horner(       const float* x,
                          const float* coefficients,
                          float* y,
                   const    Polynomial& p,
                   uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8, true> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = const float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; using __mc_t1 = float; ::metalcpu_kernel::lane_slots<__mc_t1, 8> __mc_s1; auto* const __mc_v1 = __mc_s1.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); if (::metalcpu_kernel::lane_any(gid >= p.count )) goto __mc_lanes_scalar; using __mc_lt_v = ::metalcpu_kernel::lane_local<float, 8, decltype((::metalcpu_kernel::lane_load((x) + (gid ))))>; const __mc_lt_v v = ::metalcpu_kernel::lane_as<__mc_lt_v>(::metalcpu_kernel::lane_load((x) + (gid ))); using __mc_lt_acc = ::metalcpu_kernel::varying<float, 8>; __mc_lt_acc acc = ::metalcpu_kernel::lane_as<__mc_lt_acc>(0.0f); for (uint k = 0; k < p.terms; ++k) { ::metalcpu_kernel::lane_set(acc, acc * v + coefficients[k] ); } ::metalcpu_kernel::lane_store((y) + (gid ), ::metalcpu_kernel::lane_load((y) + (gid )) + (acc )); continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 60 "lane_vectors.metal"
    if (gid >= p.count) return __mc_wi.retire(__mc_t);
    const float v = x[gid];
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); } });
    for (uint k = 0; k < p.terms; ++k) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t1 acc = __mc_v1[__mc_t.slot]; __mc_t0 v = __mc_v0[__mc_t.slot]; { 
#line 64 "lane_vectors.metal"
        acc = acc * v + coefficients[k]; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t1 acc = __mc_v1[__mc_t.slot]; { 
#line 66 "lane_vectors.metal"
    y[gid] += acc; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });
} 
#line 67 "lane_vectors.metal"
}


inline void divided_sum(       const float* x,
                               float* y,
                        const    Polynomial& p,
                        uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<false, 8, true> __mc_wi(__mc_group); using __mc_b3 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); using __mc_lt_acc = ::metalcpu_kernel::varying<float, 8>; __mc_lt_acc acc = ::metalcpu_kernel::lane_as<__mc_lt_acc>(0.0f); for (uint k = 0; k < p.terms; ++k) { acc += ::metalcpu_kernel::lane_load((x) + (gid ))/__mc_div->* float(k + 1) ; } ::metalcpu_kernel::lane_store((y) + (gid ), acc ); continue; } 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 75 "lane_vectors.metal"
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); } });
    for (uint k = 0; k < p.terms; ++k) {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { 
#line 77 "lane_vectors.metal"
        acc += x[gid] /__mc_div->* float(k + 1); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { 
#line 79 "lane_vectors.metal"
    y[gid] = acc; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
} 
#line 80 "lane_vectors.metal"
}



float clip(float v, float limit) { return v > limit ? limit : v; }

inline void clipped_sum(       const float4* x,
                               float* y,
                        const    Polynomial& p,
                        uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<false, 8, true> __mc_wi(__mc_group); using __mc_b3 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); using __mc_lt_acc = ::metalcpu_kernel::varying<float, 8>; __mc_lt_acc acc = ::metalcpu_kernel::lane_as<__mc_lt_acc>(0.0f); for (uint k = 0; k < p.terms; ++k) { { const auto __mc_lm0 = ::metalcpu_kernel::lane_when<8>(::metalcpu_kernel::lane_every{}, gid + k < p.count ); if (::metalcpu_kernel::any(__mc_lm0)) { { ::metalcpu_kernel::lane_set(acc, acc + (::metalcpu_kernel::lane_call<8>(__mc_lm0, [&](const auto&... __mc_a) { return clip(__mc_a...); }, ::metalcpu_kernel::lane_load((x) + (gid + k ), __mc_lm0).component(1), 4.0f)), __mc_lm0); } } const auto __mc_lm0e = ::metalcpu_kernel::lane_unless<8>(::metalcpu_kernel::lane_every{}, __mc_lm0); if (::metalcpu_kernel::any(__mc_lm0e)) { { ::metalcpu_kernel::lane_set(acc, acc * (0.5f), __mc_lm0e); } } } } { const auto __mc_lm1 = ::metalcpu_kernel::lane_when<8>(::metalcpu_kernel::lane_every{}, acc > 1.0f ); if (::metalcpu_kernel::any(__mc_lm1)) { { ::metalcpu_kernel::lane_store((y) + (gid ), acc , __mc_lm1); } } } continue; } 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 91 "lane_vectors.metal"
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); } });
    for (uint k = 0; k < p.terms; ++k) {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { 
#line 93 "lane_vectors.metal"
        if (gid + k < p.count) {
            acc += clip(x[gid + k].y, 4.0f);
        } else {
            acc *= 0.5f;
        } } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { 
#line 99 "lane_vectors.metal"
    if (acc > 1.0f) {
        y[gid] = acc;
    } } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
} 
#line 102 "lane_vectors.metal"
}
#line 1 "<metalcpu generated>"
// "mat_mul_register_8x4"
#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
namespace {
using __mc_0_fn = decltype(&::mat_mul_register_8x4);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::mat_mul_register_8x4(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_3[] = {
    {"rows", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, rows), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::rows)>::stride},
    {"cols", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, cols), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::cols)>::stride},
    {"inner", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, inner), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>::inner)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_0_params[] = {
    {"A", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 13, 54, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"B", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 14, 54, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"C", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 15, 48, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"params", "constant MatMulParams&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 16, 57, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 3, ::__mc_0_members_3},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 17, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
}
#endif

// "horner"
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
namespace {
using __mc_1_fn = decltype(&::horner);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2);
    auto&& __a3 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>(__g, 3);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::horner(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_1_members_3[] = {
    {"count", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, count), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::count)>::stride},
    {"terms", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, terms), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>::terms)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_1_params[] = {
    {"x", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 54, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"coefficients", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 55, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"y", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 56, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
    {"p", "constant Polynomial&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 57, 41, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 2, ::__mc_1_members_3},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, 58, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, 0, nullptr},
};
}
#endif

// "divided_sum"
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
namespace {
using __mc_2_fn = decltype(&::divided_sum);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_2_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>(__g, 2);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::divided_sum(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_2_members_2[] = {
    {"count", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, count), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::count)>::stride},
    {"terms", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, terms), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>::terms)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_2_params[] = {
    {"x", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 70, 45, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 0, nullptr},
    {"y", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 71, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 0, nullptr},
    {"p", "constant Polynomial&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 72, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 2, ::__mc_2_members_2},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, 73, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, 0, nullptr},
};
}
#endif

// "clipped_sum"
#if METALCPU_SELECTS_KERNEL(0x382346e6cf2160d8ull)
namespace {
using __mc_3_fn = decltype(&::clipped_sum);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_3_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0);
    auto&& __a1 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>(__g, 1);
    auto&& __a2 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>(__g, 2);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::clipped_sum(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_3_members_2[] = {
    {"count", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, count), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::count)>::stride},
    {"terms", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, terms), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>::terms)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_3_params[] = {
    {"x", "device const float4*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 86, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 0, nullptr},
    {"y", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 87, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
    {"p", "constant Polynomial&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 88, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 2, ::__mc_3_members_2},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, 89, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.mat_mul_register_8x4") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.horner") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
__attribute__((used, visibility("hidden"))) char __mc_2_name __asm__("metalcpu.kernel.divided_sum") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x382346e6cf2160d8ull)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.clipped_sum") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
    {"mat_mul_register_8x4", "lane_vectors.metal", 13, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "mat_mul_register_8x4", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
    {"horner", "lane_vectors.metal", 54, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "horner", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
    {"divided_sum", "lane_vectors.metal", 70, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_2_params, METALCPU_KERNEL_CODE(&::__mc_2_run_group), nullptr, 0, nullptr, "divided_sum", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x382346e6cf2160d8ull)
    {"clipped_sum", "lane_vectors.metal", 86, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_3_params, METALCPU_KERNEL_CODE(&::__mc_3_run_group), nullptr, 0, nullptr, "clipped_sum", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "lane_vectors.metal", nullptr, 0)
//@columns "lane_vectors.metal" 17 71-119=71
//@columns "lane_vectors.metal" 18 2-2696=1
//@columns "lane_vectors.metal" 22 38-39=15
//@columns "lane_vectors.metal" 25 27-244=26
//@columns "lane_vectors.metal" 26 49-84=48
//@columns "lane_vectors.metal" 40 30-145=29
//@columns "lane_vectors.metal" 45 6-121=5
//@columns "lane_vectors.metal" 58 56-104=56
//@columns "lane_vectors.metal" 59 2-1243=1
//@columns "lane_vectors.metal" 60 54-55=31
//@columns "lane_vectors.metal" 62 22-132=21
//@columns "lane_vectors.metal" 63 41-76=40
//@columns "lane_vectors.metal" 64 41-100=40
//@columns "lane_vectors.metal" 66 19-78=18
//@columns "lane_vectors.metal" 73 61-109=61
//@columns "lane_vectors.metal" 74 2-782=1
//@columns "lane_vectors.metal" 75 22-81=21
//@columns "lane_vectors.metal" 77 36-41=25 41-42=30 42-43=31 44-45=33 46-47=35 47-48=36 48-108=37
//@columns "lane_vectors.metal" 79 18-77=17
//@columns "lane_vectors.metal" 89 61-109=61
//@columns "lane_vectors.metal" 90 2-1459=1
//@columns "lane_vectors.metal" 91 22-81=21
//@columns "lane_vectors.metal" 97 10-69=9
//@columns "lane_vectors.metal" 101 6-65=5
