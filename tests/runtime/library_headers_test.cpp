// Headers of kernel libraries that define names of their own in namespace metal, or test the
// compiler's predefined macros, compile unchanged against metalcpu's <metal_stdlib> and give
// the values they give on Apple's: MLX's steel/utils/type_traits.h (is_empty, void_t,
// make_void, is_integral of integral_constant, is_static, pointer_element) and PyTorch's
// `#ifdef __METAL__` constants.
#include "metal_test.h"

#include <vector>

namespace metalcpu::testing {
namespace {

// Written as MLX writes it (not copied): definitions metalcpu's library must not clash with.
const char* const kMlxTypeTraits = R"(
#include <metal_stdlib>

namespace metal {
template <typename T> struct is_empty : metal::bool_constant<__is_empty(T)> {};
#ifdef __cpp_variable_templates
template <typename T> constexpr constant bool is_empty_v = is_empty<T>::value;
#endif
template <typename... Ts> struct make_void { typedef void type; };
template <typename... Ts> using void_t = typename make_void<Ts...>::type;
template <class T, T val> struct is_integral<integral_constant<T, val>> : true_type {};
template <int val> struct is_integral<integral_constant<decltype(val), val>> : true_type {};
template <class T> struct is_static : bool_constant<is_empty<remove_cv_t<T>>::value> {};
template <typename T> struct pointer_element {};
// One specialisation per address space, as MLX writes them: once the front end erases address
// spaces they are one specialisation four times, which it collapses (member_overloads.h).
template <typename T> struct pointer_element<thread T*> { using type = remove_cv_t<T>; };
template <typename T> struct pointer_element<device T*> { using type = remove_cv_t<T>; };
template <typename T> struct pointer_element<constant T*> { using type = remove_cv_t<T>; };
template <typename T> struct pointer_element<threadgroup T*> { using type = remove_cv_t<T>; };
template <typename T> using pointer_element_t = typename pointer_element<remove_cv_t<T>>::type;
} // namespace metal

#ifdef __METAL__
#define SHARED_CONSTEXPR constant constexpr
#else
#define SHARED_CONSTEXPR constexpr
#endif
SHARED_CONSTEXPR unsigned kMaxDims = 16;

using namespace metal;
struct Empty {};
template <class T, class = void> struct has_value_type : false_type {};
template <class T> struct has_value_type<T, void_t<typename T::value_type>> : true_type {};

kernel void traits(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    out[0] = is_empty_v<Empty> + 2 * is_empty<int>::value;
    out[1] = is_integral<integral_constant<int, 3>>::value + 2 * is_static<const Empty>::value;
    out[2] = has_value_type<float4>::value + 2 * has_value_type<float>::value;
    out[3] = is_same_v<pointer_element_t<device float*>, float> + 2 * is_same_v<pointer_element_t<threadgroup const int*>, int>
           + 4 * is_same_v<pointer_element_t<constant half*>, half> + 8 * is_same_v<pointer_element_t<thread uint*>, uint>;
    out[4] = int(kMaxDims);
}
)";

// Test that MLX's type_traits.h definitions compile next to ours and mean what they mean on
// Apple's compiler, and that __METAL__ is defined.
TEST_F(MetalTest, MlxTypeTraitsAndMetalMacro) {
    MTL::Library* library = compile(kMlxTypeTraits);
    ASSERT_NE(library, nullptr);
    const std::vector<int> values = runIntKernel(library, "traits", 5);
    library->release();
    ASSERT_EQ(values.size(), 5u);
    EXPECT_EQ(values[0], 1) << "is_empty";
    EXPECT_EQ(values[1], 3) << "is_integral of integral_constant, is_static";
    EXPECT_EQ(values[2], 1) << "void_t";
    EXPECT_EQ(values[3], 15) << "pointer_element of device, threadgroup, constant and thread pointers";
    EXPECT_EQ(values[4], 16) << "__METAL__ is defined";
}

// Written as MLX's logging.h writes its stand-in logger before Metal 3.2 (not copied): a type
// whose only constructor is qualified `constant`, to make program-scope `constant` objects.
const char* const kConstantConstructor = R"(
#include <metal_stdlib>
using namespace metal;
struct tagged {
    constexpr tagged(constant char* name, int value) constant : first(name[0]), value(value) {}
    char first;
    int value;
};
constant tagged tag("metal", 7);
kernel void constant_object(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    out[0] = tag.value;
    out[1] = tag.first;
}
)";

// Test that a constructor qualified `constant` compiles (C++ constructors take no qualifier) and
// makes the program-scope object.
TEST_F(MetalTest, ConstantQualifiedConstructor) {
    MTL::Library* library = compile(kConstantConstructor);
    ASSERT_NE(library, nullptr);
    const std::vector<int> values = runIntKernel(library, "constant_object", 2);
    library->release();
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0], 7);
    EXPECT_EQ(values[1], 'm');
}

// Written as MLX's bf16_math.h writes its bfloat overloads (not copied): Apple's __metal_*
// builtins with a math-mode argument, in metal::, metal::fast:: and metal::precise::.
const char* const kMlxBfloatMath = R"(
#include <metal_stdlib>
using namespace metal;
typedef bfloat bfloat16_t;
#define bfloat_math(itype, otype, ctype, mfast)                                                  \
    METAL_FUNC otype exp(itype x) { return static_cast<otype>(__metal_exp(static_cast<ctype>(x), mfast)); } \
    METAL_FUNC otype fmax(itype x, itype y) {                                                     \
        return static_cast<otype>(__metal_fmax(static_cast<ctype>(x), static_cast<ctype>(y), mfast)); \
    }                                                                                            \
    METAL_FUNC otype frexp(itype x, thread int& e) {                                              \
        return static_cast<otype>(__metal_frexp(static_cast<ctype>(x), &e));                     \
    }
namespace metal {
bfloat_math(bfloat16_t, bfloat16_t, float, __METAL_MAYBE_FAST_MATH__)
namespace fast { bfloat_math(bfloat16_t, bfloat16_t, float, __METAL_FAST_MATH__) }
namespace precise { bfloat_math(bfloat16_t, bfloat16_t, float, __METAL_PRECISE_MATH__) }
}
kernel void bf16_math(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    const bfloat16_t two = 2.0bf, nan = as_type<bfloat16_t>(ushort(0x7fc0));
    int e = 0;
    out[0] = int(float(metal::exp(two)) * 100.0f);   // e^2 = 7.389, rounded to bfloat 7.375
    out[1] = int(float(metal::precise::fmax(nan, two)));
    out[2] = int(float(metal::fast::frexp(bfloat16_t(12), e)) * 100.0f);
    out[3] = e;
}
)";

// Test that MLX's bfloat overloads over Apple's __metal_* builtins compile through the front
// end and compute what the library computes (precise fmax ignoring a NaN).
TEST_F(MetalTest, MlxBfloatMathOverBuiltins) {
    MTL::Library* library = compile(kMlxBfloatMath);
    ASSERT_NE(library, nullptr);
    const std::vector<int> values = runIntKernel(library, "bf16_math", 4);
    library->release();
    ASSERT_EQ(values.size(), 4u);
    EXPECT_EQ(values[0], 737) << "exp(2) rounded to bfloat";
    EXPECT_EQ(values[1], 2) << "precise fmax ignores the NaN";
    EXPECT_EQ(values[2], 75) << "frexp(12) = 0.75 * 2^4";
    EXPECT_EQ(values[3], 4);
}

// Written as MLX's bf16_math.h, complex.h and atomic.h write them (not copied): bfloat SIMD-group
// overloads over Apple's __metal_simd_* builtins (one asking __metal_get_simdgroup_size, one
// xoring a float's bits), a type
// constructible from anything convertible to float with its own operator< beside bfloat
// comparisons, and a trait built on Apple's internal _disjunction.
const char* const kMlxBfloatSimd = R"(
#include <metal_stdlib>
using namespace metal;
typedef bfloat bfloat16_t;
#define bfloat_simd(itype, ctype)                                                                \
    METAL_FUNC itype simd_sum(itype x) { return static_cast<itype>(__metal_simd_sum(static_cast<ctype>(x))); } \
    METAL_FUNC itype simd_xor(itype x) { return static_cast<itype>(__metal_simd_xor(static_cast<ctype>(x))); } \
    METAL_FUNC itype simd_shuffle_and_fill_down(itype data, itype filling, ushort delta) {        \
        return static_cast<itype>(__metal_simd_shuffle_and_fill_down(                            \
            static_cast<ctype>(data), static_cast<ctype>(filling), delta, __metal_get_simdgroup_size(ushort()))); \
    }
namespace metal { bfloat_simd(bfloat16_t, float) }

struct complex_like {
    float real;
    float imag;
    template <typename T, typename = typename enable_if<is_convertible<T, float>::value>::type>
    constexpr complex_like(T x) thread : real(x), imag(0) {}
};
constexpr bool operator<(complex_like a, complex_like b) { return a.real < b.real; }

template <typename T> struct is_counted : _disjunction<is_same<T, int>, is_same<T, uint>> {};

kernel void bf16_simd(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]],
                      uint lane [[thread_index_in_simdgroup]]) {
    const bfloat16_t one = bfloat16_t(1);
    const bfloat16_t total = simd_sum(one);
    const bfloat16_t next = simd_shuffle_and_fill_down(bfloat16_t(float(lane)), bfloat16_t(-1.0f), 1);
    const bool less = one < total && total > 0 && !(complex_like(1.0f) < complex_like(0.5f));
    const bfloat16_t bits = simd_xor(one); // the bits of 1.0f, xored over 7 lanes: 1.0f again
    out[i] = int(float(total)) * 1000 + int(float(bits)) * 100 + (lane < 6 ? int(float(next)) * 10 : 0) + (less ? 1 : 0) +
             (is_counted<uint>::value && !is_counted<float>::value ? 0 : 5);
}
)";

// Test that MLX's bfloat SIMD-group overloads over Apple's __metal_simd_* builtins compile and
// run over each threadgroup's 7 threads, and that bfloat comparisons are not ambiguous beside a
// type that converts from anything float-like.
TEST_F(MetalTest, MlxBfloatSimdOverBuiltins) {
    MTL::Library* library = compile(kMlxBfloatSimd);
    ASSERT_NE(library, nullptr);
    const std::vector<int> values = runIntKernel(library, "bf16_simd", 21);
    library->release();
    ASSERT_EQ(values.size(), 21u);
    for (int i = 0; i < 21; ++i) {
        const int lane = i % 7;
        EXPECT_EQ(values[i], 7000 + 100 + (lane < 6 ? (lane + 1) * 10 : 0) + 1) << "thread " << i;
    }
}

} // namespace
} // namespace metalcpu::testing
