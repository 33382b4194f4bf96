#define METALCPU_VALIDATION 1
#include <metalcpu/kernel_prelude.h>
static constexpr ::mc_site __mc_sites[] = {
    {"validation_string_literals.metal", "first", 19u, 57u},
    {"validation_string_literals.metal", "literals", 25u, 12u},
    {"validation_string_literals.metal", "literals", 25u, 34u},
    {"validation_string_literals.metal", "literals", 25u, 54u},
    {"validation_string_literals.metal", "literals", 25u, 72u},
    {"validation_string_literals.metal", "literals", 25u, 89u},
    {"validation_string_literals.metal", "literals", 26u, 19u},
    {"validation_string_literals.metal", "literals", 26u, 19u},
    {"validation_string_literals.metal", "literals", 26u, 40u},
    {"validation_string_literals.metal", "literals", 26u, 57u},
    {"validation_string_literals.metal", "literals", 26u, 57u},
    {"validation_string_literals.metal", "literals", 26u, 78u},
    {"validation_string_literals.metal", "literals", 26u, 90u},
    {"validation_string_literals.metal", "literals", 27u, 26u},
};
struct __mc_member_0 { template <class E> constexpr decltype(auto) operator()(E&& e) const { return (e.tag); } };
constexpr struct { char before; char text[sizeof("zero")]; char end; } __mc_string_0 = {0, "zero", 0};
constexpr struct { char before; char text[sizeof("one")]; char end; } __mc_string_1 = {0, "one", 0};
constexpr struct { char before; char text[sizeof("named")]; char end; } __mc_string_2 = {0, "named", 0};
constexpr struct { char before; char text[sizeof("one" "two")]; char end; } __mc_string_3 = {0, "one" "two", 0};
constexpr struct { char before; char text[sizeof("abc")]; char end; } __mc_string_4 = {0, "abc", 0};
constexpr struct { char before; char text[sizeof("literals")]; char end; } __mc_string_5 = {0, "literals", 0};
#line 5 "validation_string_literals.metal"
using namespace metal; constexpr

::metalcpu_kernel::checked_ptr<const char, 2> const kNames[] = {
#line 7 "validation_string_literals.metal"
                                          ::__mc_string_0.text, ::__mc_string_1.text}
#line 7 "validation_string_literals.metal"
                                                        ; static_assert(__has_trivial_destructor(__typeof__(kNames)), "program-scope variable 'kNames' must be trivially destructible (no kernel code may run when a library unloads)"); constexpr
const    char kWord[] = "word"; static_assert(__has_trivial_destructor(__typeof__(kWord)), "program-scope variable 'kWord' must be trivially destructible (no kernel code may run when a library unloads)"); constexpr
const    char kWords[2][4] = {"ab", "cd"}; static_assert(__has_trivial_destructor(__typeof__(kWords)), "program-scope variable 'kWords' must be trivially destructible (no kernel code may run when a library unloads)");
struct Entry { char tag[4]; int value; }; constexpr
const    Entry kEntries[] = {{"ef", 1}}; static_assert(__has_trivial_destructor(__typeof__(kEntries)), "program-scope variable 'kEntries' must be trivially destructible (no kernel code may run when a library unloads)");
static_assert(sizeof(kWord) == 5, "five bytes");
struct Named {
    ::metalcpu_kernel::checked_ptr<const char, 2> name;
    constexpr Named(::metalcpu_kernel::checked_ptr<const char, 2> n) : name(n) {
#line 15 "validation_string_literals.metal"
                                                                }
}; constinit
const    Named kNamed(::__mc_string_2.text); static_assert(__has_trivial_destructor(__typeof__(kNamed)), "program-scope variable 'kNamed' must be trivially destructible (no kernel code may run when a library unloads)");

static uint first(::metalcpu_kernel::checked_ptr<const char, 2> s) {
#line 19 "validation_string_literals.metal"
                                            return uint(::metalcpu_kernel::load(s, 0, ::__mc_sites[0]));
#line 19 "validation_string_literals.metal"
                                                               }

inline                                  void literals(::metalcpu_kernel::checked_ptr< uint, 1> out, uint i              , [[maybe_unused]] const ::mc_group* __mc_group, const bool __mc_rows_inside = false) {
    ::metalcpu_kernel::checked_ptr<const char, 2> text = ::__mc_string_0.text;
    ::metalcpu_kernel::checked_ptr<const char, 2> joined = ::__mc_string_3.text;
    char local[] = "xy";
    ::metalcpu_kernel::store_in_rows(out, i, ::__mc_sites[1], __mc_rows_inside) = first(::__mc_string_4.text) + uint(::metalcpu_kernel::load(text, i %__mc_div->* 5, ::__mc_sites[2])) + uint(::metalcpu_kernel::load(joined, 0, ::__mc_sites[3])) + uint(::metalcpu_kernel::load(local, 0, ::__mc_sites[4])) + uint(::metalcpu_kernel::load(::__mc_string_5.text, 0, ::__mc_sites[5])) +
             uint(::metalcpu_kernel::load(::metalcpu_kernel::load(kNames, 1, ::__mc_sites[6]), 0, ::__mc_sites[7])) + uint(::metalcpu_kernel::load(kWord, 0, ::__mc_sites[8])) + uint(::metalcpu_kernel::load(::metalcpu_kernel::load(kWords, 1, ::__mc_sites[9]), 0, ::__mc_sites[10])) + uint(::metalcpu_kernel::load(::metalcpu_kernel::load_member_elements(kEntries, 0, ::__mc_member_0{}
#line 26 "validation_string_literals.metal"
                                                                                         , ::__mc_sites[11]), 0, ::__mc_sites[12])) +
             uint(::metalcpu_kernel::load(kNamed.name, 0, ::__mc_sites[13]));
}
#line 1 "<metalcpu generated>"
// "literal_kernel"
#if METALCPU_SELECTS_KERNEL(0xbb2bb6436aacfa04ull)
namespace {
using __mc_0_fn = decltype(&::literals);
__attribute__((flatten)) void __mc_0_run_group(const ::mc_group* __g) {
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_string_literals.metal", "literal_kernel", 21u, 68u});
    if (::metalcpu_kernel::rows_inside(__g, __a0)) {
        ::metalcpu_kernel::for_each_thread_in_rows(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
            ::literals(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g, true);
        });
        return;
    }
    ::metalcpu_kernel::for_each_thread(__g, [&](const ::metalcpu_kernel::thread_ids& __t) __attribute__((always_inline)) {
        ::literals(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
    });
}
void __mc_0_run_thread(const ::mc_group* __g, mc_u32 __i) {
    const ::metalcpu_kernel::thread_ids __t = ::metalcpu_kernel::thread_ids_of(__g, __i);
    auto&& __a0 = ::metalcpu_kernel::checked_buffer_argument<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>(__g, 0, ::mc_site{"validation_string_literals.metal", "literal_kernel", 21u, 68u});
    ::literals(__a0, ::metalcpu_kernel::builtin<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>, MC_BUILTIN_THREAD_POSITION_IN_GRID>(__g, __t), __g);
}
const ::mc_param __mc_0_params[] = {
    {"out", "device uint*", MC_PARAM_BUFFER, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, MC_BUILTIN_NONE, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 21, 68, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 0>>, 0, nullptr},
    {"i", "uint", MC_PARAM_BUILTIN, 0, MC_ADDRESS_SPACE_NONE, MC_ACCESS_READ_ONLY, MC_BUILTIN_THREAD_POSITION_IN_GRID, 0, ::metalcpu_kernel::pointee_size<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, ::metalcpu_kernel::pointee_align<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 21, 92, 0, 0, 0, 0, 0, nullptr, ::metalcpu_kernel::pointee_data_type<::metalcpu_kernel::parameter_t<__mc_0_fn, 1>>, 0, nullptr},
};
}
#endif

const ::mc_constant_data __mc_constants[] = {
    {&::kNames, sizeof(::kNames), "kNames"},
    {&::kWord, sizeof(::kWord), "kWord"},
    {&::kWords, sizeof(::kWords), "kWords"},
    {&::kEntries, sizeof(::kEntries), "kEntries"},
    {&::kNamed, sizeof(::kNamed), "kNamed"},
    {&::__mc_string_0.text, sizeof(::__mc_string_0.text), "\"zero\""},
    {&::__mc_string_1.text, sizeof(::__mc_string_1.text), "\"one\""},
    {&::__mc_string_2.text, sizeof(::__mc_string_2.text), "\"named\""},
    {&::__mc_string_3.text, sizeof(::__mc_string_3.text), "\"onetwo\""},
    {&::__mc_string_4.text, sizeof(::__mc_string_4.text), "\"abc\""},
    {&::__mc_string_5.text, sizeof(::__mc_string_5.text), "\"literals\""},
};
#if METALCPU_SELECTS_KERNEL(0xbb2bb6436aacfa04ull)
__attribute__((used, visibility("hidden"))) char __mc_0_name __asm__("metalcpu.kernel.literal_kernel") = 0;
#endif
const ::mc_kernel __mc_kernels[] = {
#if METALCPU_SELECTS_KERNEL(0xbb2bb6436aacfa04ull)
    {"literal_kernel", "validation_string_literals.metal", 21, 46, 0u | MC_KERNEL_VECTORISED_THREADS, 0, 2, ::__mc_0_params, METALCPU_KERNEL_CODE(&::__mc_0_run_group), METALCPU_KERNEL_CODE(&::__mc_0_run_thread), 0, nullptr, "literals", 0, "", nullptr},
#endif
    {},
};
METALCPU_REGISTER_MODULE(__mc_kernels, sizeof(__mc_kernels) / sizeof(__mc_kernels[0]) - 1, "validation_string_literals.metal", __mc_constants, 11)
//@columns "validation_string_literals.metal" 5 23-33=22
//@columns "validation_string_literals.metal" 7 38-42=16 42-43=20 58-243=57
//@columns "validation_string_literals.metal" 8 32-215=31
//@columns "validation_string_literals.metal" 9 43-218=42
//@columns "validation_string_literals.metal" 10 42-52=41
//@columns "validation_string_literals.metal" 11 41-220=40
//@columns "validation_string_literals.metal" 14 42-46=20 46-50=24 51-55=26 55-56=30
//@columns "validation_string_literals.metal" 15 58-62=36 62-65=40
//@columns "validation_string_literals.metal" 16 3-13=2
//@columns "validation_string_literals.metal" 17 43-44=30 44-220=31
//@columns "validation_string_literals.metal" 19 57-64=57
//@columns "validation_string_literals.metal" 21 87-91=62 91-95=66 96-99=68 99-100=85 101-105=87 106-107=92 121-206=121 207-208=123
//@columns "validation_string_literals.metal" 22 42-46=20 46-50=24 51-55=26 56-57=31 58-78=33 78-79=39
//@columns "validation_string_literals.metal" 23 42-46=20 46-50=24 51-57=26 58-59=33 60-80=35 80-81=46
//@columns "validation_string_literals.metal" 25 5-41=5 41-43=8 43-44=9 44-80=10 81-82=12 83-88=14 88-89=19 89-109=20 109-110=25 111-112=27 113-117=29 117-118=33 118-146=34 146-148=38 148-149=39 150-162=41 163-164=43 164-182=44 182-183=45 184-185=47 186-190=49 190-191=53 191-221=54 221-223=60 223-224=61 224-242=62 242-243=63 244-245=65 246-250=67 250-251=71 251-280=72 280-282=77 282-283=78 283-301=79 301-302=80 303-304=82 305-309=84 309-310=88 310-354=89 354-356=97 356-357=98 357-375=99 375-376=100 377-378=102
//@columns "validation_string_literals.metal" 26 19-73=19 73-75=25 75-76=26 76-90=27 90-109=90 109-111=93 111-112=94 112-131=95 131-132=96 133-134=98
//@columns "validation_string_literals.metal" 27 19-49=19 49-50=25 50-54=26 54-56=30 56-57=31 57-76=32 76-77=33 77-78=34
