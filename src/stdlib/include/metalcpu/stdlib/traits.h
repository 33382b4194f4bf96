// <metal_type_traits>: the C++ type traits MSL offers in namespace metal, plus MSL's own
// (is_vector, vec_elements, make_scalar, remove_addrspace). Built on compiler builtins only.
// The vector traits are completed in vec.h, once metal::vec exists.
#pragma once

#include <metalcpu/stdlib/scalar.h>

namespace metal {

template <class T, T V> struct integral_constant {
    static constexpr T value = V;
    using value_type = T;
    using type = integral_constant;
    constexpr operator value_type() const { return value; }
    constexpr value_type operator()() const { return value; }
};
template <bool B> using bool_constant = integral_constant<bool, B>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

template <class T> struct type_identity { using type = T; };
template <class T> using type_identity_t = typename type_identity<T>::type;
// Names MSL's <metal_type_traits> does not have stay out of metal::, because kernels define
// them there themselves (MLX's steel/utils/type_traits.h: is_empty, is_empty_v, void_t,
// make_void, is_static, pointer_element): ours would be redefinitions.
namespace traits_detail {
template <class...> using void_t = void;
} // namespace traits_detail

template <class A, class B> struct is_same : bool_constant<__is_same(A, B)> {};
template <class A, class B> inline constexpr bool is_same_v = __is_same(A, B);

template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;

template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;

// --- cv, reference, pointer and extent manipulation -------------------------------------
template <class T> struct remove_const { using type = T; };
template <class T> struct remove_const<const T> { using type = T; };
template <class T> struct remove_volatile { using type = T; };
template <class T> struct remove_volatile<volatile T> { using type = T; };
template <class T> struct remove_cv { using type = typename remove_const<typename remove_volatile<T>::type>::type; };
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T&> { using type = T; };
template <class T> struct remove_reference<T&&> { using type = T; };
template <class T> struct remove_cvref { using type = typename remove_cv<typename remove_reference<T>::type>::type; };
template <class T> struct remove_pointer { using type = T; };
template <class T> struct remove_pointer<T*> { using type = T; };
template <class T> struct remove_pointer<T* const> { using type = T; };
template <class T> struct remove_pointer<T* volatile> { using type = T; };
template <class T> struct remove_pointer<T* const volatile> { using type = T; };
template <class T> struct remove_extent { using type = T; };
template <class T> struct remove_extent<T[]> { using type = T; };
template <class T, size_t N> struct remove_extent<T[N]> { using type = T; };
// Address spaces are gone by the time the host compiler sees a kernel: identity.
template <class T> struct remove_addrspace { using type = T; };
template <class T> struct add_const { using type = const T; };
template <class T> struct add_volatile { using type = volatile T; };
template <class T> struct add_cv { using type = const volatile T; };
template <class T> struct add_pointer { using type = typename remove_reference<T>::type*; };
template <class T> struct add_lvalue_reference { using type = T&; };
template <> struct add_lvalue_reference<void> { using type = void; };
template <class T> struct add_rvalue_reference { using type = T&&; };
template <> struct add_rvalue_reference<void> { using type = void; };

template <class T> using remove_const_t = typename remove_const<T>::type;
template <class T> using remove_volatile_t = typename remove_volatile<T>::type;
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> using remove_cvref_t = typename remove_cvref<T>::type;
template <class T> using remove_pointer_t = typename remove_pointer<T>::type;
template <class T> using remove_extent_t = typename remove_extent<T>::type;
template <class T> using remove_addrspace_t = typename remove_addrspace<T>::type;
template <class T> using add_const_t = typename add_const<T>::type;
template <class T> using add_volatile_t = typename add_volatile<T>::type;
template <class T> using add_cv_t = typename add_cv<T>::type;
template <class T> using add_pointer_t = typename add_pointer<T>::type;
template <class T> using add_lvalue_reference_t = typename add_lvalue_reference<T>::type;
template <class T> using add_rvalue_reference_t = typename add_rvalue_reference<T>::type;

template <class T> add_rvalue_reference_t<T> declval() noexcept;

// --- primary and composite categories ------------------------------------------------------
namespace traits_detail {
template <class T> struct is_integral : false_type {};
template <> struct is_integral<bool> : true_type {};
template <> struct is_integral<char> : true_type {};
template <> struct is_integral<signed char> : true_type {};
template <> struct is_integral<unsigned char> : true_type {};
template <> struct is_integral<char8_t> : true_type {};
template <> struct is_integral<char16_t> : true_type {};
template <> struct is_integral<char32_t> : true_type {};
template <> struct is_integral<wchar_t> : true_type {};
template <> struct is_integral<short> : true_type {};
template <> struct is_integral<unsigned short> : true_type {};
template <> struct is_integral<int> : true_type {};
template <> struct is_integral<unsigned int> : true_type {};
template <> struct is_integral<long> : true_type {};
template <> struct is_integral<unsigned long> : true_type {};
template <> struct is_integral<long long> : true_type {};
template <> struct is_integral<unsigned long long> : true_type {};
template <class T> struct is_floating_point : false_type {};
template <> struct is_floating_point<half> : true_type {};
template <> struct is_floating_point<bfloat> : true_type {};
template <> struct is_floating_point<float> : true_type {};
template <> struct is_floating_point<double> : true_type {};
template <> struct is_floating_point<long double> : true_type {};
template <class T> struct is_pointer : false_type {};
template <class T> struct is_pointer<T*> : true_type {};
} // namespace traits_detail

template <class T> struct make_scalar;
template <class T> struct is_vector;
// MSL's is_integral and is_floating_point (and so is_arithmetic, is_signed, is_unsigned) hold
// for vectors of such elements too: PyTorch's exp_functor takes float2 through
// enable_if_t<is_floating_point_v<T>>, and its c10::metal spells is_scalar_floating_point_v
// as is_floating_point_v<T> && is_scalar_v<T>. The library's own code asks
// metalcpu_stdlib::is_*_scalar (below), which a vector never is.
namespace traits_detail {
template <class T> using element_of_t = remove_cv_t<typename make_scalar<remove_cv_t<T>>::type>;
} // namespace traits_detail
template <class T> struct is_void : is_same<remove_cv_t<T>, void> {};
template <class T> struct is_integral : traits_detail::is_integral<traits_detail::element_of_t<T>> {};
template <class T> struct is_floating_point : traits_detail::is_floating_point<traits_detail::element_of_t<T>> {};
template <class T> struct is_arithmetic : bool_constant<is_integral<T>::value || is_floating_point<T>::value> {};
template <class T> struct is_pointer : traits_detail::is_pointer<remove_cv_t<T>> {};
template <class T> struct is_lvalue_reference : false_type {};
template <class T> struct is_lvalue_reference<T&> : true_type {};
template <class T> struct is_rvalue_reference : false_type {};
template <class T> struct is_rvalue_reference<T&&> : true_type {};
template <class T>
struct is_reference : bool_constant<is_lvalue_reference<T>::value || is_rvalue_reference<T>::value> {};
template <class T> struct is_const : false_type {};
template <class T> struct is_const<const T> : true_type {};
template <class T> struct is_volatile : false_type {};
template <class T> struct is_volatile<volatile T> : true_type {};
template <class T> struct is_array : false_type {};
template <class T> struct is_array<T[]> : true_type {};
template <class T, size_t N> struct is_array<T[N]> : true_type {};
template <class T> struct is_enum : bool_constant<__is_enum(T)> {};
template <class T> struct is_union : bool_constant<__is_union(T)> {};
template <class T> struct is_class : bool_constant<__is_class(T)> {};
template <class T> struct is_function : bool_constant<!is_const<const T>::value && !is_reference<T>::value> {};
namespace traits_detail {
template <class T, bool = is_arithmetic<T>::value> struct is_signed : bool_constant<(T(-1) < T(0))> {};
template <class T> struct is_signed<T, false> : false_type {};
} // namespace traits_detail
template <class T> struct is_signed : traits_detail::is_signed<traits_detail::element_of_t<T>> {};
template <class T> struct is_unsigned : bool_constant<is_arithmetic<T>::value && !is_signed<T>::value> {};
// MSL: a scalar is one of the arithmetic types (bool, the integers, half, bfloat, float).
template <class T> struct is_scalar : bool_constant<is_arithmetic<T>::value && !is_vector<remove_cv_t<T>>::value> {};

template <class T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> {};
template <class T> struct is_trivial : bool_constant<__is_trivial(T)> {};
template <class T> struct is_standard_layout : bool_constant<__is_standard_layout(T)> {};
template <class B, class D> struct is_base_of : bool_constant<__is_base_of(B, D)> {};
template <class T, class... A> struct is_constructible : bool_constant<__is_constructible(T, A...)> {};
template <class T, class U> struct is_assignable : bool_constant<__is_assignable(T, U)> {};
template <class T> struct is_default_constructible : is_constructible<T> {};

namespace traits_detail {
template <class T> void accept(T) noexcept;
template <class F, class T, class = void>
struct is_convertible : bool_constant<is_void<F>::value && is_void<T>::value> {};
template <class F, class T>
struct is_convertible<F, T, traits_detail::void_t<decltype(accept<T>(declval<F>()))>> : true_type {};
} // namespace traits_detail
template <class F, class T> struct is_convertible : traits_detail::is_convertible<F, T> {};

template <class T> inline constexpr bool is_void_v = is_void<T>::value;
template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;
template <class T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <class T> inline constexpr bool is_arithmetic_v = is_arithmetic<T>::value;
template <class T> inline constexpr bool is_pointer_v = is_pointer<T>::value;
template <class T> inline constexpr bool is_lvalue_reference_v = is_lvalue_reference<T>::value;
template <class T> inline constexpr bool is_rvalue_reference_v = is_rvalue_reference<T>::value;
template <class T> inline constexpr bool is_reference_v = is_reference<T>::value;
template <class T> inline constexpr bool is_const_v = is_const<T>::value;
template <class T> inline constexpr bool is_volatile_v = is_volatile<T>::value;
template <class T> inline constexpr bool is_array_v = is_array<T>::value;
template <class T> inline constexpr bool is_enum_v = is_enum<T>::value;
template <class T> inline constexpr bool is_union_v = is_union<T>::value;
template <class T> inline constexpr bool is_class_v = is_class<T>::value;
template <class T> inline constexpr bool is_function_v = is_function<T>::value;
template <class T> inline constexpr bool is_signed_v = is_signed<T>::value;
template <class T> inline constexpr bool is_unsigned_v = is_unsigned<T>::value;
template <class T> inline constexpr bool is_scalar_v = is_scalar<T>::value;
template <class T> inline constexpr bool is_trivially_copyable_v = is_trivially_copyable<T>::value;
template <class T> inline constexpr bool is_trivial_v = is_trivial<T>::value;
template <class T> inline constexpr bool is_standard_layout_v = is_standard_layout<T>::value;
template <class B, class D> inline constexpr bool is_base_of_v = is_base_of<B, D>::value;
template <class T, class... A> inline constexpr bool is_constructible_v = is_constructible<T, A...>::value;
template <class T, class U> inline constexpr bool is_assignable_v = is_assignable<T, U>::value;
template <class T> inline constexpr bool is_default_constructible_v = is_default_constructible<T>::value;
template <class F, class T> inline constexpr bool is_convertible_v = is_convertible<F, T>::value;

template <class... B> struct conjunction : true_type {};
template <class B, class... R> struct conjunction<B, R...> : conditional_t<bool(B::value), conjunction<R...>, B> {};
template <class... B> struct disjunction : false_type {};
template <class B, class... R> struct disjunction<B, R...> : conditional_t<bool(B::value), B, disjunction<R...>> {};
template <class B> struct negation : bool_constant<!bool(B::value)> {};
template <class... B> inline constexpr bool conjunction_v = conjunction<B...>::value;
template <class... B> inline constexpr bool disjunction_v = disjunction<B...>::value;
template <class B> inline constexpr bool negation_v = negation<B>::value;
// Apple's internal spellings (used under `#pragma METAL internals : enable`), which MLX's
// atomic.h calls.
template <class... B> using _conjunction = conjunction<B...>;
template <class... B> using _disjunction = disjunction<B...>;
template <class B> using _negation = negation<B>;

// --- decay, signedness, common type --------------------------------------------------------
template <class T> struct decay {
private:
    using U = remove_reference_t<T>;
public:
    using type = conditional_t<is_array<U>::value, remove_extent_t<U>*,
                               conditional_t<is_function<U>::value, U*, remove_cv_t<U>>>;
};
template <class T> using decay_t = typename decay<T>::type;

namespace traits_detail {
template <class T> struct make_unsigned;
template <> struct make_unsigned<char> { using type = unsigned char; };
template <> struct make_unsigned<signed char> { using type = unsigned char; };
template <> struct make_unsigned<unsigned char> { using type = unsigned char; };
template <> struct make_unsigned<short> { using type = unsigned short; };
template <> struct make_unsigned<unsigned short> { using type = unsigned short; };
template <> struct make_unsigned<int> { using type = unsigned int; };
template <> struct make_unsigned<unsigned int> { using type = unsigned int; };
template <> struct make_unsigned<long> { using type = unsigned long; };
template <> struct make_unsigned<unsigned long> { using type = unsigned long; };
template <> struct make_unsigned<long long> { using type = unsigned long long; };
template <> struct make_unsigned<unsigned long long> { using type = unsigned long long; };
template <class T> struct make_signed;
template <> struct make_signed<char> { using type = signed char; };
template <> struct make_signed<signed char> { using type = signed char; };
template <> struct make_signed<unsigned char> { using type = signed char; };
template <> struct make_signed<short> { using type = short; };
template <> struct make_signed<unsigned short> { using type = short; };
template <> struct make_signed<int> { using type = int; };
template <> struct make_signed<unsigned int> { using type = int; };
template <> struct make_signed<long> { using type = long; };
template <> struct make_signed<unsigned long> { using type = long; };
template <> struct make_signed<long long> { using type = long long; };
template <> struct make_signed<unsigned long long> { using type = long long; };
} // namespace traits_detail
// Also defined for integer vectors (make_unsigned_t<int4> is uint4), completed in vec.h.
template <class T> struct make_unsigned : traits_detail::make_unsigned<T> {};
template <class T> struct make_signed : traits_detail::make_signed<T> {};
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;
template <class T> using make_signed_t = typename make_signed<T>::type;

template <class... T> struct common_type {};
template <class T> struct common_type<T> : common_type<T, T> {};
template <class A, class B> struct common_type<A, B> {
    using type = decay_t<decltype(true ? declval<decay_t<A>>() : declval<decay_t<B>>())>;
};
template <class A, class B, class C, class... R>
struct common_type<A, B, C, R...> : common_type<typename common_type<A, B>::type, C, R...> {};
template <class... T> using common_type_t = typename common_type<T...>::type;

// --- vectors (MSL): specialised in vec.h ---------------------------------------------------
template <class T> struct is_vector : false_type {};
// Number of components of a vector type; 0 for anything else.
template <class T> struct vec_elements : integral_constant<int, 0> {};
// The component type of a vector type, or the type itself.
template <class T> struct make_scalar { using type = T; };
template <class T> inline constexpr bool is_vector_v = is_vector<T>::value;
template <class T> using make_scalar_t = typename make_scalar<T>::type;

} // namespace metal

namespace metalcpu_stdlib {
// The categories of a scalar type, false for a vector: what the library's own overloads and
// branches ask (metal::is_integral and is_floating_point answer for a vector's elements).
template <class T>
inline constexpr bool is_integral_scalar = metal::traits_detail::is_integral<metal::remove_cv_t<T>>::value;
template <class T>
inline constexpr bool is_floating_scalar = metal::traits_detail::is_floating_point<metal::remove_cv_t<T>>::value;
template <class T> inline constexpr bool is_arithmetic_scalar = is_integral_scalar<T> || is_floating_scalar<T>;
} // namespace metalcpu_stdlib
