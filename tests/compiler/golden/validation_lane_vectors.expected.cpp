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
inline void mat_mul_register_8x4(::metalcpu_kernel::checked_ptr<const float, 1> A,
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
inline void horner(::metalcpu_kernel::checked_ptr<const float, 1> x,
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
inline void divided_sum(::metalcpu_kernel::checked_ptr<const float, 1> x,
                        ::metalcpu_kernel::checked_ptr< float, 1> y,
                        const    Polynomial& p,
                        uint gid                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false)
{ ::metalcpu_kernel::lane_block<false, 8> __mc_wi(__mc_group); using __mc_b3 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); using __mc_lt_acc = ::metalcpu_kernel::varying<float, 8>; __mc_lt_acc acc = ::metalcpu_kernel::lane_as<__mc_lt_acc>(0.0f); for (uint k = 0; k < p.terms; ++k) { acc += ::metalcpu_kernel::lane_checked_load(__mc_wi, (x) + (gid ), ::__mc_sites[19])/__mc_div->* float(k + 1) ; } ::metalcpu_kernel::lane_checked_store(__mc_wi, (y) + (gid ), ::__mc_sites[20], acc ); continue; } 
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
inline void matmul_naive(::metalcpu_kernel::checked_ptr<const float, 1> a,
                         ::metalcpu_kernel::checked_ptr<const float, 1> b,
                         ::metalcpu_kernel::checked_ptr< float, 1> c,
                         const    MatmulShape& shape              ,
                         uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); if (::metalcpu_kernel::lane_any(gid.x >= shape.cols || gid.y >= shape.rows )) goto __mc_lanes_scalar; using __mc_lt_sum = ::metalcpu_kernel::varying<float, 8>; __mc_lt_sum sum = ::metalcpu_kernel::lane_as<__mc_lt_sum>(0.0f); { if (::metalcpu_kernel::range_inside<uint>((0), (shape.inner), a, [&](uint k) { return (gid.y * shape.inner + k); }) & ::metalcpu_kernel::range_inside<uint>((0), (shape.inner), b, [&](uint k) { return (k * shape.cols + gid.x ); })) { constexpr bool __mc_range_782 = true; for (uint k = 0; k < shape.inner; ++k) { sum += ::metalcpu_kernel::lane_uniform_load_in(__mc_range_782, __mc_wi, a, gid.y * shape.inner + k, ::__mc_sites[21]) * ::metalcpu_kernel::lane_checked_load_in(__mc_range_782, __mc_wi, (b) + (k * shape.cols + gid.x ), ::__mc_sites[22]); } } else { constexpr bool __mc_range_782 = false; for (uint k = 0; k < shape.inner; ++k) { sum += ::metalcpu_kernel::lane_uniform_load_in(__mc_range_782, __mc_wi, a, gid.y * shape.inner + k, ::__mc_sites[21]) * ::metalcpu_kernel::lane_checked_load_in(__mc_range_782, __mc_wi, (b) + (k * shape.cols + gid.x ), ::__mc_sites[22]); } } } ::metalcpu_kernel::lane_checked_store(__mc_wi, (c) + (gid.y * shape.cols + gid.x ), ::__mc_sites[23], sum ); continue; } __mc_lanes_scalar: ; 
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
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "horner", 54u, 40u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "horner", 55u, 40u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "horner", 56u, 34u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>(__g, 3, ::mc_site{"validation_lane_vectors.metal", "horner", 57u, 41u});
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
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 70u, 45u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 71u, 39u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>(__g, 2, ::mc_site{"validation_lane_vectors.metal", "divided_sum", 72u, 46u});
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
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_3_members_3[] = {
    {"rows", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, rows), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::rows)>::stride},
    {"inner", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, inner), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::inner)>::stride},
    {"cols", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, cols), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>::cols)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_3_params[] = {
    {"a", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 89, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 0, nullptr},
    {"b", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 90, 46, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
    {"c", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 91, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 2>>, 0, nullptr},
    {"shape", "constant MatmulShape&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, 92, 48, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 3>>, 3, ::__mc_3_members_3},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>>, 93, 32, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 4>>, 0, nullptr},
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
    {"mat_mul_register_8x4", "validation_lane_vectors.metal", 13, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "mat_mul_register_8x4", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x4db16e68e6ba12b7ull)
    {"horner", "validation_lane_vectors.metal", 54, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), nullptr, 0, nullptr, "horner", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x9edf5d4c6d52cc94ull)
    {"divided_sum", "validation_lane_vectors.metal", 70, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_2_params, METALCPU_KERNEL_CODE(&::__mc_2_run_group), nullptr, 0, nullptr, "divided_sum", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x0cc50940e745e3dbull)
    {"matmul_naive", "validation_lane_vectors.metal", 89, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_3_params, METALCPU_KERNEL_CODE(&::__mc_3_run_group), nullptr, 0, nullptr, "matmul_naive", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_lane_vectors.metal", nullptr, 0)
//@columns "validation_lane_vectors.metal" 13 71-76=47 76-80=52 81-82=54 82-83=55
//@columns "validation_lane_vectors.metal" 14 71-76=47 76-80=52 81-82=54 82-83=55
//@columns "validation_lane_vectors.metal" 15 66-71=41 71-75=46 76-77=48 77-78=49
//@columns "validation_lane_vectors.metal" 17 71-119=71
//@columns "validation_lane_vectors.metal" 18 2-4014=1
//@columns "validation_lane_vectors.metal" 22 38-39=15
//@columns "validation_lane_vectors.metal" 25 27-244=26
//@columns "validation_lane_vectors.metal" 26 49-84=48
//@columns "validation_lane_vectors.metal" 27 45-46=22 46-83=23 83-89=36 89-93=42 93-94=43 94-95=44 95-96=45 97-98=47 99-100=49 100-101=50 102-103=52 104-105=54 105-106=55 107-108=57 109-115=59 115-116=65 116-120=66 121-122=71 123-124=73 124-149=74 149-150=75
//@columns "validation_lane_vectors.metal" 28 45-46=22 46-83=23 83-89=36 89-93=42 93-94=43 94-95=44 95-96=45 97-98=47 99-100=49 100-101=50 102-103=52 104-105=54 105-106=55 107-108=57 109-115=59 115-116=65 116-120=66 121-122=71 123-124=73 124-149=74 149-150=75
//@columns "validation_lane_vectors.metal" 29 45-46=22 46-83=23 83-89=36 89-93=42 93-94=43 94-95=44 95-96=45 97-98=47 99-100=49 100-101=50 102-103=52 104-105=54 105-106=55 107-108=57 109-115=59 115-116=65 116-120=66 121-122=71 123-124=73 124-149=74 149-150=75
//@columns "validation_lane_vectors.metal" 30 45-46=22 46-83=23 83-89=36 89-93=42 93-94=43 94-95=44 95-96=45 97-98=47 99-100=49 100-101=50 102-103=52 104-105=54 105-106=55 107-108=57 109-115=59 115-116=65 116-120=66 121-122=71 123-124=73 124-149=74 149-150=75 150-151=76
//@columns "validation_lane_vectors.metal" 31 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79
//@columns "validation_lane_vectors.metal" 32 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79
//@columns "validation_lane_vectors.metal" 33 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79
//@columns "validation_lane_vectors.metal" 34 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79 154-155=80
//@columns "validation_lane_vectors.metal" 35 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79
//@columns "validation_lane_vectors.metal" 36 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-153=78 153-154=79
//@columns "validation_lane_vectors.metal" 37 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-154=78 154-155=79
//@columns "validation_lane_vectors.metal" 38 48-49=25 49-86=26 86-92=39 92-96=45 96-97=46 97-98=47 98-99=48 100-101=50 102-103=52 103-104=53 105-106=55 107-108=57 108-109=58 110-111=60 112-118=62 118-119=68 119-124=69 125-126=75 127-128=77 128-154=78 154-155=79 155-156=80
//@columns "validation_lane_vectors.metal" 40 30-145=29
//@columns "validation_lane_vectors.metal" 43 34-35=10 35-66=11 67-73=18 73-77=24 77-78=25 78-79=26 79-80=27 81-82=29 83-84=31 84-85=32 86-87=34 88-89=36 89-90=37 91-92=39 93-99=41 99-100=47 100-104=48 105-106=53 107-108=55 108-134=56 135-136=58 137-164=60 164-166=63 166-167=64 167-186=65 186-187=66
//@columns "validation_lane_vectors.metal" 44 34-35=10 35-66=11 67-73=18 73-77=24 77-78=25 78-79=26 79-80=27 81-82=29 83-84=31 84-85=32 86-87=34 88-89=36 90-91=38 92-93=40 93-94=41 95-96=43 97-103=45 103-104=51 104-108=52 109-110=57 111-112=59 112-138=60 139-140=62 141-171=64 171-173=70 173-174=71 174-193=72 193-194=73
//@columns "validation_lane_vectors.metal" 45 6-121=5
//@columns "validation_lane_vectors.metal" 54 57-62=33 62-66=38 67-68=40 68-69=41
//@columns "validation_lane_vectors.metal" 55 57-62=33 62-66=38 67-79=40 79-80=52
//@columns "validation_lane_vectors.metal" 56 52-57=27 57-61=32 62-63=34 63-64=35
//@columns "validation_lane_vectors.metal" 58 56-141=56
//@columns "validation_lane_vectors.metal" 59 2-346=1
//@columns "validation_lane_vectors.metal" 60 54-55=31
//@columns "validation_lane_vectors.metal" 61 21-54=21 54-56=22 56-59=23 59-96=26 96-97=27
//@columns "validation_lane_vectors.metal" 62 22-132=21
//@columns "validation_lane_vectors.metal" 63 41-76=40
//@columns "validation_lane_vectors.metal" 64 25-61=25 61-63=37 63-64=38 64-83=39 83-143=40
//@columns "validation_lane_vectors.metal" 66 8-11=7 11-48=10 49-51=12 52-55=15 55-115=18
//@columns "validation_lane_vectors.metal" 70 62-67=38 67-71=43 72-73=45 73-74=46
//@columns "validation_lane_vectors.metal" 71 57-62=32 62-66=37 67-68=39 68-69=40
//@columns "validation_lane_vectors.metal" 73 61-146=61
//@columns "validation_lane_vectors.metal" 74 2-854=1
//@columns "validation_lane_vectors.metal" 75 22-81=21
//@columns "validation_lane_vectors.metal" 77 16-49=16 49-51=17 51-54=18 54-91=21 92-104=23 105-110=25 110-111=30 111-112=31 113-114=33 115-116=35 116-117=36 117-177=37
//@columns "validation_lane_vectors.metal" 79 8-11=7 11-48=10 49-50=12 51-54=14 54-114=17
//@columns "validation_lane_vectors.metal" 89 63-68=39 68-72=44 73-74=46 74-75=61
//@columns "validation_lane_vectors.metal" 90 63-68=39 68-72=44 73-74=46 74-75=61
//@columns "validation_lane_vectors.metal" 91 58-63=33 63-67=38 68-69=40 69-70=55
//@columns "validation_lane_vectors.metal" 93 63-111=63
//@columns "validation_lane_vectors.metal" 94 2-1733=1
//@columns "validation_lane_vectors.metal" 95 82-83=59
//@columns "validation_lane_vectors.metal" 96 22-81=21
//@columns "validation_lane_vectors.metal" 97 45-80=44
//@columns "validation_lane_vectors.metal" 98 16-41=16 41-43=17 43-46=18 46-47=21 47-48=22 49-50=24 51-56=26 56-57=31 57-62=32 63-64=38 65-66=40 66-85=41 86-87=43 88-113=45 113-115=46 115-116=47 117-118=49 119-124=51 124-125=56 125-129=57 130-131=62 132-135=64 135-136=67 136-137=68 137-156=69 156-216=70
//@columns "validation_lane_vectors.metal" 100 8-11=7 11-12=10 12-13=11 53-54=35 55-58=37 58-118=40
