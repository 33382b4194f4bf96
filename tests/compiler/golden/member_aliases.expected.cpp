#include <metalcpu/kernel_prelude.h>
#line 8 "member_aliases.metal"
using namespace metal;

namespace lib {
namespace tiles {

template <bool TWICE>
struct Repeat {};

template <typename T, uint N>
struct Tile {
    static constexpr uint mask = N - 1; static_assert(__has_trivial_destructor(__typeof__(mask)), "program-scope variable 'mask' must be trivially destructible (no kernel code may run when a library unloads)");
                T* data;
    uint lid;
    Tile(            T* d, uint l) : data(d), lid(l) {}
    void rotate(       T& v) {
        typedef T value_t;
        value_t mine = v;
        data[lid & mask] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        v = data[(lid + 1) & mask] + mine;
    }
};

template <typename T, uint N>
struct Rotator {
    static constexpr uint size = N * 2; static_assert(__has_trivial_destructor(__typeof__(size)), "program-scope variable 'size' must be trivially destructible (no kernel code may run when a library unloads)");
    using tile_t = Tile<T, size>;
    template <bool TWICE>
    static void run(       tile_t& tile,        T& v, Repeat<TWICE> repeat = {}) {
        (void)repeat;
        tile.rotate(v);
        if (TWICE) {
            tile.rotate(v);
        }
    }
};

}
}

using namespace lib::tiles;

inline void rotate_twice(       float* out              , uint lid                                , [[maybe_unused]] const ::mc_group* __mc_group) { ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_t0 = decltype(lid); auto* const __mc_v0 = __mc_wi.slots<__mc_t0>(); using __mc_t1 = typename Rotator<float, 32>::tile_t; auto* const __mc_v1 = __mc_wi.slots<__mc_t1>(); using __mc_t2 = float; auto* const __mc_v2 = __mc_wi.slots<__mc_t2>(); using __mc_t3 = float; auto* const __mc_v3 = __mc_wi.slots<__mc_t3>(); using __mc_t4 = float; auto* const __mc_v4 = __mc_wi.slots<__mc_t4>(); ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], ::metalcpu_kernel::builtin<decltype(lid), MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__mc_group, __mc_t)); });


    auto& data = ::metalcpu_kernel::threadgroup_variable<float[64], 0x1ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 lid = __mc_v0[__mc_t.slot]; { 
#line 54 "member_aliases.metal"
           typename Rotator<float, 32>::tile_t tile(data, lid);
    float v = out[lid]; ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], tile); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], lid); });
    {
#line 36 "member_aliases.metal"
                                                      ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; { 
#line 36 "member_aliases.metal"
                                                      Repeat<(true )> repeat_i1
#line 56 "member_aliases.metal"
    = (                    Repeat<true>{}
#line 56 "member_aliases.metal"
    ) ;
#line 37 "member_aliases.metal"
        (void)repeat_i1; } });
        {
#line 24 "member_aliases.metal"
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 v = __mc_v2[__mc_t.slot]; __mc_t1 tile = __mc_v1[__mc_t.slot]; { 
#line 24 "member_aliases.metal"
        float   mine_i2 = v;
        tile.data[tile.lid & Rotator<float, 32>::tile_t::mask] = mine_i2; ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], mine_i2); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], tile); });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 v = __mc_v2[__mc_t.slot]; __mc_t1 tile = __mc_v1[__mc_t.slot]; __mc_t3 mine_i2 = __mc_v3[__mc_t.slot]; { 
#line 27 "member_aliases.metal"
        v = tile.data[(tile.lid + 1) & Rotator<float, 32>::tile_t::mask] + mine_i2; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], tile); ::metalcpu_kernel::place(__mc_v3[__mc_t.slot], mine_i2); });
#line 38 "member_aliases.metal"
        }
        if ((true )) {
            {
#line 24 "member_aliases.metal"
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 v = __mc_v2[__mc_t.slot]; __mc_t1 tile = __mc_v1[__mc_t.slot]; { 
#line 24 "member_aliases.metal"
        float   mine_i4 = v;
        tile.data[tile.lid & Rotator<float, 32>::tile_t::mask] = mine_i4; ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], mine_i4); } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], tile); });
        ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
        ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t2 v = __mc_v2[__mc_t.slot]; __mc_t1 tile = __mc_v1[__mc_t.slot]; __mc_t4 mine_i4 = __mc_v4[__mc_t.slot]; { 
#line 27 "member_aliases.metal"
        v = tile.data[(tile.lid + 1) & Rotator<float, 32>::tile_t::mask] + mine_i4; } ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); ::metalcpu_kernel::place(__mc_v1[__mc_t.slot], tile); ::metalcpu_kernel::place(__mc_v4[__mc_t.slot], mine_i4); });
#line 40 "member_aliases.metal"
            }
        }
#line 56 "member_aliases.metal"
    }
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_t0 lid = __mc_v0[__mc_t.slot]; __mc_t2 v = __mc_v2[__mc_t.slot]; { 
#line 57 "member_aliases.metal"
    out[lid] = v; } ::metalcpu_kernel::place(__mc_v0[__mc_t.slot], lid); ::metalcpu_kernel::place(__mc_v2[__mc_t.slot], v); });
}
#line 1 "<metalcpu generated>"
// "rotate_twice"
#if METALCPU_SELECTS_KERNEL(0xfa3dbec163d75c29ull)
namespace {
using __mc_0_fn = decltype(&::rotate_twice);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0);
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::rotate_twice(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"out", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 50, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 50, 64, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xfa3dbec163d75c29ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.rotate_twice") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xfa3dbec163d75c29ull)
    {"rotate_twice", "member_aliases.metal", 50, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 2, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "rotate_twice", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "member_aliases.metal", nullptr, 0)
//@columns "member_aliases.metal" 18 40-211=39
//@columns "member_aliases.metal" 24 25-26=22 27-28=24 28-29=25
//@columns "member_aliases.metal" 25 13-18=9 18-19=13 19-27=14 28-29=18 30-44=20 45-62=20 62-63=24 64-65=26 66-73=28 73-242=32 13-18=9 18-19=13 19-27=14 28-29=18 30-44=20 45-62=20 62-63=24 64-65=26 66-73=28 73-242=32
//@columns "member_aliases.metal" 26 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56 46-47=28 47-56=29 56-58=38 58-73=40 73-74=55 74-75=56
//@columns "member_aliases.metal" 27 17-22=13 22-23=17 23-24=18 24-32=19 33-34=23 35-36=25 36-37=26 38-39=28 40-54=30 55-72=30 72-73=34 74-75=36 76-83=38 83-252=42
//@columns "member_aliases.metal" 33 40-211=39
//@columns "member_aliases.metal" 36 63-67=62 68-69=62 69-70=67 71-80=69
//@columns "member_aliases.metal" 37 24-31=21
//@columns "member_aliases.metal" 39 14-18=13 19-20=13 20-21=18 22-23=20
//@columns "member_aliases.metal" 50 99-147=99 148-894=101
//@columns "member_aliases.metal" 54 5-12=5 21-35=12 36-47=12 48-52=19 52-53=23 53-57=24 57-58=28 59-62=30 62-63=33 63-64=34
//@columns "member_aliases.metal" 55 24-188=23
//@columns "member_aliases.metal" 57 18-128=17
