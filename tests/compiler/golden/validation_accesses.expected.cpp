#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_accesses.metal", "weight", 7u, 54u},
    {"validation_accesses.metal", "accesses", 18u, 23u},
    {"validation_accesses.metal", "accesses", 19u, 27u},
    {"validation_accesses.metal", "accesses", 19u, 49u},
    {"validation_accesses.metal", "accesses", 20u, 5u},
    {"validation_accesses.metal", "accesses", 20u, 24u},
    {"validation_accesses.metal", "accesses", 20u, 26u},
    {"validation_accesses.metal", "accesses", 21u, 15u},
    {"validation_accesses.metal", "accesses", 21u, 17u},
    {"validation_accesses.metal", "accesses", 21u, 17u},
    {"validation_accesses.metal", "accesses", 23u, 13u},
    {"validation_accesses.metal", "accesses", 24u, 8u},
    {"validation_accesses.metal", "accesses", 24u, 10u},
    {"validation_accesses.metal", "accesses", 26u, 5u},
    {"validation_accesses.metal", "accesses", 27u, 5u},
    {"validation_accesses.metal", "accesses", 28u, 39u},
    {"validation_accesses.metal", "accesses", 29u, 14u},
    {"validation_accesses.metal", "accesses", 29u, 27u},
    {"validation_accesses.metal", "accesses", 29u, 27u},
    {"validation_accesses.metal", "accesses", 31u, 23u},
    {"validation_accesses.metal", "accesses", 31u, 31u},
    {"validation_accesses.metal", "accesses", 31u, 43u},
    {"validation_accesses.metal", "first", 36u, 42u},
    {"validation_accesses.metal", "deduces", 39u, 13u},
    {"validation_accesses.metal", "rows", 49u, 22u},
    {"validation_accesses.metal", "rows", 49u, 22u},
    {"validation_accesses.metal", "rows", 49u, 24u},
    {"validation_accesses.metal", "rows", 49u, 53u},
    {"validation_accesses.metal", "samples", 55u, 15u},
    {"validation_accesses.metal", "samples", 55u, 15u},
    {"validation_accesses.metal", "samples", 55u, 28u},
    {"validation_accesses.metal", "samples", 55u, 37u},
    {"validation_accesses.metal", "samples", 55u, 37u},
    {"validation_accesses.metal", "samples", 56u, 12u},
};
struct __mc_member_0 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.mass); } };
struct __mc_member_1 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.position); } };
struct __mc_member_2 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.v); } };
struct __mc_member_3 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.w); } };
#line 3 "validation_accesses.metal"
using namespace metal;

struct Particle { float2 position; float mass; };
#if METALCPU_SELECTS_KERNEL(0x465e3159bbc7d31bull)
#line 7 "validation_accesses.metal"
float weight(      ::metalcpu_kernel::checked_ptr<const float, 1> w, uint i) {
#line 7 "validation_accesses.metal"
                                              return ::metalcpu_kernel::load(w, i, ::__mc_sites[0]) * 2.0f;
#line 7 "validation_accesses.metal"
                                                                  }
#endif
#if METALCPU_SELECTS_KERNEL(0x465e3159bbc7d31bull)
#line 9 "validation_accesses.metal"
inline void accesses(::metalcpu_kernel::checked_ptr< Particle, 1> particles,
                           ::metalcpu_kernel::checked_ptr<const float, 1> weights,
                     const    float4x4& transform              ,
                     ::metalcpu_kernel::checked_ptr< atomic_uint, 1> counter,
                     ::metalcpu_kernel::checked_ptr< float, 3> shared,
                     uint i                            ,
                     uint l                                , [[maybe_unused]] const ::mc_group* __mc_group) {
    auto&& tile = ::metalcpu_kernel::threadgroup_object<float[4][8], 0x1ull>(__mc_group);
    float local[4] = {1, 2, 3, 4};
    ::metalcpu_kernel::update_member(particles, i, ::__mc_member_0{}
#line 18 "validation_accesses.metal"
                 , ::__mc_sites[1]) += weight(weights, i);
    ::metalcpu_kernel::store_member(particles, i, ::__mc_member_1{}
#line 19 "validation_accesses.metal"
                 , ::__mc_sites[2]) = (transform * float4(::metalcpu_kernel::argument_member(particles, i, ::__mc_member_1{}
#line 19 "validation_accesses.metal"
                                                             , ::__mc_sites[3]), 0, 1)).xy;
    ::metalcpu_kernel::store(::metalcpu_kernel::load(tile, l %__mc_div->* 4, ::__mc_sites[4]), l %__mc_div->* 8, ::__mc_sites[5]) = ::metalcpu_kernel::load(local, i & 3, ::__mc_sites[6]);
    ::metalcpu_kernel::store(shared, l, ::__mc_sites[7]) = ::metalcpu_kernel::load(::metalcpu_kernel::load(tile, 0, ::__mc_sites[8]), l %__mc_div->* 8, ::__mc_sites[9]);
    ::metalcpu_kernel::checked_ptr< Particle, 1> p = particles + i;
    ::metalcpu_kernel::store_member(p, 0, ::__mc_member_0{}
#line 23 "validation_accesses.metal"
       , ::__mc_sites[10]) = 1.0f;
    ::metalcpu_kernel::store(p, 0, ::__mc_sites[11]) = ::metalcpu_kernel::load(particles, 0, ::__mc_sites[12]);
    ::metalcpu_kernel::checked_ptr< float, 1> m =::metalcpu_kernel::member_address(p, 0, ::__mc_member_0{}
#line 25 "validation_accesses.metal"
                          )   ;
    ++::metalcpu_kernel::update(m, 0, ::__mc_sites[13]);
    atomic_fetch_add_explicit(::__mc_sites[14], ::metalcpu_kernel::address_of(counter, 0), 1u, memory_order_relaxed);
    auto twice = [&](uint k) { return ::metalcpu_kernel::load(weights, k, ::__mc_sites[15]) * 2;
#line 28 "validation_accesses.metal"
                                                      };
    ::metalcpu_kernel::store(local, 0, ::__mc_sites[16]) = twice(i) + ::metalcpu_kernel::load(::metalcpu_kernel::load(transform, 1, ::__mc_sites[17]), 2, ::__mc_sites[18]);
          ::metalcpu_kernel::checked_ptr<const uchar, 1> bytes = ::metalcpu_kernel::pointer_cast< ::metalcpu_kernel::checked_ptr<const uchar, 1>>(weights);
    ::metalcpu_kernel::store_member(particles, i, ::__mc_member_0{}
#line 31 "validation_accesses.metal"
                 , ::__mc_sites[19]) = float(::metalcpu_kernel::load(bytes, 3, ::__mc_sites[20])) + ::metalcpu_kernel::load(local, 0, ::__mc_sites[21]);
}
#endif
#if METALCPU_SELECTS_KERNEL(0x97489a1fe39d5252ull)
#line 35 "validation_accesses.metal"
template <typename T>
T first(      ::metalcpu_kernel::checked_ptr<const T, 1> values) { static constexpr ::mc_site __mc_local_sites[] = {{::__mc_sites[22].file, __builtin_FUNCTION(), ::__mc_sites[22].line, ::__mc_sites[22].column}, };
#line 36 "validation_accesses.metal"
                                  return ::metalcpu_kernel::load(values, 0, __mc_local_sites[0]);
#line 36 "validation_accesses.metal"
                                                    }
#endif
#if METALCPU_SELECTS_KERNEL(0x97489a1fe39d5252ull)
#line 38 "validation_accesses.metal"
inline void deduces(::metalcpu_kernel::checked_ptr< float, 1> data, uint i              , [[maybe_unused]] const ::mc_group* __mc_group) {
    ::metalcpu_kernel::store(data, i, ::__mc_sites[23]) = first(data) + first(data + 1);
}
#endif
#line 43 "validation_accesses.metal"
struct Row { float v[4]; }; constexpr
const    float kTable[4] = {1, 2, 3, 4}; static_assert(__has_trivial_destructor(__typeof__(kTable)), "program-scope variable 'kTable' must be trivially destructible (no kernel code may run when a library unloads)");
namespace tables { constexpr const int kOffsets[2] = {
#line 45 "validation_accesses.metal"
                                               0, 1}; static_assert(__has_trivial_destructor(__typeof__(kOffsets)), "program-scope variable 'kOffsets' must be trivially destructible (no kernel code may run when a library unloads)");
#line 45 "validation_accesses.metal"
                                                      }
#if METALCPU_SELECTS_KERNEL(0xa3a7061ff10a8138ull)
#line 47 "validation_accesses.metal"
inline void rows(::metalcpu_kernel::checked_ptr< Row, 1> rows, uint i              , [[maybe_unused]] const ::mc_group* __mc_group) {
    ::metalcpu_kernel::checked_ptr<const float, 2> table = kTable;
    ::metalcpu_kernel::store(::metalcpu_kernel::store_member_elements(rows, i, ::__mc_member_2{}
#line 49 "validation_accesses.metal"
            , ::__mc_sites[24]), i & 3, ::__mc_sites[25]) = ::metalcpu_kernel::load(table, i & 3, ::__mc_sites[26]) + float(::metalcpu_kernel::load(tables::kOffsets, i & 1, ::__mc_sites[27]));
}
#endif
#line 53 "validation_accesses.metal"
struct Sample { float w; float4 v; };
#if METALCPU_SELECTS_KERNEL(0xe3b1ca6a3b48dddcull)
#line 54 "validation_accesses.metal"
inline void samples(::metalcpu_kernel::checked_ptr< Sample, 1> s, uint i              , [[maybe_unused]] const ::mc_group* __mc_group) {
    ::metalcpu_kernel::store(::metalcpu_kernel::store_member_elements(s, i, ::__mc_member_2{}
#line 55 "validation_accesses.metal"
         , ::__mc_sites[28]), 1, ::__mc_sites[29]) = ::metalcpu_kernel::load_member((s + i), 0, ::__mc_member_3{}
#line 55 "validation_accesses.metal"
                           , ::__mc_sites[30]) + ::metalcpu_kernel::load(::metalcpu_kernel::load_member_elements(s, 0, ::__mc_member_2{}
#line 55 "validation_accesses.metal"
                                    , ::__mc_sites[31]), 2, ::__mc_sites[32]);
    ::metalcpu_kernel::update_member(s, 0, ::__mc_member_3{}
#line 56 "validation_accesses.metal"
         , ::__mc_sites[33]) += 1.0f;
}
#endif
#line 1 "<metalcpu generated>"
// "accesses"
#if METALCPU_SELECTS_KERNEL(0x465e3159bbc7d31bull)
namespace {
using __mc_0_fn = decltype(&::accesses);
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "accesses", 9u, 39u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_accesses.metal", "accesses", 10u, 42u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_accesses.metal", "accesses", 11u, 41u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3, ::mc_site{"validation_accesses.metal", "accesses", 12u, 42u});
    auto&& __a4 = ::metalcpu_kernel::checked_threadgroup_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>(__g, 0, ::mc_site{"validation_accesses.metal", "accesses", 13u, 41u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::accesses(__a0, __a1, __a2, __a3, __a4, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "accesses", 9u, 39u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_accesses.metal", "accesses", 10u, 42u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_accesses.metal", "accesses", 11u, 41u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3, ::mc_site{"validation_accesses.metal", "accesses", 12u, 42u});
    auto&& __a4 = ::metalcpu_kernel::checked_threadgroup_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>(__g, 0, ::mc_site{"validation_accesses.metal", "accesses", 13u, 41u});
    ::accesses(__a0, __a1, __a2, __a3, __a4, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_0[] = {
    {"position", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, position), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::position)>::stride},
    {"mass", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, mass), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::mass)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_0_params[] = {
    {"particles", "device Particle*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 9, 39, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 2, ::__mc_0_members_0},
    {"weights", "const device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 10, 42, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"transform", "constant float4x4&", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 1, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 11, 41, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 0, nullptr},
    {"counter", "device atomic_uint*", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 12, 42, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"shared", "threadgroup float*", MC_PARAM_THREADGROUP, 0, MC_ADDRESS_SPACE_THREADGROUP, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 13, 41, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 14, 27, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
    {"l", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_INDEX_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 15, 27, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 6>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

// "deduces"
#if METALCPU_SELECTS_KERNEL(0x97489a1fe39d5252ull)
namespace {
using __mc_1_fn = decltype(&::deduces);
__attribute__((flatten)) void __mc_1_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "deduces", 38u, 35u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::deduces(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_1_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "deduces", 38u, 35u});
    ::deduces(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_1_params[] = {
    {"data", "device float*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 38, 35, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 0>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 38, 60, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_1_fn, 1>>, 0, nullptr},
};
}
#endif

// "rows"
#if METALCPU_SELECTS_KERNEL(0xa3a7061ff10a8138ull)
namespace {
using __mc_2_fn = decltype(&::rows);
__attribute__((flatten)) void __mc_2_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "rows", 47u, 30u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::rows(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_2_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "rows", 47u, 30u});
    ::rows(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_2_members_0[] = {
    {"v", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, v), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>::v)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_2_params[] = {
    {"rows", "device Row*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 47, 30, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 0>>, 1, ::__mc_2_members_0},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 47, 55, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_2_fn, 1>>, 0, nullptr},
};
}
#endif

// "samples"
#if METALCPU_SELECTS_KERNEL(0xe3b1ca6a3b48dddcull)
namespace {
using __mc_3_fn = decltype(&::samples);
__attribute__((flatten)) void __mc_3_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "samples", 54u, 36u});
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::samples(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_3_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>(__g, 0, ::mc_site{"validation_accesses.metal", "samples", 54u, 36u});
    ::samples(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_3_members_0[] = {
    {"w", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, w), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::w)>::stride},
    {"v", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, v), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>::v)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_3_params[] = {
    {"s", "device Sample*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 54, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 0>>, 2, ::__mc_3_members_0},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 54, 58, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_3_fn, 1>>, 0, nullptr},
};
}
#endif

const ::mc_constant_data __mc_constants[] = {
    {&::kTable, sizeof(::kTable), "kTable"},
    {&::tables::kOffsets, sizeof(::tables::kOffsets), "kOffsets"},
};
#if METALCPU_SELECTS_KERNEL(0x465e3159bbc7d31bull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.accesses") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0x97489a1fe39d5252ull)
__attribute__((used, visibility("hidden"))) char __mc_1_name __asm__("metalcpu.kernel.deduces") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xa3a7061ff10a8138ull)
__attribute__((used, visibility("hidden"))) char __mc_2_name __asm__("metalcpu.kernel.rows") = 0;
#endif
#if METALCPU_SELECTS_KERNEL(0xe3b1ca6a3b48dddcull)
__attribute__((used, visibility("hidden"))) char __mc_3_name __asm__("metalcpu.kernel.samples") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0x465e3159bbc7d31bull)
    {"accesses", "validation_accesses.metal", 9, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 7, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 1, ::__mc_0_sites, "accesses", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0x97489a1fe39d5252ull)
    {"deduces", "validation_accesses.metal", 38, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_1_params, METALCPU_KERNEL_CODE(&::__mc_1_run_group), METALCPU_KERNEL_CODE(&::__mc_1_run_thread), 0, nullptr, "deduces", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xa3a7061ff10a8138ull)
    {"rows", "validation_accesses.metal", 47, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_2_params, METALCPU_KERNEL_CODE(&::__mc_2_run_group), METALCPU_KERNEL_CODE(&::__mc_2_run_thread), 0, nullptr, "rows", 0, "", nullptr},
#endif
#if METALCPU_SELECTS_KERNEL(0xe3b1ca6a3b48dddcull)
    {"samples", "validation_accesses.metal", 54, 13, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_3_params, METALCPU_KERNEL_CODE(&::__mc_3_run_group), METALCPU_KERNEL_CODE(&::__mc_3_run_thread), 0, nullptr, "samples", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_accesses.metal", __mc_constants, 2)
//@columns "validation_accesses.metal" 7 54-67=54
//@columns "validation_accesses.metal" 9 54-62=29 62-66=37 67-76=39 76-77=62
//@columns "validation_accesses.metal" 10 65-70=35 70-74=40 75-82=42 82-83=63
//@columns "validation_accesses.metal" 12 54-65=29 65-69=40 70-77=42 77-78=63
//@columns "validation_accesses.metal" 13 54-59=34 59-63=39 64-70=41 70-71=66
//@columns "validation_accesses.metal" 15 60-108=60 109-110=62
//@columns "validation_accesses.metal" 18 5-18=5 18-36=18 37-39=23 40-46=26 46-47=32 47-54=33 54-55=40 56-57=42 57-58=43 58-59=44
//@columns "validation_accesses.metal" 19 5-18=5 18-36=18 37-38=27 39-40=29 40-49=30 50-51=40 52-58=42 58-59=48 59-62=49 62-80=62 80-81=70 82-83=72 83-84=73 85-86=75 86-87=76 87-88=77 88-89=78 89-91=79 91-92=81
//@columns "validation_accesses.metal" 20 5-58=5 58-60=9 60-61=10 62-74=12 75-76=14 76-94=15 94-96=16 96-97=17 98-110=19 111-112=21 112-130=22 131-132=24 133-162=26 162-164=31 164-165=32 166-167=34 168-169=36 169-187=37 187-188=38
//@columns "validation_accesses.metal" 21 5-36=5 36-38=11 38-39=12 39-57=13 58-59=15 60-112=17 112-114=21 114-115=22 115-133=23 133-135=24 135-136=25 137-149=27 150-151=29 151-169=30 169-170=31
//@columns "validation_accesses.metal" 22 37-45=12 45-49=20 50-51=22 52-53=24 54-63=26 64-65=36 66-67=38 67-68=39
//@columns "validation_accesses.metal" 23 5-8=5 8-27=8 28-29=13 30-34=15 34-35=19
//@columns "validation_accesses.metal" 24 30-53=6 54-55=8 56-89=10 89-91=19 91-92=20 92-111=21 111-112=22
//@columns "validation_accesses.metal" 25 27-28=27
//@columns "validation_accesses.metal" 26 7-34=7 34-36=8 36-37=9 37-56=10 56-57=11
//@columns "validation_accesses.metal" 27 31-49=30 49-86=32 86-88=39 88-89=40 89-90=41 90-91=42 92-94=44 94-95=46 96-116=48 116-117=68 117-118=69
//@columns "validation_accesses.metal" 28 39-55=39
//@columns "validation_accesses.metal" 29 5-35=5 35-37=10 37-38=11 38-57=12 58-59=14 60-65=16 65-66=21 66-67=22 67-68=23 69-70=25 71-128=27 128-130=36 130-131=37 131-150=38 150-152=39 152-153=40 153-172=41 172-173=42
//@columns "validation_accesses.metal" 30 48-53=18 53-57=23 58-63=25 64-65=31 66-97=33 97-98=49 99-136=56 136-141=63 141-145=68 145-146=69 146-147=70 147-154=71 154-155=78 155-156=79
//@columns "validation_accesses.metal" 31 5-18=5 18-37=18 38-39=23 40-45=25 45-46=30 46-75=31 75-77=36 77-78=37 78-97=38 97-98=39 99-100=41 101-130=43 130-132=48 132-133=49 133-152=50 152-153=51
//@columns "validation_accesses.metal" 36 42-53=42
//@columns "validation_accesses.metal" 38 53-58=28 58-62=33 63-67=35 67-68=53 69-73=55 74-75=60 89-137=89 138-139=91
//@columns "validation_accesses.metal" 39 5-34=5 34-36=9 36-37=10 37-56=11 57-58=13 59-64=15 64-65=20 65-69=21 69-70=25 71-72=27 73-78=29 78-79=34 79-83=35 84-85=40 86-87=42 87-88=43 88-89=44
//@columns "validation_accesses.metal" 43 28-38=27
//@columns "validation_accesses.metal" 44 41-216=40
//@columns "validation_accesses.metal" 45 20-35=20 36-39=29 40-48=33 54-55=53
//@columns "validation_accesses.metal" 47 50-53=25 53-57=28 58-62=30 62-63=48 64-68=50 69-70=55 84-132=84 133-134=86
//@columns "validation_accesses.metal" 48 42-47=14 47-51=19 52-57=21 58-59=27 60-66=29 66-67=35
//@columns "validation_accesses.metal" 49 5-13=5 13-32=13 32-34=14 34-35=15 36-37=17 38-39=19 39-58=20 59-60=22 61-90=24 90-92=29 92-93=30 94-95=32 96-97=34 97-116=35 117-118=37 119-124=39 124-125=44 125-155=45 155-157=51 157-165=53 165-167=61 167-168=62 169-170=64 171-172=66 172-191=67 191-192=68 192-193=69
//@columns "validation_accesses.metal" 54 53-59=28 59-63=34 64-65=36 65-66=51 67-71=53 72-73=58 87-135=87 136-137=89
//@columns "validation_accesses.metal" 55 5-10=5 10-28=10 28-37=28 37-56=37 56-58=38 58-59=39 59-78=40 78-79=41
//@columns "validation_accesses.metal" 56 5-10=5 10-29=10 30-32=12 33-37=15 37-38=19
