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
// MLX specialises it for thread, device, constant and threadgroup pointers; the front end
// erases address spaces, which makes those four one specialisation defined four times (a
// front-end limitation, docs/compiler.md), so only one is kept here.
template <typename T> struct pointer_element<device T*> { using type = remove_cv_t<T>; };
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
    out[3] = is_same_v<pointer_element_t<device float*>, float>;
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
    EXPECT_EQ(values[3], 1) << "pointer_element";
    EXPECT_EQ(values[4], 16) << "__METAL__ is defined";
}

} // namespace
} // namespace metalcpu::testing
