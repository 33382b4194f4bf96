// Tests of metal::matrix: construction, column-major indexing and algebra against results
// worked out by hand.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <type_traits>

namespace {

using namespace metal;

template <class T, int N> void expect_vec(const vec<T, N>& v, std::initializer_list<T> expected) {
    int i = 0;
    for (T e : expected) {
        EXPECT_EQ(v[i], e) << "component " << i;
        ++i;
    }
}

// Expects m to hold `rows` written row by row (as a matrix is printed on paper).
template <int C, int R> void expect_matrix(const matrix<float, C, R>& m, std::initializer_list<float> rows) {
    int i = 0;
    for (float e : rows) {
        const int r = i / C;
        const int c = i % C;
        EXPECT_FLOAT_EQ(m[c][r], e) << "row " << r << ", column " << c;
        ++i;
    }
    EXPECT_EQ(i, C * R);
}

// Test that a scalar constructs a diagonal matrix: 1 gives the identity, 0 the zero matrix.
TEST(Matrix, DiagonalConstruction) {
    expect_matrix(float4x4(1.0f), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    expect_matrix(float3x3(0.0f), {0, 0, 0, 0, 0, 0, 0, 0, 0});
    expect_matrix(float3x2(2.0f), {2, 0, 0, 0, 2, 0});
    EXPECT_FALSE((std::is_convertible_v<float, float4x4>)) << "the diagonal constructor is explicit";
}

// Test that columns and scalars fill the matrix in column-major order, m[column][row].
TEST(Matrix, ColumnMajorConstruction) {
    const float2x2 from_columns(float2(1.0f, 2.0f), float2(3.0f, 4.0f));
    EXPECT_EQ(from_columns[0][1], 2.0f);
    EXPECT_EQ(from_columns[1][0], 3.0f);
    expect_matrix(from_columns, {1, 3, 2, 4});
    const float2x3 from_scalars(1, 2, 3, 4, 5, 6);
    expect_vec(from_scalars[0], {1.0f, 2.0f, 3.0f});
    expect_vec(from_scalars[1], {4.0f, 5.0f, 6.0f});
    float4x4 m(1.0f);
    m[3] = float4(7.0f, 8.0f, 9.0f, 1.0f);
    m[0][1] = 5.0f;
    EXPECT_EQ(m[3].x, 7.0f);
    EXPECT_EQ(m[0].y, 5.0f);
    const float4 v(1.0f, 2.0f, 3.0f, 4.0f);
    const float4x4 swizzled(v.xyzw, v.wzyx, v.xxxx, v.yyyy);
    expect_vec(swizzled[1], {4.0f, 3.0f, 2.0f, 1.0f});
}

// Test that m * v combines columns and v * m takes dot products with columns.
TEST(Matrix, MatrixVectorProducts) {
    // | 1 2 3 |
    // | 4 5 6 |
    const float3x2 m(float2(1, 4), float2(2, 5), float2(3, 6));
    expect_vec(m * float3(1.0f, 0.0f, -1.0f), {-2.0f, -2.0f});
    expect_vec(m * float3(1.0f, 1.0f, 1.0f), {6.0f, 15.0f});
    expect_vec(float2(1.0f, 1.0f) * m, {5.0f, 7.0f, 9.0f});
    expect_vec(float2(2.0f, -1.0f) * m, {-2.0f, -1.0f, 0.0f});
    const float4x4 translate(float4(1, 0, 0, 0), float4(0, 1, 0, 0), float4(0, 0, 1, 0), float4(10, 20, 30, 1));
    expect_vec(translate * float4(1.0f, 2.0f, 3.0f, 1.0f), {11.0f, 22.0f, 33.0f, 1.0f});
}

// Test that matrix products (square and not) match hand-computed results in column-major order.
TEST(Matrix, MatrixProducts) {
    // A = | 1 2 |   B = | 0 1 |   AB = | 2 1 |   BA = | 3 4 |
    //     | 3 4 |       | 1 0 |        | 4 3 |        | 1 2 |
    const float2x2 a(float2(1, 3), float2(2, 4));
    const float2x2 b(float2(0, 1), float2(1, 0));
    expect_matrix(a * b, {2, 1, 4, 3});
    expect_matrix(b * a, {3, 4, 1, 2});
    // (2x3) * (3x2): | 1 2 3 | * | 1 0 |   = | 4 5 |
    //                | 4 5 6 |   | 0 1 |     | 10 11 |
    //                            | 1 1 |
    const float3x2 p(float2(1, 4), float2(2, 5), float2(3, 6));
    const float2x3 q(float3(1, 0, 1), float3(0, 1, 1));
    const float2x2 pq = p * q;
    expect_matrix(pq, {4, 5, 10, 11});
    const float3x3 qp = q * p;
    // | 1 0 |             | 1 2 3 |
    // | 0 1 | * (p) =     | 4 5 6 |
    // | 1 1 |             | 5 7 9 |
    expect_matrix(qp, {1, 2, 3, 4, 5, 6, 5, 7, 9});
    const float4x4 identity(1.0f);
    const float4x4 m(float4(1, 2, 3, 4), float4(5, 6, 7, 8), float4(9, 10, 11, 12), float4(13, 14, 15, 16));
    EXPECT_TRUE(m * identity == m);
    EXPECT_TRUE(identity * m == m);
}

// Test that sums, differences, scalar products and compound assignments work element by element.
TEST(Matrix, ElementwiseAndCompound) {
    const float2x2 a(float2(1, 2), float2(3, 4));
    const float2x2 b(float2(10, 20), float2(30, 40));
    expect_matrix(a + b, {11, 33, 22, 44});
    expect_matrix(b - a, {9, 27, 18, 36});
    expect_matrix(a * 2.0f, {2, 6, 4, 8});
    expect_matrix(3.0f * a, {3, 9, 6, 12});
    expect_matrix(-a, {-1, -3, -2, -4});
    float2x2 c = a;
    c += b;
    c -= a;
    EXPECT_TRUE(c == b);
    c *= 0.5f;
    expect_matrix(c, {5, 15, 10, 20});
    float2x2 d = a;
    d *= float2x2(float2(0, 1), float2(1, 0));
    expect_matrix(d, {3, 1, 4, 2});
    EXPECT_TRUE(a != b);
}

// Test that the tiled-matmul inner loop `acc += a * b` over float4x4 tiles matches a scalar triple loop.
TEST(Matrix, AccumulatedTileProducts) {
    float4x4 a_tiles[2], b_tiles[2];
    float a_rows[2][4][4], b_rows[2][4][4];
    for (int t = 0; t < 2; ++t)
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) {
                a_rows[t][r][c] = float(1 + t + r * 2 - c);
                b_rows[t][r][c] = float((r + c * 3 + t) % 5) - 2.0f;
                a_tiles[t][c][r] = a_rows[t][r][c];
                b_tiles[t][c][r] = b_rows[t][r][c];
            }
    float4x4 acc(0.0f);
    for (int t = 0; t < 2; ++t) acc += a_tiles[t] * b_tiles[t];
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) {
            float expected = 0.0f;
            for (int t = 0; t < 2; ++t)
                for (int k = 0; k < 4; ++k) expected += a_rows[t][r][k] * b_rows[t][k][c];
            EXPECT_FLOAT_EQ(acc[c][r], expected) << "row " << r << ", column " << c;
        }
}

// Test that transpose swaps rows and columns of square and non-square matrices.
TEST(Matrix, Transpose) {
    const float3x2 m(float2(1, 4), float2(2, 5), float2(3, 6));
    const float2x3 t = transpose(m);
    expect_matrix(t, {1, 4, 2, 5, 3, 6});
    const float2x2 s(float2(1, 2), float2(3, 4));
    expect_matrix(transpose(s), {1, 2, 3, 4});
}

// Test that determinants of 2x2, 3x3 and 4x4 matrices match hand-computed values.
TEST(Matrix, Determinant) {
    EXPECT_FLOAT_EQ(determinant(float2x2(float2(1, 3), float2(2, 4))), -2.0f);
    // | 2 0 1 |
    // | 1 3 2 | : 2*(3*4-2*1) - 0*(1*4-2*1) + 1*(1*1-3*1) = 20 - 0 - 2 = 18
    // | 1 1 4 |
    const float3x3 m3(float3(2, 1, 1), float3(0, 3, 1), float3(1, 2, 4));
    EXPECT_FLOAT_EQ(determinant(m3), 18.0f);
    EXPECT_FLOAT_EQ(determinant(float4x4(1.0f)), 1.0f);
    EXPECT_FLOAT_EQ(determinant(float4x4(2.0f)), 16.0f);
    // Upper triangular: the product of the diagonal, 1 * 2 * 3 * 4.
    const float4x4 upper(float4(1, 0, 0, 0), float4(5, 2, 0, 0), float4(6, 7, 3, 0), float4(8, 9, 10, 4));
    EXPECT_FLOAT_EQ(determinant(upper), 24.0f);
    // Swapping two columns of it negates the determinant.
    const float4x4 swapped(upper[1], upper[0], upper[2], upper[3]);
    EXPECT_FLOAT_EQ(determinant(swapped), -24.0f);
    // A full matrix, rows | 1 2 0 1 ; 0 1 3 2 ; 2 0 1 1 ; 1 1 0 2 |, expanded along row 0:
    //   1*det|1 3 2;0 1 1;1 0 2| - 2*det|0 3 2;2 1 1;1 0 2| + 0 - 1*det|0 1 3;2 0 1;1 1 0|
    //   = 1*3 - 2*(-11) - 1*7 = 18
    const float4x4 full(float4(1, 0, 2, 1), float4(2, 1, 0, 1), float4(0, 3, 1, 0), float4(1, 2, 1, 2));
    EXPECT_FLOAT_EQ(determinant(full), 18.0f);
}

// Test that half and float matrices convert explicitly, not implicitly.
TEST(Matrix, ElementTypeConversion) {
    const half4x4 h(static_cast<half>(2.0f));
    const float4x4 f = float4x4(h);
    EXPECT_EQ(f[0][0], 2.0f);
    EXPECT_EQ(f[1][0], 0.0f);
    const half2x4 back = half2x4(float2x4(float4(0.5f), float4(0.25f)));
    EXPECT_EQ(static_cast<float>(back[1][3]), 0.25f);
    EXPECT_FALSE((std::is_convertible_v<half4x4, float4x4>));
}

// Test that a matrix is brace-initialised from braced columns, as MSL code writes
// `float4x3 m = {{...}, {...}, {...}, {...}}`, and from columns or scalars in braces.
TEST(Matrix, BraceInitialisation) {
    const float4x3 m = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}};
    EXPECT_EQ(m[0][2], 3.0f);
    EXPECT_EQ(m[3][0], 10.0f);
    EXPECT_EQ(m[2][1], 8.0f);
    const float2x2 c = {float2(1, 2), float2(3, 4)};
    EXPECT_EQ(c[1][0], 3.0f);
    const half3x2 h = {{1, 2}, {3, 4}, {5, 6}};
    EXPECT_EQ(static_cast<float>(h[2][1]), 6.0f);
    const float2x2 s = {1, 2, 3, 4};
    EXPECT_EQ(s[1][1], 4.0f);
}

// Test that half matrix algebra gives the expected half results.
TEST(Matrix, HalfAlgebra) {
    const half2x2 a(half2(1.0f, 3.0f), half2(2.0f, 4.0f));
    const half2 v = a * half2(1.0f, 1.0f);
    EXPECT_EQ(static_cast<float>(v.x), 3.0f);
    EXPECT_EQ(static_cast<float>(v.y), 7.0f);
    const half2x2 sq = a * a;
    EXPECT_EQ(static_cast<float>(sq[0][0]), 7.0f);
    EXPECT_EQ(static_cast<float>(sq[1][1]), 22.0f);
}

} // namespace
