// Tests of <metal_types>: scalar typedefs, sizes and alignments of every vector, packed vector
// and matrix type, and as_type<T>(). This file includes the metal headers *before* the host
// headers, the opposite order of the other tests, so both orders are checked to compile.
#include <metal_stdlib>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sys/types.h>
#include <type_traits>

#include <gtest/gtest.h>

// In MSL as_type is an operator of the language: a namespace that no using-directive reaches
// calls it unqualified (PyTorch's c10/metal/atomic.h).
namespace no_using_directive {
inline unsigned bits(float x) { return as_type<unsigned>(x); }
} // namespace no_using_directive

namespace {

using namespace metal;

// Test that the scalar typedefs have MSL's sizes and are the very types glibc uses for the same names.
TEST(Types, ScalarTypedefsMatchMslAndGlibc) {
    EXPECT_EQ(sizeof(uchar), 1u);
    EXPECT_EQ(sizeof(ushort), 2u);
    EXPECT_EQ(sizeof(uint), 4u);
    EXPECT_EQ(sizeof(ulong), 8u);
    EXPECT_EQ(sizeof(long), 8u);
    EXPECT_EQ(sizeof(half), 2u);
    EXPECT_LT(static_cast<char>(-1), 0) << "MSL's char is signed";
    EXPECT_TRUE((std::is_same_v<::uint, unsigned int>));
    EXPECT_TRUE((std::is_same_v<::ushort, unsigned short>));
    EXPECT_TRUE((std::is_same_v<::ulong, unsigned long>));
    EXPECT_TRUE((std::is_same_v<::int8_t, std::int8_t>));
    EXPECT_TRUE((std::is_same_v<::uint8_t, std::uint8_t>));
    EXPECT_TRUE((std::is_same_v<::int64_t, std::int64_t>));
    EXPECT_TRUE((std::is_same_v<::uint64_t, std::uint64_t>));
    EXPECT_TRUE((std::is_same_v<::size_t, std::size_t>));
    EXPECT_TRUE((std::is_same_v<::ptrdiff_t, std::ptrdiff_t>));
    EXPECT_TRUE((std::is_same_v<metal::half, _Float16>));
    EXPECT_TRUE((std::is_same_v<metal::uint, ::uint>));
}

template <class T, int N> void expect_vector_layout() {
    const std::size_t padded = (N == 3 ? 4 : N) * sizeof(T);
    EXPECT_EQ(sizeof(vec<T, N>), padded) << "vec<" << sizeof(T) << "-byte, " << N << ">";
    EXPECT_EQ(alignof(vec<T, N>), padded) << "vec<" << sizeof(T) << "-byte, " << N << ">";
    EXPECT_EQ(sizeof(packed_vec<T, N>), N * sizeof(T));
    EXPECT_EQ(alignof(packed_vec<T, N>), alignof(T));
}

template <class T> void expect_vector_layouts() {
    expect_vector_layout<T, 2>();
    expect_vector_layout<T, 3>();
    expect_vector_layout<T, 4>();
}

// Test that every vector and packed vector type has Metal's size and alignment.
TEST(Types, VectorAndPackedLayout) {
    expect_vector_layouts<bool>();
    expect_vector_layouts<char>();
    expect_vector_layouts<uchar>();
    expect_vector_layouts<short>();
    expect_vector_layouts<ushort>();
    expect_vector_layouts<int>();
    expect_vector_layouts<uint>();
    expect_vector_layouts<long>();
    expect_vector_layouts<ulong>();
    expect_vector_layouts<half>();
    expect_vector_layouts<float>();
    // Spot checks written out, against Metal's documented table.
    EXPECT_EQ(sizeof(float3), 16u);
    EXPECT_EQ(alignof(float3), 16u);
    EXPECT_EQ(sizeof(float2), 8u);
    EXPECT_EQ(alignof(float2), 8u);
    EXPECT_EQ(sizeof(half3), 8u);
    EXPECT_EQ(sizeof(bool3), 4u);
    EXPECT_EQ(sizeof(long3), 32u);
    EXPECT_EQ(alignof(long4), 32u);
    EXPECT_EQ(sizeof(packed_float3), 12u);
    EXPECT_EQ(alignof(packed_float3), 4u);
    EXPECT_EQ(sizeof(packed_half3), 6u);
    EXPECT_EQ(sizeof(packed_uchar4), 4u);
}

// Test that the vector type names exist at global scope and in namespace metal, as the same types.
TEST(Types, VectorNamesAtGlobalScope) {
    EXPECT_TRUE((std::is_same_v<::float4, metal::vec<float, 4>>));
    EXPECT_TRUE((std::is_same_v<::uint3, metal::uint3>));
    EXPECT_TRUE((std::is_same_v<::packed_float3, metal::packed_vec<float, 3>>));
    EXPECT_TRUE((std::is_same_v<::half4x4, metal::matrix<half, 4, 4>>));
    EXPECT_TRUE((std::is_same_v<::bool2, metal::vec<bool, 2>>));
}

// Test that every matrix type is its columns laid out one after another, with Metal's alignment.
TEST(Types, MatrixLayout) {
    EXPECT_EQ(sizeof(float2x2), 16u);
    EXPECT_EQ(alignof(float2x2), 8u);
    EXPECT_EQ(sizeof(float2x3), 32u);
    EXPECT_EQ(sizeof(float2x4), 32u);
    EXPECT_EQ(sizeof(float3x2), 24u);
    EXPECT_EQ(sizeof(float3x3), 48u);
    EXPECT_EQ(alignof(float3x3), 16u);
    EXPECT_EQ(sizeof(float4x2), 32u);
    EXPECT_EQ(sizeof(float4x3), 64u);
    EXPECT_EQ(sizeof(float4x4), 64u);
    EXPECT_EQ(alignof(float4x4), 16u);
    EXPECT_EQ(sizeof(half2x4), 16u);
    EXPECT_EQ(sizeof(half3x3), 24u);
    EXPECT_EQ(sizeof(half4x4), 32u);
    EXPECT_EQ(alignof(half4x4), 8u);
}

// Test that vectors and matrices are trivially default- and copy-constructible (for buffers, threadgroup memory).
TEST(Types, TrivialConstructionAndCopy) {
    EXPECT_TRUE(std::is_trivially_default_constructible_v<float4>);
    EXPECT_TRUE(std::is_trivially_copy_constructible_v<float4>);
    EXPECT_TRUE(std::is_trivially_destructible_v<float4>);
    EXPECT_TRUE(std::is_standard_layout_v<float4>);
    EXPECT_TRUE(std::is_trivially_default_constructible_v<packed_float3>);
    EXPECT_TRUE(std::is_trivially_copy_constructible_v<float4x4>);
    EXPECT_TRUE(std::is_trivially_default_constructible_v<float4x4>);
}

// Test that vectors of every length and element type, packed ones and matrices are trivially
// copyable, and that unions holding them copy by assignment (llama.cpp's
// `union { struct { half d, m; }; half2 dm; }`), every byte.
TEST(Types, TriviallyCopyableSoUnionsCopy) {
    EXPECT_TRUE(std::is_trivially_copyable_v<float4>);
    EXPECT_TRUE(std::is_trivially_copy_assignable_v<float4>);
    EXPECT_TRUE(std::is_trivially_copyable_v<half2>);
    EXPECT_TRUE(std::is_trivially_copyable_v<uint3>);
    EXPECT_TRUE(std::is_trivially_copyable_v<bool2>);
    EXPECT_TRUE(std::is_trivially_copyable_v<bfloat4>);
    EXPECT_TRUE(std::is_trivially_copyable_v<packed_float3>);
    EXPECT_TRUE(std::is_trivially_copyable_v<packed_half2>);
    EXPECT_TRUE(std::is_trivially_copyable_v<float4x4>);
    union Block {
        struct {
            half d, m;
        };
        half2 dm;
    };
    Block a, b;
    a.d = half(1.5f);
    a.m = half(-2.0f);
    b = a;
    EXPECT_EQ(float(b.dm.x), 1.5f);
    EXPECT_EQ(float(b.dm.y), -2.0f);
    union Lanes {
        float4 v;
        float f[4];
    };
    Lanes c, d;
    c.v = float4(1.0f, 2.0f, 3.0f, 4.0f);
    d = c;
    EXPECT_EQ(d.f[3], 4.0f);
}

// Test that float -> half rounds to nearest even, as the GPU converts, also from double and
// at the edges (overflow to infinity, subnormals), and that half -> int truncates.
TEST(Types, HalfConversionsRoundToNearestEven) {
    EXPECT_EQ(as_type<ushort>(static_cast<half>(1.0f + 0x1p-11f)), 0x3c00u) << "a tie rounds to even (down)";
    EXPECT_EQ(as_type<ushort>(static_cast<half>(1.0f + 3 * 0x1p-11f)), 0x3c02u) << "a tie rounds to even (up)";
    EXPECT_EQ(as_type<ushort>(static_cast<half>(1.0f + 0x1p-11f + 0x1p-20f)), 0x3c01u);
    EXPECT_EQ(as_type<ushort>(static_cast<half>(1.0 + 0x1p-11 + 0x1p-40)), 0x3c01u) << "double rounds once";
    EXPECT_EQ(as_type<ushort>(static_cast<half>(65520.0f)), 0x7c00u) << "past the largest half + half an ulp";
    EXPECT_EQ(as_type<ushort>(static_cast<half>(65519.0f)), 0x7bffu);
    EXPECT_EQ(as_type<ushort>(static_cast<half>(0x1p-25f)), 0x0000u) << "half the smallest subnormal: a tie, to even";
    EXPECT_EQ(as_type<ushort>(static_cast<half>(0x1.8p-24f)), 0x0002u);
    EXPECT_EQ(static_cast<int>(static_cast<half>(-2.75f)), -2);
    EXPECT_EQ(static_cast<uint>(static_cast<half>(65504.0f)), 65504u);
}

// Test that as_type reinterprets the bits of scalars.
TEST(AsType, Scalars) {
    EXPECT_EQ(as_type<uint>(1.0f), 0x3f800000u);
    EXPECT_EQ(as_type<int>(-2.0f), static_cast<int>(0xc0000000u));
    EXPECT_FLOAT_EQ(as_type<float>(0x40490fdbu), 3.14159274f);
    EXPECT_EQ(as_type<ushort>(static_cast<half>(1.0f)), 0x3c00u);
    EXPECT_EQ(as_type<short>(static_cast<half>(-2.0f)), static_cast<short>(0xc000u));
    static_assert(as_type<uint>(2.0f) == 0x40000000u, "scalar as_type is usable in constant expressions");
}

// Test that a double operand, which only an unsuffixed literal makes (naga writes WGSL's
// `bitcast<i32>(bitcast<f32>(old) + 1.0)` so), is the float MSL makes of it: 4 bytes, with
// the float's bits.
TEST(AsType, UnsuffixedLiteralIsAFloat) {
    const int old = as_type<int>(2.5f);
    EXPECT_EQ(as_type<int>(as_type<float>(old) + 1.0), as_type<int>(3.5f));
    EXPECT_EQ(as_type<uint>(0.1), as_type<uint>(0.1f));
    static_assert(as_type<uint>(1.0) == 0x3f800000u);
}

// Test that as_type needs neither `metal::` nor `using namespace metal`.
TEST(AsType, UsableInAnyNamespace) { EXPECT_EQ(no_using_directive::bits(1.0f), 0x3f800000u); }

// Test that as_type reinterprets vectors and scalars of the same size, in memory (little-endian) order.
TEST(AsType, VectorsAndScalars) {
    const uint2 halves = as_type<uint2>(0x0000000100000002ul);
    EXPECT_EQ(halves.x, 2u);
    EXPECT_EQ(halves.y, 1u);
    EXPECT_EQ(as_type<ulong>(uint2(2u, 1u)), 0x0000000100000002ul);
    const half2 h = as_type<half2>(0x3c004000u);
    EXPECT_EQ(static_cast<float>(h.x), 2.0f);
    EXPECT_EQ(static_cast<float>(h.y), 1.0f);
    const int2 w = as_type<int2>(long(0x7fffffff00000005l)); // PyTorch's 64-bit shuffles
    EXPECT_EQ(w.x, 5);
    EXPECT_EQ(w.y, 0x7fffffff);
    EXPECT_EQ(as_type<long>(w), 0x7fffffff00000005l);
    EXPECT_EQ(as_type<uint>(half2(static_cast<half>(1.0f), static_cast<half>(-2.0f))), 0xc0003c00u);
    EXPECT_EQ(as_type<ushort2>(1.0f).y, 0x3f80u);
    EXPECT_EQ(as_type<short>(as_type<half>(ushort(0x3c00))), 0x3c00);
    const int2 l = as_type<int2>(-1l);
    EXPECT_EQ(l.x, -1);
    EXPECT_EQ(l.y, -1);
    const uint4 bits = as_type<uint4>(float4(1.0f, -1.0f, 0.0f, 2.0f));
    EXPECT_EQ(bits.x, 0x3f800000u);
    EXPECT_EQ(bits.y, 0xbf800000u);
    EXPECT_EQ(bits.z, 0u);
    EXPECT_EQ(bits.w, 0x40000000u);
    const packed_uchar4 bytes = as_type<packed_uchar4>(0x04030201u);
    EXPECT_EQ(bytes[0], 1);
    EXPECT_EQ(bytes[3], 4);
}

// Test that as_type of a swizzle reinterprets the components the swizzle reads.
TEST(AsType, Swizzle) {
    const float4 v(1.0f, 2.0f, -1.0f, 0.5f);
    const uint2 zw = as_type<uint2>(v.zw);
    EXPECT_EQ(zw.x, 0xbf800000u);
    EXPECT_EQ(zw.y, 0x3f000000u);
    EXPECT_EQ(as_type<ulong>(v.yx), (ulong(0x3f800000u) << 32) | 0x40000000u);
}

// Test that the math macros agree with the C library's spelling when both headers are included.
TEST(Types, MacrosCoexistWithHostHeaders) {
    EXPECT_TRUE(std::isinf(INFINITY));
    EXPECT_TRUE(std::isnan(NAN));
    EXPECT_EQ(INT_MAX, 2147483647);
    EXPECT_EQ(FLT_MAX, 3.40282347e+38F);
    EXPECT_EQ(MAXFLOAT, 3.40282347e+38F);
}

} // namespace
