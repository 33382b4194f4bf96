#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 27u, 21u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 28u, 21u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 29u, 21u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 30u, 21u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 31u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 32u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 33u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 34u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 35u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 36u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 37u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 38u, 24u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 43u, 58u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 43u, 60u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 44u, 62u},
    {"validation_lane_vectors.metal", "mat_mul_register_8x4", 44u, 64u},
    {"validation_lane_vectors.metal", "horner", 61u, 21u},
    {"validation_lane_vectors.metal", "horner", 64u, 25u},
    {"validation_lane_vectors.metal", "horner", 66u, 12u},
    {"validation_lane_vectors.metal", "divided_sum", 77u, 16u},
    {"validation_lane_vectors.metal", "divided_sum", 79u, 12u},
    {"validation_lane_vectors.metal", "matmul_naive", 98u, 16u},
    {"validation_lane_vectors.metal", "matmul_naive", 98u, 45u},
    {"validation_lane_vectors.metal", "matmul_naive", 100u, 35u},
};
#line 4 "validation_lane_vectors.metal"
using namespace metal;

struct MatMulParams {
    uint rows;
    uint cols;
    uint inner;
};
#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
#line 13 "validation_lane_vectors.metal"
       void mat_mul_register_8x4(::metalcpu_kernel::checked_ptr<const float, 1> A,
                                 ::metalcpu_kernel::checked_ptr<const float, 1> B,
                                 ::metalcpu_kernel::checked_ptr< float, 1> C,
                                 const    MatMulParams& params,
                                 uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = const uint; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; using __mc_t1 = const uint; ::metalcpu_kernel::lane_slots<__mc_t1, 8> __mc_s1; auto* const __mc_v1 = __mc_s1.lanes; using __mc_t2 = float4x4; ::metalcpu_kernel::lane_slots<__mc_t2, 8> __mc_s2; auto* const __mc_v2 = __mc_s2.lanes; using __mc_t3 = float4x4; ::metalcpu_kernel::lane_slots<__mc_t3, 8> __mc_s3; auto* const __mc_v3 = __mc_s3.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); const uint i = gid.y * 8; using __mc_lt_j = ::metalcpu_kernel::lane_local<uint, 8, decltype((gid.x * 4 ))>; const __mc_lt_j j = ::metalcpu_kernel::lane_as<__mc_lt_j>(gid.x * 4 ); if (::metalcpu_kernel::lane_any(i >= params.rows || j >= params.cols )) goto __mc_lanes_scalar; using __mc_lt_top = ::metalcpu_kernel::varying<float4x4, 8>; __mc_lt_top top = ::metalcpu_kernel::lane_as<__mc_lt_top>(float4x4(0.0f)); using __mc_lt_bottom = ::metalcpu_kernel::varying<float4x4, 8>; __mc_lt_bottom bottom = ::metalcpu_kernel::lane_as<__mc_lt_bottom>(float4x4(0.0f)); for (uint k = 0; k < params.inner; k += 4) { ::metalcpu_kernel::varying<float4x4, 8> bt(::metalcpu_kernel::lane_checked_load(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr<const float4, 1>>((B + (k + 0) * params.cols + j) ), ::__mc_sites[0]), ::metalcpu_kernel::lane_checked_load(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr<const float4, 1>>((B + (k + 1) * params.cols + j) ), ::__mc_sites[1]), ::metalcpu_kernel::lane_checked_load(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr<const float4, 1>>((B + (k + 2) * params.cols + j) ), ::__mc_sites[2]), ::metalcpu_kernel::lane_checked_load(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr<const float4, 1>>((B + (k + 3) * params.cols + j) ), ::__mc_sites[3])); float4x4 upper(::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 0) * params.inner + k), 0, ::__mc_sites[4], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 1) * params.inner + k), 0, ::__mc_sites[5], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 2) * params.inner + k), 0, ::__mc_sites[6], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 3) * params.inner + k), 0, ::__mc_sites[7], A)); float4x4 lower(::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 4) * params.inner + k), 0, ::__mc_sites[8], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 5) * params.inner + k), 0, ::__mc_sites[9], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 6) * params.inner + k), 0, ::__mc_sites[10], A), ::metalcpu_kernel::lane_uniform_load(__mc_wi, (::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 7) * params.inner + k), 0, ::__mc_sites[11], A)); top += bt * upper ; bottom += bt * lower ; } for (uint r = 0; r < 4; ++r) { ::metalcpu_kernel::lane_checked_store(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr< float4, 1>>((C + (i + r) * params.cols + j) ), ::__mc_sites[12], ::metalcpu_kernel::load(top, r, ::__mc_sites[13]) ); ::metalcpu_kernel::lane_checked_store(__mc_wi, ::metalcpu_kernel::lane_cast<::metalcpu_kernel::checked_ptr< float4, 1>>((C + (i + 4 + r) * params.cols + j) ), ::__mc_sites[14], ::metalcpu_kernel::load(bottom, r, ::__mc_sites[15]) ); } continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 19 "validation_lane_vectors.metal"
    const uint i = gid.y * 8;
    const uint j = gid.x * 4;
    if (i >= params.rows || j >= params.cols) {
        return __mc_wi.retire(__mc_t);
    }
    float4x4 top(0.0f);
    float4x4 bottom(0.0f); ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], i); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], j); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); } });
    for (uint k = 0; k < params.inner; k += 4) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t1 j = __mc_v1[__mc_t.slot]; __mc_t0 i = __mc_v0[__mc_t.slot]; __mc_t2 top = __mc_v2[__mc_t.slot]; __mc_t3 bottom = __mc_v3[__mc_t.slot]; { 
#line 27 "validation_lane_vectors.metal"
        float4x4 bt(::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(B + (k + 0) * params.cols + j), 0, ::__mc_sites[0], B),
                    ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(B + (k + 1) * params.cols + j), 0, ::__mc_sites[1], B),
                    ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(B + (k + 2) * params.cols + j), 0, ::__mc_sites[2], B),
                    ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(B + (k + 3) * params.cols + j), 0, ::__mc_sites[3], B));
        float4x4 upper(::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 0) * params.inner + k), 0, ::__mc_sites[4], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 1) * params.inner + k), 0, ::__mc_sites[5], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 2) * params.inner + k), 0, ::__mc_sites[6], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 3) * params.inner + k), 0, ::__mc_sites[7], A));
        float4x4 lower(::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 4) * params.inner + k), 0, ::__mc_sites[8], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 5) * params.inner + k), 0, ::__mc_sites[9], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 6) * params.inner + k), 0, ::__mc_sites[10], A),
                       ::metalcpu_kernel::load((::metalcpu_kernel::checked_ptr<const float4, 1>)(A + (i + 7) * params.inner + k), 0, ::__mc_sites[11], A));
        top += bt * upper;
        bottom += bt * lower; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 i = __mc_v0[__mc_t.slot]; __mc_t1 j = __mc_v1[__mc_t.slot]; __mc_t2 top = __mc_v2[__mc_t.slot]; __mc_t3 bottom = __mc_v3[__mc_t.slot]; { 
#line 42 "validation_lane_vectors.metal"
    for (uint r = 0; r < 4; ++r) {
        ::metalcpu_kernel::store((::metalcpu_kernel::checked_ptr< float4, 1>)(C + (i + r) * params.cols + j), 0, ::__mc_sites[12], C) = ::metalcpu_kernel::load(top, r, ::__mc_sites[13]);
        ::metalcpu_kernel::store((::metalcpu_kernel::checked_ptr< float4, 1>)(C + (i + 4 + r) * params.cols + j), 0, ::__mc_sites[14], C) = ::metalcpu_kernel::load(bottom, r, ::__mc_sites[15]);
    } } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], top); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], bottom); });
} 
#line 46 "validation_lane_vectors.metal"
}
#endif
#line 48 "validation_lane_vectors.metal"
struct Polynomial {
    uint count;
    uint terms;
};
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
#line 54 "validation_lane_vectors.metal"
       void horner(::metalcpu_kernel::checked_ptr<const float, 1> x,
                   ::metalcpu_kernel::checked_ptr<const float, 1> coefficients,
                   ::metalcpu_kernel::checked_ptr< float, 1> y,
                   const    Polynomial& p,
                   uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false)
{ ::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = const float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; using __mc_t1 = float; ::metalcpu_kernel::lane_slots<__mc_t1, 8> __mc_s1; auto* const __mc_v1 = __mc_s1.lanes; while (__mc_wi.next()) {
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 60 "validation_lane_vectors.metal"
    if (gid >= p.count) return __mc_wi.retire(__mc_t);
    const float v = ::metalcpu_kernel::load_in_rows(x, gid, ::__mc_sites[16], __mc_rows_inside);
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); } });
    for (uint k = 0; k < p.terms; ++k) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t1 acc = __mc_v1[__mc_t.slot]; __mc_t0 v = __mc_v0[__mc_t.slot]; { 
#line 64 "validation_lane_vectors.metal"
        acc = acc * v + ::metalcpu_kernel::load(coefficients, k, ::__mc_sites[17]); } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t1 acc = __mc_v1[__mc_t.slot]; { ::metalcpu_kernel::update_in_rows(
#line 66 "validation_lane_vectors.metal"
    y, gid, ::__mc_sites[18], __mc_rows_inside) += acc; } ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], acc); });
} 
#line 67 "validation_lane_vectors.metal"
}
#endif
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
#line 70 "validation_lane_vectors.metal"
       void divided_sum(::metalcpu_kernel::checked_ptr<const float, 1> x,
                        ::metalcpu_kernel::checked_ptr< float, 1> y,
                        const    Polynomial& p,
                        uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false)
{ ::metalcpu_kernel::lane_block<false, 8> __mc_wi(__mc_group); using __mc_b3 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) {
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 75 "validation_lane_vectors.metal"
    float acc = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); } });
    for (uint k = 0; k < p.terms; ++k) {
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { 
#line 77 "validation_lane_vectors.metal"
        acc += ::metalcpu_kernel::load_in_rows(x, gid, ::__mc_sites[19], __mc_rows_inside) /__mc_div->* float(k + 1); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 gid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 acc = __mc_v0[__mc_t.slot]; { ::metalcpu_kernel::store_in_rows(
#line 79 "validation_lane_vectors.metal"
    y, gid, ::__mc_sites[20], __mc_rows_inside) = acc; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], acc); });
} 
#line 80 "validation_lane_vectors.metal"
}
#endif
#line 82 "validation_lane_vectors.metal"
struct MatmulShape {
    uint rows;
    uint inner;
    uint cols;
};
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
#line 89 "validation_lane_vectors.metal"
       void matmul_naive(::metalcpu_kernel::checked_ptr<const float, 1> a,
                         ::metalcpu_kernel::checked_ptr<const float, 1> b,
                         ::metalcpu_kernel::checked_ptr< float, 1> c,
                         const    MatmulShape& shape              ,
                         uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); if (::metalcpu_kernel::lane_any(gid.x >= shape.cols || gid.y >= shape.rows )) goto __mc_lanes_scalar; using __mc_lt_sum = ::metalcpu_kernel::varying<float, 8>; __mc_lt_sum sum = ::metalcpu_kernel::lane_as<__mc_lt_sum>(0.0f); for (uint k = 0; k < shape.inner; ++k) { sum += ::metalcpu_kernel::lane_uniform_load(__mc_wi, a, gid.y * shape.inner + k, ::__mc_sites[21]) * ::metalcpu_kernel::lane_checked_load(__mc_wi, (b) + (k * shape.cols + gid.x ), ::__mc_sites[22]); } ::metalcpu_kernel::lane_checked_store(__mc_wi, (c) + (gid.y * shape.cols + gid.x ), ::__mc_sites[23], sum ); continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 95 "validation_lane_vectors.metal"
    if (gid.x >= shape.cols || gid.y >= shape.rows) return __mc_wi.retire(__mc_t);
    float sum = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); } });
    for (uint k = 0; k < shape.inner; ++k) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { 
#line 98 "validation_lane_vectors.metal"
        sum += ::metalcpu_kernel::load(a, gid.y * shape.inner + k, ::__mc_sites[21]) * ::metalcpu_kernel::load(b, k * shape.cols + gid.x, ::__mc_sites[22]); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { ::metalcpu_kernel::store(
#line 100 "validation_lane_vectors.metal"
    c, gid.y* shape.cols + gid.x, ::__mc_sites[23]) = sum; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
} 
#line 101 "validation_lane_vectors.metal"
}
#endif
#line 1 "<metalcpu generated>"
// "mat_mul_register_8x4"
#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
namespace {
using __mc_0_fn = decltype(&::mat_mul_register_8x4);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "mat_mul_register_8x4", 13u, 54u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "mat_mul_register_8x4", 14u, 54u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "mat_mul_register_8x4", 15u, 48u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3, ::mc_site{"validation_lane_vectors.metal", "mat_mul_register_8x4", 16u, 57u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::mat_mul_register_8x4(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"A", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 13, 54, 0, 0, 0, 0},
    {"B", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 14, 54, 0, 0, 0, 0},
    {"C", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 15, 48, 0, 0, 0, 0},
    {"params", "constant MatMulParams&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 16, 57, 0, 0, 0, 0},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 17, 40, 0, 0, 0, 0},
};
}
#endif

// "horner"
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
namespace {
using __mc_1_fn = decltype(&::horner);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "horner", 54u, 40u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "horner", 55u, 40u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "horner", 56u, 34u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>(__g, 3, ::mc_site{"validation_lane_vectors.metal", "horner", 57u, 41u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::horner(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"x", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 54, 40, 0, 0, 0, 0},
    {"coefficients", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 55, 40, 0, 0, 0, 0},
    {"y", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 56, 34, 0, 0, 0, 0},
    {"p", "constant Polynomial&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 57, 41, 0, 0, 0, 0},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 4>>, 58, 25, 0, 0, 0, 0},
};
}
#endif

// "divided_sum"
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
namespace {
using __mc_2_fn = decltype(&::divided_sum);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_2_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 70u, 45u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 71u, 39u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 72u, 46u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::divided_sum(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_2_params[] = {
    {"x", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 70, 45, 0, 0, 0, 0},
    {"y", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 71, 39, 0, 0, 0, 0},
    {"p", "constant Polynomial&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 72, 46, 0, 0, 0, 0},
    {"gid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, 73, 30, 0, 0, 0, 0},
};
}
#endif

// "matmul_naive"
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
namespace {
using __mc_3_fn = decltype(&::matmul_naive);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_3_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "matmul_naive", 89u, 46u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "matmul_naive", 90u, 46u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "matmul_naive", 91u, 40u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>(__g, 3, ::mc_site{"validation_lane_vectors.metal", "matmul_naive", 92u, 48u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::matmul_naive(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_3_params[] = {
    {"a", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 89, 46, 0, 0, 0, 0},
    {"b", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 90, 46, 0, 0, 0, 0},
    {"c", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 91, 40, 0, 0, 0, 0},
    {"shape", "constant MatmulShape&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, 92, 48, 0, 0, 0, 0},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>>, 93, 32, 0, 0, 0, 0},
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
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.matmul_naive") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x32459db470de113bull)
    {"mat_mul_register_8x4", "validation_lane_vectors.metal", 13, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_0_params, &::__mc_0_run_group, nullptr, 0, nullptr, "mat_mul_register_8x4", 0, ""},
#endif
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
    {"horner", "validation_lane_vectors.metal", 54, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_1_params, &::__mc_1_run_group, nullptr, 0, nullptr, "horner", 0, ""},
#endif
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
    {"divided_sum", "validation_lane_vectors.metal", 70, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_2_params, &::__mc_2_run_group, nullptr, 0, nullptr, "divided_sum", 0, ""},
#endif
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
    {"matmul_naive", "validation_lane_vectors.metal", 89, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_3_params, &::__mc_3_run_group, nullptr, 0, nullptr, "matmul_naive", 0, ""},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_lane_vectors.metal", nullptr, 0)
