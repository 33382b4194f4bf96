#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_pointer_members.metal", "pointer_members", 21u, 21u},
    {"validation_pointer_members.metal", "pointer_members", 21u, 6u},
    {"validation_pointer_members.metal", "pointer_members", 21u, 24u},
    {"validation_pointer_members.metal", "pointer_members", 21u, 37u},
    {"validation_pointer_members.metal", "pointer_members", 22u, 23u},
    {"validation_pointer_members.metal", "pointer_members", 22u, 23u},
    {"validation_pointer_members.metal", "pointer_members", 22u, 25u},
    {"validation_pointer_members.metal", "pointer_members", 25u, 16u},
    {"validation_pointer_members.metal", "pointer_members", 26u, 31u},
    {"validation_pointer_members.metal", "pointer_members", 26u, 39u},
    {"validation_pointer_members.metal", "pointer_members", 27u, 8u},
    {"validation_pointer_members.metal", "pointer_members", 27u, 10u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 12u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 14u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 48u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 59u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 67u},
    {"validation_pointer_members.metal", "pointer_members", 29u, 58u},
};
struct __mc_member_0 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.target); } };
struct __mc_member_1 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.weight); } };
struct __mc_member_2 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.sa_0); } };
#line 7 "validation_pointer_members.metal"
using namespace metal;

struct Item { ::metalcpu_kernel::checked_ptr< float, 1> target;
#line 9 "validation_pointer_members.metal"
                                    uint weight; };
struct Context {                       ::metalcpu_kernel::checked_ptr< array<float, int(64)>, 3> sa_0;
#line 10 "validation_pointer_members.metal"
                                                          };
struct Block {
    float d;
    float rest[3];
    float twice() const { return d * 2.0f; }
};

inline void pointer_members(::metalcpu_kernel::checked_ptr<const Item, 2> list, ::metalcpu_kernel::checked_ptr<const float, 1> x,
                            ::metalcpu_kernel::checked_ptr< Block, 1> blocks, ::metalcpu_kernel::checked_ptr< float, 1> out,
                            uint lid                                   , uint i                            , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b4 = decltype(lid); using __mc_b5 = decltype(i); using __mc_t0 = Context; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>();
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 i = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 21 "validation_pointer_members.metal"
    ::metalcpu_kernel::update(::metalcpu_kernel::load_member(list, i, ::__mc_member_0{}
#line 21 "validation_pointer_members.metal"
             , ::__mc_sites[1]), 0, ::__mc_sites[0]) += ::metalcpu_kernel::load_in_rows(x, i, ::__mc_sites[2], __mc_rows_inside) * float(::metalcpu_kernel::load_member(list, i, ::__mc_member_1{}
#line 21 "validation_pointer_members.metal"
                                            , ::__mc_sites[3]));
    ::metalcpu_kernel::store(::metalcpu_kernel::store_member_elements(list, i, ::__mc_member_0{}
#line 22 "validation_pointer_members.metal"
            , ::__mc_sites[4]), 1, ::__mc_sites[5]) = ::metalcpu_kernel::load_in_rows(x, i, ::__mc_sites[6], __mc_rows_inside); } });
    auto&& sa_1 = ::metalcpu_kernel::threadgroup_object<array<float, int(64)>[1], 0x1ull>(__mc_group);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 lid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_b5 i = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 24 "validation_pointer_members.metal"
    Context &c = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot]);
    ::metalcpu_kernel::store_member((&c), 0, ::__mc_member_2{}
#line 25 "validation_pointer_members.metal"
          , ::__mc_sites[7]) =::metalcpu_kernel::address_of(sa_1, 0);
    ::metalcpu_kernel::checked_ptr< float, 3> p =::metalcpu_kernel::address_of(((::metalcpu_kernel::elements_of((::metalcpu_kernel::load_member((&c), 0, ::__mc_member_2{}
#line 26 "validation_pointer_members.metal"
                                      , ::__mc_sites[9])), ::__mc_sites[8]))), int(0)) + lid;
    ::metalcpu_kernel::store(p, 0, ::__mc_sites[10]) = ::metalcpu_kernel::load_in_rows(x, i, ::__mc_sites[11], __mc_rows_inside); (void)c; } });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b5 i = ::metalcpu_kernel::builtin<__mc_b5, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_b4 lid = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0& c = __mc_v0[__mc_t.slot]; { ::metalcpu_kernel::store_in_rows(
#line 29 "validation_pointer_members.metal"
    out, i, ::__mc_sites[12], __mc_rows_inside) = ::metalcpu_kernel::member_call(blocks, i, ::__mc_sites[13])->twice() + ::metalcpu_kernel::member_call((blocks + i), 0, ::__mc_sites[14])->twice() + ::metalcpu_kernel::load((::metalcpu_kernel::elements_of((::metalcpu_kernel::load_member((&c), 0, ::__mc_member_2{}
#line 29 "validation_pointer_members.metal"
                                                                  , ::__mc_sites[16])), ::__mc_sites[15])), 63 - lid, ::__mc_sites[17]); } });
}
#line 1 "<metalcpu generated>"
// "pointer_members"
#if METALCPU_SELECTS_KERNEL(0xce996a811fb1751aull)
namespace {
using __mc_0_fn = decltype(&::pointer_members);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_pointer_members.metal", "pointer_members", 17u, 44u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_pointer_members.metal", "pointer_members", 17u, 84u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_pointer_members.metal", "pointer_members", 18u, 43u});
    auto&& __a3 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>(__g, 3, ::mc_site{"validation_pointer_members.metal", "pointer_members", 18u, 79u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::pointer_members(__a0, __a1, __a2, __a3, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_0[] = {
    {"target", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, target), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::target)>::stride},
    {"weight", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, weight), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>::weight)>::stride},
};
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_2[] = {
    {"d", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, d), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::d)>::stride},
    {"rest", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, rest), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::rest)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_0_params[] = {
    {"list", "constant Item*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 17, 44, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 2, ::__mc_0_members_0},
    {"x", "device const float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 17, 84, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"blocks", "device Block*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 18, 43, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 2, ::__mc_0_members_2},
    {"out", "device float*", MC_PARAM_BUFFER, 3, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 18, 79, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 19, 34, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 19, 79, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 5>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xce996a811fb1751aull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.pointer_members") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xce996a811fb1751aull)
    {"pointer_members", "validation_pointer_members.metal", 17, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 6, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "pointer_members", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_pointer_members.metal", nullptr, 0)
//@columns "validation_pointer_members.metal" 17 66-70=38 70-74=42 75-79=44 79-80=62 81-118=64 118-123=77 123-127=82 128-129=84 129-130=99
//@columns "validation_pointer_members.metal" 18 61-66=36 66-70=41 71-77=43 77-78=63 79-110=65 111-116=72 116-120=77 121-124=79 124-125=96
//@columns "validation_pointer_members.metal" 19 108-193=108
//@columns "validation_pointer_members.metal" 20 2-193=1
//@columns "validation_pointer_members.metal" 21 14-45=14 45-63=45 63-64=51 64-65=52
//@columns "validation_pointer_members.metal" 22 5-13=5 13-31=13 31-33=19 33-34=20 34-52=21 53-54=23 55-88=25 88-90=26 90-91=27 91-127=28 127-134=29
//@columns "validation_pointer_members.metal" 24 13-15=13 15-67=14
//@columns "validation_pointer_members.metal" 25 5-11=5 11-29=11 30-31=16 31-69=19 69-70=23
//@columns "validation_pointer_members.metal" 26 37-39=17 39-57=39 57-76=43 76-77=44 77-78=45 78-80=46 80-83=47 83-84=50 84-85=51 85-86=52 86-87=53 88-89=55 90-93=57 93-94=60
//@columns "validation_pointer_members.metal" 27 30-53=6 54-55=8 56-89=10 89-91=11 91-92=12 92-129=13 129-145=14
//@columns "validation_pointer_members.metal" 28 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "validation_pointer_members.metal" 29 10-11=9 11-48=10 49-50=12 51-67=14 67-86=67 86-106=71 106-107=72 107-109=73 109-111=74 112-113=77 114-117=79 117-136=82 136-143=83
