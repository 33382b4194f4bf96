// Tests of <metal_geometric> against results worked out by hand.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include "stdlib/test_util.h"

#include <cmath>
#include <type_traits>

namespace {

using metal::float2;
using metal::float3;
using metal::float4;
using metal::half3;

void expect_near3(const float3& v, float x, float y, float z) {
    EXPECT_NEAR(v.x, x, 1e-6f);
    EXPECT_NEAR(v.y, y, 1e-6f);
    EXPECT_NEAR(v.z, z, 1e-6f);
}

// Test that dot works on vectors of each size, on two scalars (as ggml uses it) and on half vectors.
TEST(Geometric, Dot) {
    EXPECT_EQ(metal::dot(float2(1.0f, 2.0f), float2(3.0f, 4.0f)), 11.0f);
    EXPECT_EQ(metal::dot(float3(1.0f, 2.0f, 3.0f), float3(4.0f, -5.0f, 6.0f)), 12.0f);
    EXPECT_EQ(metal::dot(float4(1.0f), float4(1.0f, 2.0f, 3.0f, 4.0f)), 10.0f);
    EXPECT_EQ(metal::dot(3.0f, 4.0f), 12.0f);
    EXPECT_TRUE((std::is_same_v<decltype(metal::dot(float4(), float4())), float>));
    EXPECT_TRUE((std::is_same_v<decltype(metal::dot(half3(), half3())), half>));
    EXPECT_EQ(static_cast<float>(metal::dot(half3(1.0f, 2.0f, 3.0f), half3(2.0f))), 12.0f);
}

// Test that cross follows the right-hand rule and matches a hand-computed product.
TEST(Geometric, Cross) {
    expect_near3(metal::cross(float3(1, 0, 0), float3(0, 1, 0)), 0.0f, 0.0f, 1.0f);
    expect_near3(metal::cross(float3(0, 1, 0), float3(1, 0, 0)), 0.0f, 0.0f, -1.0f);
    // (1,2,3) x (4,5,6) = (2*6-3*5, 3*4-1*6, 1*5-2*4) = (-3, 6, -3)
    expect_near3(metal::cross(float3(1, 2, 3), float3(4, 5, 6)), -3.0f, 6.0f, -3.0f);
}

// Test that length, length_squared, distance and distance_squared match hand-computed values.
TEST(Geometric, LengthAndDistance) {
    EXPECT_EQ(metal::length(float2(3.0f, 4.0f)), 5.0f);
    EXPECT_EQ(metal::length_squared(float2(3.0f, 4.0f)), 25.0f);
    EXPECT_EQ(metal::length(float4(1.0f, 1.0f, 1.0f, 1.0f)), 2.0f);
    EXPECT_EQ(metal::distance(float3(1, 2, 3), float3(4, 6, 3)), 5.0f);
    EXPECT_EQ(metal::distance_squared(float3(1, 2, 3), float3(4, 6, 3)), 25.0f);
    EXPECT_EQ(static_cast<float>(metal::length(half3(2.0f, 3.0f, 6.0f))), 7.0f);
}

// Test that normalize scales to length 1 keeping the direction.
TEST(Geometric, Normalize) {
    const float3 n = metal::normalize(float3(3.0f, 0.0f, 4.0f));
    expect_near3(n, 0.6f, 0.0f, 0.8f);
    EXPECT_NEAR(metal::length(metal::normalize(float4(1, 2, 3, 4))), 1.0f, 1e-6f);
    const float2 f = metal::fast::normalize(float2(0.0f, -2.0f));
    EXPECT_EQ(f.y, -1.0f);
}

// Test that reflect, refract (including total internal reflection) and faceforward give the expected rays.
TEST(Geometric, ReflectRefractFaceforward) {
    // A ray going down-right, reflected on the floor (normal +y), goes up-right.
    expect_near3(metal::reflect(float3(1, -1, 0), float3(0, 1, 0)), 1.0f, 1.0f, 0.0f);
    // eta = 1: the ray passes straight through.
    const float3 i = metal::normalize(float3(1, -1, 0));
    const float3 through = metal::refract(i, float3(0, 1, 0), 1.0f);
    expect_near3(through, i.x, i.y, i.z);
    // Entering a denser medium (eta = 1/1.5) at 45 degrees: sin(t) = sin(45)/1.5.
    const float3 bent = metal::refract(i, float3(0, 1, 0), 1.0f / 1.5f);
    const float sin_t = std::sqrt(0.5f) / 1.5f;
    expect_near3(bent, sin_t, -std::sqrt(1.0f - sin_t * sin_t), 0.0f);
    // Leaving it at a grazing angle: total internal reflection gives the zero vector.
    const float3 grazing = metal::normalize(float3(1.0f, -0.1f, 0.0f));
    expect_near3(metal::refract(grazing, float3(0, 1, 0), 1.5f), 0.0f, 0.0f, 0.0f);
    expect_near3(metal::faceforward(float3(0, 1, 0), float3(0, -1, 0), float3(0, 1, 0)), 0.0f, 1.0f, 0.0f);
    expect_near3(metal::faceforward(float3(0, 1, 0), float3(0, 1, 0), float3(0, 1, 0)), 0.0f, -1.0f, 0.0f);
}

} // namespace
