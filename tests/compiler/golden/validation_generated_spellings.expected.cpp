#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_generated_spellings.metal", "generated", 21u, 16u},
    {"validation_generated_spellings.metal", "generated", 22u, 6u},
    {"validation_generated_spellings.metal", "generated", 22u, 13u},
    {"validation_generated_spellings.metal", "generated", 22u, 24u},
    {"validation_generated_spellings.metal", "generated", 22u, 26u},
    {"validation_generated_spellings.metal", "generated", 22u, 42u},
    {"validation_generated_spellings.metal", "generated", 24u, 12u},
    {"validation_generated_spellings.metal", "generated", 24u, 15u},
    {"validation_generated_spellings.metal", "generated", 24u, 22u},
    {"validation_generated_spellings.metal", "generated", 24u, 14u},
};
struct __mc_member_0 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.tile); } };
struct __mc_member_1 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.scale); } };
#line 7 "validation_generated_spellings.metal"
using namespace metal;

struct Params { uint scale; };
struct Context {                 ::metalcpu_kernel::checked_ptr< array<uint, 64>, 3> tile;
#line 10 "validation_generated_spellings.metal"
                                                    };



inline void generated(     ::metalcpu_kernel::checked_ptr< uint, 1> out, ::metalcpu_kernel::checked_ptr<const uint, 1> in,
                             ::metalcpu_kernel::checked_ptr<const Params, 2> params, uint lid           ,
                      uint i                            , [[maybe_unused]] const ::mc_group* __mc_group)
{ ::metalcpu_kernel::work_items<false> __mc_wi(__mc_group); using __mc_b3 = decltype(lid); using __mc_b4 = decltype(i); using __mc_t0 = Context; auto* const __mc_v0 = __mc_wi.slots<__mc_t0>();
    auto&& tile_1 = ::metalcpu_kernel::threadgroup_object<array<uint, 64>[1], 0x1ull>(__mc_group);
                    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_b4 i = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); { 
#line 19 "validation_generated_spellings.metal"
                    ::metalcpu_kernel::checked_ptr< array<uint, 64>, 3> t =::metalcpu_kernel::address_of(tile_1, 0);
    Context &c = ::metalcpu_kernel::emplace(__mc_v0[__mc_t.slot]);
    ::metalcpu_kernel::store_member((&c), 0, ::__mc_member_0{}
#line 21 "validation_generated_spellings.metal"
          , ::__mc_sites[0]) = t;
    ::metalcpu_kernel::store((::metalcpu_kernel::elements_of(::metalcpu_kernel::load_member((&c), 0, ::__mc_member_0{}
#line 22 "validation_generated_spellings.metal"
            , ::__mc_sites[2]), ::__mc_sites[1])), lid, ::__mc_sites[3]) = ::metalcpu_kernel::load(in, i, ::__mc_sites[4]) * ::metalcpu_kernel::load_member(params, 0, ::__mc_member_1{}
#line 22 "validation_generated_spellings.metal"
                                         , ::__mc_sites[5]); (void)c; } });
    ::metalcpu_kernel::work_items_barrier(mem_flags::mem_threadgroup);
    ::metalcpu_kernel::run_work_items(__mc_wi, [&](const ::metalcpu_kernel::thread_ids& __mc_t) __attribute__((always_inline)) { (void)__mc_t; __mc_b4 i = ::metalcpu_kernel::builtin<__mc_b4, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__mc_group, __mc_t); __mc_b3 lid = ::metalcpu_kernel::builtin<__mc_b3, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__mc_group, __mc_t); __mc_t0& c = __mc_v0[__mc_t.slot]; { ::metalcpu_kernel::store(
#line 24 "validation_generated_spellings.metal"
    out, i, ::__mc_sites[6]) = ::metalcpu_kernel::load((::metalcpu_kernel::elements_of(::metalcpu_kernel::load_member((&c), 0, ::__mc_member_0{}
#line 24 "validation_generated_spellings.metal"
                     , ::__mc_sites[8]), ::__mc_sites[7])), 63 - lid, ::__mc_sites[9]); } });
}
#line 1 "<metalcpu generated>"
static const char* const __mc_render_functions[] = {"vertex_main"};
#undef METALCPU_RENDER_FUNCTIONS
#define METALCPU_RENDER_FUNCTIONS 1, __mc_render_functions
// "generated"
#if METALCPU_SELECTS_KERNEL(0xe062a9743d7b3b62ull)
namespace {
using __mc_0_fn = decltype(&::generated);
__attribute__((flatten, optimize("O3"))) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_generated_spellings.metal", "generated", 14u, 36u});
    auto&& __a1 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>(__g, 1, ::mc_site{"validation_generated_spellings.metal", "generated", 14u, 74u});
    auto&& __a2 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>(__g, 2, ::mc_site{"validation_generated_spellings.metal", "generated", 15u, 40u});
    const ::metalcpu_kernel::thread_ids __t{0, 0, 0, 0};
    ::generated(__a0, __a1, __a2, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP>(__g, __t), ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
const ::mc_argument __mc_0_members_2[] = {
    {"scale", 0, ::metalcpu_kernel::argument_kind<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>, __builtin_offsetof(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, scale), sizeof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)), ::metalcpu_kernel::argument_elements<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>, alignof(decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)), ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::pointee_size, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::pointee_align, 0, nullptr, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::data_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::element_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::pointee_type, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::length, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::access, ::metalcpu_kernel::member_shape<decltype(::metalcpu_kernel::argument_struct_t<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>::scale)>::stride},
};
#pragma GCC diagnostic pop
const ::mc_param __mc_0_params[] = {
    {"out", "device uint*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 14, 36, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"in", "device uint const*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 14, 74, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
    {"params", "constant Params*", MC_PARAM_BUFFER, 2, MC_ADDRESS_SPACE_CONSTANT, MC_ACCESS_READ_ONLY, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 15, 40, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 2>>, 1, ::__mc_0_members_2},
    {"lid", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_THREADGROUP, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 15, 67, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 3>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 16, 28, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 4>>, 0, nullptr},
};
const mc_u64 __mc_0_sites[] = {0x1ull};
}
#endif

#if METALCPU_SELECTS_KERNEL(0xe062a9743d7b3b62ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.generated") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xe062a9743d7b3b62ull)
    {"generated", "validation_generated_spellings.metal", 14, 13, MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_VECTORISED_THREADS | MC_KERNEL_OPTIMISED_O3, 0, 5, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), nullptr, 1, ::__mc_0_sites, "generated", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_generated_spellings.metal", nullptr, 0)
//@columns "validation_generated_spellings.metal" 14 60-64=23 64-68=34 69-72=36 72-73=53 74-111=66 111-115=55 115-119=72 120-122=74 122-123=90
//@columns "validation_generated_spellings.metal" 15 67-73=23 73-77=38 78-84=40 84-85=60 86-90=62 91-94=67
//@columns "validation_generated_spellings.metal" 16 57-105=57
//@columns "validation_generated_spellings.metal" 17 2-193=1
//@columns "validation_generated_spellings.metal" 19 53-58=5 58-59=10 59-63=11 63-64=15 65-67=17 67-68=19 68-72=32 73-74=34 75-76=36 76-116=39 116-117=45
//@columns "validation_generated_spellings.metal" 20 13-15=13 15-67=14
//@columns "validation_generated_spellings.metal" 21 5-11=5 11-29=11 30-31=16 32-33=18 33-34=19
//@columns "validation_generated_spellings.metal" 22 5-13=5 13-42=13 42-60=42 60-76=47
//@columns "validation_generated_spellings.metal" 23 42-43=24 43-52=25 52-54=34 54-69=36 69-70=51 70-71=52
//@columns "validation_generated_spellings.metal" 24 10-11=9 11-22=10 22-58=22 58-59=26 59-61=27 61-63=28 64-65=31 66-69=33 69-87=36 87-94=37
