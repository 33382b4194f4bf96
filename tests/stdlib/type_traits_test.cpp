// Tests of <metal_type_traits> and <metal_utility>.
#include <gtest/gtest.h>

#include <metal_stdlib>

namespace {

using namespace metal;

// Test that is_same, enable_if, conditional, decay and the cv/reference/pointer removers work.
TEST(TypeTraits, Basics) {
    static_assert(is_same_v<int, int> && !is_same_v<int, uint>);
    static_assert(is_same<float, float>::value);
    static_assert(is_same_v<enable_if_t<true, float>, float>);
    static_assert(is_same_v<conditional_t<true, int, float>, int>);
    static_assert(is_same_v<conditional_t<false, int, float>, float>);
    static_assert(is_same_v<remove_cv_t<const volatile int>, int>);
    static_assert(is_same_v<remove_reference_t<int&&>, int>);
    static_assert(is_same_v<remove_cvref_t<const float4&>, float4>);
    static_assert(is_same_v<remove_pointer_t<const int*>, const int>);
    static_assert(is_same_v<decay_t<const int[3]>, const int*>);
    static_assert(is_same_v<decay_t<int(float)>, int (*)(float)>);
    static_assert(is_same_v<decay_t<const float4&>, float4>);
    static_assert(is_same_v<remove_addrspace_t<int>, int>);
    static_assert(is_same_v<type_identity_t<half>, half>);
    EXPECT_TRUE((integral_constant<int, 3>::value == 3));
}

// Test that the categories are MSL's: half is a floating-point type, bool an integral one,
// and a vector is in its elements' categories but is no scalar (PyTorch's exp_functor takes
// float2 through enable_if_t<is_floating_point_v<T>>; c10::metal's is_scalar_floating_point_v
// is is_floating_point_v<T> && is_scalar_v<T>).
TEST(TypeTraits, Categories) {
    static_assert(is_floating_point_v<half> && is_floating_point_v<float>);
    static_assert(!is_floating_point_v<int> && !is_floating_point_v<int4>);
    static_assert(is_floating_point_v<float4> && is_floating_point_v<const half2> && !is_integral_v<float2>);
    static_assert(is_integral_v<int2> && is_integral_v<uchar4> && is_arithmetic_v<float3> && !is_scalar_v<int2>);
    static_assert(is_signed_v<int4> && is_signed_v<float2> && is_unsigned_v<uint2> && !is_unsigned_v<short3>);
    static_assert(!metalcpu_stdlib::is_floating_scalar<float4> && metalcpu_stdlib::is_floating_scalar<half>);
    static_assert(is_integral_v<bool> && is_integral_v<char> && is_integral_v<ulong> && is_integral_v<const int>);
    static_assert(!is_integral_v<half>);
    static_assert(is_arithmetic_v<half> && is_scalar_v<half> && !is_scalar_v<float4>);
    static_assert(is_signed_v<int> && is_signed_v<half> && is_signed_v<char> && !is_signed_v<uint>);
    static_assert(is_unsigned_v<uchar> && is_unsigned_v<bool> && !is_unsigned_v<float> && !is_unsigned_v<float4>);
    static_assert(is_pointer_v<const float*> && !is_pointer_v<float>);
    static_assert(is_class_v<float4> && !is_class_v<float>);
    static_assert(is_convertible_v<float, float4> && !is_convertible_v<int4, float4>);
    static_assert(is_base_of_v<integral_constant<bool, true>, true_type>);
    EXPECT_TRUE(is_floating_point_v<half>);
}

// Test that make_unsigned and make_signed work on scalars and integer vectors, and common_type.
TEST(TypeTraits, SignednessAndCommonType) {
    static_assert(is_same_v<make_unsigned_t<int>, uint>);
    static_assert(is_same_v<make_unsigned_t<char>, uchar>);
    static_assert(is_same_v<make_unsigned_t<long>, ulong>);
    static_assert(is_same_v<make_signed_t<ushort>, short>);
    static_assert(is_same_v<make_unsigned_t<int4>, uint4>);
    static_assert(is_same_v<make_signed_t<uint2>, int2>);
    static_assert(is_same_v<common_type_t<int, long>, long>);
    static_assert(is_same_v<common_type_t<half, float>, float>);
    EXPECT_TRUE((is_same_v<common_type_t<uint, int>, uint>));
}

// Test that MSL's vector traits is_vector, vec_elements and make_scalar describe vectors.
TEST(TypeTraits, VectorTraits) {
    static_assert(is_vector_v<float4> && is_vector_v<bool2> && !is_vector_v<float> && !is_vector_v<float4x4>);
    static_assert(vec_elements<float3>::value == 3);
    static_assert(vec_elements<ushort2>::value == 2);
    static_assert(vec_elements<float>::value == 0);
    static_assert(is_same_v<make_scalar_t<half4>, half>);
    static_assert(is_same_v<make_scalar_t<int>, int>);
    static_assert(is_same_v<vec<float, 4>, float4>);
    EXPECT_EQ(vec_elements<int4>::value, 4);
}

// Test that move, forward (metalcpu's, outside `metal`: Apple's has neither), declval and the
// integer sequences of <metal_utility> work.
TEST(Utility, MoveForwardSequences) {
    static_assert(is_same_v<decltype(metalcpu_stdlib::move(declval<int&>())), int&&>);
    static_assert(is_same_v<decltype(metalcpu_stdlib::forward<int&>(declval<int&>())), int&>);
    static_assert(is_same_v<make_index_sequence<3>, index_sequence<0, 1, 2>>);
    static_assert(make_integer_sequence<int, 5>::size() == 5);
    static_assert(is_same_v<index_sequence_for<int, float>, index_sequence<0, 1>>);
    int x = 3;
    int&& r = metalcpu_stdlib::move(x);
    EXPECT_EQ(r, 3);
}

} // namespace
