#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_loop_ranges.metal", "naive", 15u, 16u},
    {"validation_loop_ranges.metal", "naive", 15u, 41u},
    {"validation_loop_ranges.metal", "naive", 17u, 31u},
    {"validation_loop_ranges.metal", "prefix", 27u, 13u},
    {"validation_loop_ranges.metal", "prefix", 28u, 47u},
    {"validation_loop_ranges.metal", "prefix", 30u, 24u},
    {"validation_loop_ranges.metal", "prefix", 32u, 12u},
    {"validation_loop_ranges.metal", "unhoisted", 41u, 41u},
    {"validation_loop_ranges.metal", "unhoisted", 41u, 51u},
    {"validation_loop_ranges.metal", "unhoisted", 42u, 41u},
    {"validation_loop_ranges.metal", "unhoisted", 43u, 43u},
    {"validation_loop_ranges.metal", "unhoisted", 44u, 44u},
    {"validation_loop_ranges.metal", "unhoisted", 44u, 36u},
    {"validation_loop_ranges.metal", "unhoisted", 45u, 43u},
    {"validation_loop_ranges.metal", "unhoisted", 46u, 39u},
    {"validation_loop_ranges.metal", "unhoisted", 47u, 40u},
    {"validation_loop_ranges.metal", "unhoisted", 49u, 39u},
    {"validation_loop_ranges.metal", "captures", 56u, 41u},
};
#line 4 "validation_loop_ranges.metal"
using namespace metal;

struct Sizes { uint rows; uint cols; uint inner; };
#if METALCPU_SELECTS_KERNEL(0x8c1892ffddf4c476ull)
#line 9 "validation_loop_ranges.metal"
inline void naive(::metalcpu_kernel::checked_ptr<const float, 1> A, ::metalcpu_kernel::checked_ptr<const float, 1> B,
                  ::metalcpu_kernel::checked_ptr< float, 1> C, const Sizes& s   ,
                  uint2 gid                            , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::lane_block<true, 8> __mc_wi(__mc_group); using __mc_b4 = decltype(gid); using __mc_t0 = float; ::metalcpu_kernel::lane_slots<__mc_t0, 8> __mc_s0; auto* const __mc_v0 = __mc_s0.lanes; while (__mc_wi.next()) { if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { using __mc_lb_gid = decltype(gid); const auto gid = ::metalcpu_kernel::lane_builtin<8>(::metalcpu_kernel::builtin<__mc_lb_gid, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_wi.ids(0))); if (::metalcpu_kernel::lane_any(gid.x >= s.cols || gid.y >= s.rows )) goto __mc_lanes_scalar; using __mc_lt_sum = ::metalcpu_kernel::varying<float, 8>; __mc_lt_sum sum = ::metalcpu_kernel::lane_as<__mc_lt_sum>(0.0f); { if (::metalcpu_kernel::range_inside<uint>((0), (s.inner), A, [&](uint k) { return (gid.y * s.inner + k); }) & ::metalcpu_kernel::range_inside<uint>((0), (s.inner), B, [&](uint k) { return (k * s.cols + gid.x ); })) { constexpr bool __mc_range_110 = true; for (uint k = 0; k < s.inner; ++k) { sum += ::metalcpu_kernel::lane_uniform_load_in(__mc_range_110, __mc_wi, A, gid.y * s.inner + k, ::__mc_sites[0]) * ::metalcpu_kernel::lane_checked_load_in(__mc_range_110, __mc_wi, (B) + (k * s.cols + gid.x ), ::__mc_sites[1]); } } else { constexpr bool __mc_range_110 = false; for (uint k = 0; k < s.inner; ++k) { sum += ::metalcpu_kernel::lane_uniform_load_in(__mc_range_110, __mc_wi, A, gid.y * s.inner + k, ::__mc_sites[0]) * ::metalcpu_kernel::lane_checked_load_in(__mc_range_110, __mc_wi, (B) + (k * s.cols + gid.x ), ::__mc_sites[1]); } } } ::metalcpu_kernel::lane_checked_store(__mc_wi, (C) + (gid.y * s.cols + gid.x ), ::__mc_sites[2], sum ); continue; } __mc_lanes_scalar: ; 
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 12 "validation_loop_ranges.metal"
    if (gid.x >= s.cols || gid.y >= s.rows) return __mc_wi.retire(__mc_t);
    float sum = 0.0f; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); } });
    for (uint k = 0; k < s.inner; ++k) { if (__mc_wi.all_returned()) break;
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { 
#line 15 "validation_loop_ranges.metal"
        sum += ::metalcpu_kernel::load(A, gid.y * s.inner + k, ::__mc_sites[0]) * ::metalcpu_kernel::load(B, k * s.cols + gid.x, ::__mc_sites[1]); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 gid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_t0 sum = __mc_v0[__mc_t.slot]; { ::metalcpu_kernel::store(
#line 17 "validation_loop_ranges.metal"
    C, gid.y* s.cols + gid.x, ::__mc_sites[2]) = sum; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], sum); });
} 
#line 18 "validation_loop_ranges.metal"
}
#endif
#if METALCPU_SELECTS_KERNEL(0xba8821b572531e29ull)
#line 22 "validation_loop_ranges.metal"
inline void prefix(::metalcpu_kernel::checked_ptr<const int, 1> in, ::metalcpu_kernel::checked_ptr< int, 1> out,
                   const    uint& n              , uint i                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false) {
    int total = 0;
    const uint base = i * n;
    { const bool __mc_range_0 = ::metalcpu_kernel::range_inside<uint>((0), (i), in, [&](uint k) { return (base + k); }) & ::metalcpu_kernel::range_inside<uint>((0), (i), out, [&](uint k) { return (2 * k + 1); }); 
#line 26 "validation_loop_ranges.metal"
    for (uint k = 0; k < i; ++k) {
        if (::metalcpu_kernel::load_in(__mc_range_0, in, base + k, ::__mc_sites[3]) < 0) break;
        { const bool __mc_range_1 = ::metalcpu_kernel::range_inside<uint>((k), (n), in, [&](uint j) { return (j + base); }); 
#line 28 "validation_loop_ranges.metal"
        for (uint j = k; j < n; j++) total += ::metalcpu_kernel::load_in(__mc_range_1, in, j + base, ::__mc_sites[4]); }
        if (total > 1000) return;
        ::metalcpu_kernel::store_in(__mc_range_0, out, 2 * k + 1, ::__mc_sites[5]) = total;
    } }
    ::metalcpu_kernel::store_in_rows(out, i, ::__mc_sites[6], __mc_rows_inside) = total;
}
#endif
#if METALCPU_SELECTS_KERNEL(0xf708417b3d59b3c8ull)
#line 38 "validation_loop_ranges.metal"
inline void unhoisted(::metalcpu_kernel::checked_ptr< float, 1> a, ::metalcpu_kernel::checked_ptr<const uint, 1> idx,
                             uint& m              , uint i                            , [[maybe_unused]] const ::mc_group* __mc_group) {
    uint n = i;
    for (uint k = 0; k < i; ++k) { ::metalcpu_kernel::store(a, k, ::__mc_sites[7]) = 0;
#line 41 "validation_loop_ranges.metal"
                                             k += ::metalcpu_kernel::load(a, k, ::__mc_sites[8]) > 1 ? 1 : 0;
#line 41 "validation_loop_ranges.metal"
                                                                    }
    for (uint k = 0; k < n; ++k) { ::metalcpu_kernel::store(a, k, ::__mc_sites[9]) = 1;
#line 42 "validation_loop_ranges.metal"
                                             n = n - 1; }
    for (uint k = 0; k < i; ++k) ::metalcpu_kernel::store(a, k * k, ::__mc_sites[10]) = 2;
    { const bool __mc_range_2 = ::metalcpu_kernel::range_inside<uint>((0), (i), idx, [&](uint k) { return (k); }); 
#line 44 "validation_loop_ranges.metal"
    for (uint k = 0; k < i; ++k) ::metalcpu_kernel::store(a, ::metalcpu_kernel::load_in(__mc_range_2, idx, k, ::__mc_sites[12]), ::__mc_sites[11]) = 3; }
    for (uint k = 0; k < i; ++k) ::metalcpu_kernel::store(a, k /__mc_div->* 2, ::__mc_sites[13]) = 4;
    for (uint k = 0; k < m; ++k) ::metalcpu_kernel::store(a, k, ::__mc_sites[14]) = 5;
    for (uint k = 0; k <= i; ++k) ::metalcpu_kernel::store(a, k, ::__mc_sites[15]) = 6;
    ::metalcpu_kernel::checked_ptr< float, 1> p = a;
    for (uint k = 0; k < i; ++k) ::metalcpu_kernel::store(p, k, ::__mc_sites[16]) = 7;
}
#endif
#if METALCPU_SELECTS_KERNEL(0x9d0140cfd4a70596ull)
#line 53 "validation_loop_ranges.metal"
inline void captures(::metalcpu_kernel::checked_ptr< float, 1> a, uint i              , [[maybe_unused]] const ::mc_group* __mc_group) {
    uint n = i;
    auto shrink = [&]() { n = n /__mc_div->* 2;
#line 55 "validation_loop_ranges.metal"
                                     };
    for (uint k = 0; k < n; ++k) { ::metalcpu_kernel::store(a, k, ::__mc_sites[17]) = 1;
#line 56 "validation_loop_ranges.metal"
                                             shrink(); }
}
#endif
#line 1 "<metalcpu generated>"
// "naive"
#if METALCPU_SELECTS_KERNEL(0x8c1892ffddf4c476ull)
namespace {
using __mc_0_fn = decltype(&::naive);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "naive", 9u, 39u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_loop_ranges.metal", "naive", 9u, 76u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_loop_ranges.metal", "naive", 10u, 33u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3, ::mc_site{"validation_loop_ranges.metal", "naive", 10u, 66u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::naive(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
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
    {"A", "device const float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 9, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"B", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 9, 76, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"C", "device float*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 10, 33, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"s", "constant Sizes&", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 10, 66, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 3, ::__mc_0_members_3},
    {"gid", "uint2", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 11, 25, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
}
#endif

// "prefix"
#if METALCPU_SELECTS_KERNEL(0xba8821b572531e29ull)
namespace {
using __mc_1_fn = decltype(&::prefix);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "prefix", 22u, 38u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1, ::mc_site{"validation_loop_ranges.metal", "prefix", 22u, 68u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2, ::mc_site{"validation_loop_ranges.metal", "prefix", 23u, 35u});
    if (::metalcpu_kernel::rows_inside(__g, __a1)) {
        ::metalcpu_kernel::for_each_thread_in_rows(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
            ::prefix(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g, true);
        });
        return;
    }
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::prefix(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "prefix", 22u, 38u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>(__g, 1, ::mc_site{"validation_loop_ranges.metal", "prefix", 22u, 68u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>(__g, 2, ::mc_site{"validation_loop_ranges.metal", "prefix", 23u, 35u});
    ::prefix(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"in", "device const int*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 22, 38, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"out", "device int*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 22, 68, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
    {"n", "constant uint&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 23, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 2>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 23, 57, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 3>>, 0, nullptr},
};
}
#endif

// "unhoisted"
#if METALCPU_SELECTS_KERNEL(0xf708417b3d59b3c8ull)
namespace {
using __mc_2_fn = decltype(&::unhoisted);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_2_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 38u, 37u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 38u, 73u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>(__g, 2, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 39u, 36u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::unhoisted(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_2_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 38u, 37u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>(__g, 1, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 38u, 73u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>(__g, 2, ::mc_site{"validation_loop_ranges.metal", "unhoisted", 39u, 36u});
    ::unhoisted(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_2_params[] = {
    {"a", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 38, 37, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 0, nullptr},
    {"idx", "device const uint*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 38, 73, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 0, nullptr},
    {"m", "device uint&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 39, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 2>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, 39, 58, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 3>>, 0, nullptr},
};
}
#endif

// "captures"
#if METALCPU_SELECTS_KERNEL(0x9d0140cfd4a70596ull)
namespace {
using __mc_3_fn = decltype(&::captures);
__attribute__((flatten)) METALCPU_NARROW_VECTORS void __mc_3_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "captures", 53u, 36u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::captures(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_3_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0, ::mc_site{"validation_loop_ranges.metal", "captures", 53u, 36u});
    ::captures(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_3_params[] = {
    {"a", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 53, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 53, 58, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
};
}
#endif

#if METALCPU_SELECTS_KERNEL(0x8c1892ffddf4c476ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.naive") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xba8821b572531e29ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.prefix") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xf708417b3d59b3c8ull)
__attribute__((used, visibility("hidden"))) char __mc_2_name __asm__("metalcpu.kernel.unhoisted") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x9d0140cfd4a70596ull)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.captures") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x8c1892ffddf4c476ull)
    {"naive", "validation_loop_ranges.metal", 9, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 0, nullptr, "naive", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xba8821b572531e29ull)
    {"prefix", "validation_loop_ranges.metal", 22, 13, 0u | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 0, nullptr, "prefix", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xf708417b3d59b3c8ull)
    {"unhoisted", "validation_loop_ranges.metal", 38, 13, 0u | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 4, ::__mc_2_params, METALCPU_KERNEL_CODE(&::__mc_2_run_group), METALCPU_KERNEL_CODE(&::__mc_2_run_thread), 0, nullptr, "unhoisted", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x9d0140cfd4a70596ull)
    {"captures", "validation_loop_ranges.metal", 53, 13, 0u | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_NARROW_VECTORS, 0, 2, ::__mc_3_params, METALCPU_KERNEL_CODE(&::__mc_3_run_group), METALCPU_KERNEL_CODE(&::__mc_3_run_thread), 0, nullptr, "captures", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_loop_ranges.metal", nullptr, 0)
//@columns "validation_loop_ranges.metal" 9 56-61=32 61-65=37 66-67=39 67-68=54 69-106=56 106-111=69 111-115=74 116-117=76 117-118=91
//@columns "validation_loop_ranges.metal" 10 51-56=26 56-60=31 61-62=33 62-63=48 64-69=50 70-75=59 75-76=64 77-78=66
//@columns "validation_loop_ranges.metal" 11 56-104=56 105-1780=58
//@columns "validation_loop_ranges.metal" 12 74-75=51
//@columns "validation_loop_ranges.metal" 13 22-81=21
//@columns "validation_loop_ranges.metal" 14 41-76=40
//@columns "validation_loop_ranges.metal" 15 16-41=16 41-43=17 43-46=18 46-47=21 47-48=22 49-50=24 51-52=26 52-53=27 53-58=28 59-60=34 61-62=36 62-80=37 81-82=39 83-108=41 108-110=42 110-111=43 112-113=45 114-115=47 115-116=48 116-120=49 121-122=54 123-126=56 126-127=59 127-128=60 128-146=61 146-206=62
//@columns "validation_loop_ranges.metal" 17 8-11=7 11-12=10 12-13=11 48-49=31 50-53=33 53-113=36
//@columns "validation_loop_ranges.metal" 22 57-60=33 60-64=36 65-67=38 67-68=54 69-100=56 101-104=63 104-108=66 109-112=68 112-113=85
//@columns "validation_loop_ranges.metal" 23 86-171=86 172-173=88
//@columns "validation_loop_ranges.metal" 27 13-56=13 56-58=15 58-62=16 63-64=21 65-66=23 66-84=24 85-86=26 87-88=28 88-89=29 90-95=31 95-96=36
//@columns "validation_loop_ranges.metal" 28 47-90=47 90-92=49 92-93=50 94-95=52 96-100=54 100-118=58 118-121=59
//@columns "validation_loop_ranges.metal" 30 9-54=9 54-56=12 56-57=13 58-59=15 60-61=17 62-63=19 64-65=21 65-83=22 84-85=24 86-91=26 91-92=31
//@columns "validation_loop_ranges.metal" 31 6-8=5
//@columns "validation_loop_ranges.metal" 32 5-41=5 41-43=8 43-44=9 44-80=10 81-82=12 83-88=14 88-89=19
//@columns "validation_loop_ranges.metal" 38 55-60=30 60-64=35 65-66=37 66-67=52 68-105=54 105-109=67 109-113=71 114-117=73 117-118=90
//@columns "validation_loop_ranges.metal" 39 87-135=87 136-137=89
//@columns "validation_loop_ranges.metal" 41 36-46=36 51-69=51
//@columns "validation_loop_ranges.metal" 42 36-46=36
//@columns "validation_loop_ranges.metal" 43 34-60=34 60-62=35 62-63=36 64-65=38 66-67=40 67-86=41 87-88=43 89-90=45 90-91=46
//@columns "validation_loop_ranges.metal" 44 34-60=34 60-62=35 62-106=36 106-108=39 108-109=40 109-128=41 128-147=42 148-149=44 150-151=46 151-154=47
//@columns "validation_loop_ranges.metal" 45 34-60=34 60-62=35 62-63=36 64-76=38 77-78=40 78-97=41 98-99=43 100-101=45 101-102=46
//@columns "validation_loop_ranges.metal" 46 34-60=34 60-62=35 62-63=36 63-82=37 83-84=39 85-86=41 86-87=42
//@columns "validation_loop_ranges.metal" 47 35-61=35 61-63=36 63-64=37 64-83=38 84-85=40 86-87=42 87-88=43
//@columns "validation_loop_ranges.metal" 48 37-42=12 42-46=17 47-48=19 49-50=21 51-52=23 52-53=24
//@columns "validation_loop_ranges.metal" 49 34-60=34 60-62=35 62-63=36 63-82=37 83-84=39 85-86=41 86-87=42
//@columns "validation_loop_ranges.metal" 53 54-59=29 59-63=34 64-65=36 65-66=51 67-71=53 72-73=58 87-135=87 136-137=89
//@columns "validation_loop_ranges.metal" 56 36-46=36
