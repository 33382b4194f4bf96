// Tests of <metal_array> (metal::array, metal::array_ref) and <metal_uniform>
// (metal::uniform, make_uniform).
#include <metal_stdlib>

#include <type_traits>

#include <gtest/gtest.h>

namespace {

using namespace metal;

array<int, 3> reversed(array<int, 3> a) { return {a[2], a[1], a[0]}; }
int sum(array_ref<int> values) {
    int s = 0;
    for (int v : values) s += v;
    return s;
}

// Test that metal::array is a value aggregate: brace-initialised in the forms the corpus uses,
// copied, passed and returned whole, indexed and iterated.
TEST(Array, IsAValueAggregate) {
    const array<int, 2> strides{1, 64};
    const array<int, 2> parenthesised({1, 32}); // ggml: array<int, 2>({1, stride})
    EXPECT_EQ(strides[1], 64);
    EXPECT_EQ(parenthesised[1], 32);
    EXPECT_EQ(strides.size(), 2u);
    EXPECT_FALSE(strides.empty());
    const array<int, 3> r = reversed({1, 2, 3});
    EXPECT_EQ(r.front(), 3);
    EXPECT_EQ(r.back(), 1);
    array<float, 4> f = {};
    f[2] = 5.0f;
    array<float, 4> copy = f;
    copy[2] = 6.0f;
    EXPECT_EQ(f[2], 5.0f) << "a copy is a copy";
    int n = 0;
    for (float v : copy) n += v == 0.0f;
    EXPECT_EQ(n, 3);
    static_assert(std::is_aggregate_v<array<int, 2>> && sizeof(array<int, 4>) == 16);
    static_assert(array<int, 2>{3, 4}[1] == 4, "usable in constant expressions");
    const array deduced{1.0f, 2.0f};
    static_assert(std::is_same_v<decltype(deduced), const array<float, 2>>);
}

// Test that array_ref views an array, a C array, a pointer and a count, or one element.
TEST(Array, ArrayRefViewsContiguousElements) {
    const array<int, 3> a{1, 2, 3};
    const int c[4] = {1, 1, 1, 1};
    const int one = 7;
    EXPECT_EQ(sum(a), 6);
    EXPECT_EQ(sum(c), 4);
    EXPECT_EQ(sum(array_ref<int>(c, 2)), 2);
    EXPECT_EQ(sum(one), 7);
    EXPECT_TRUE(array_ref<int>().empty());
}

// Test that uniform<T> converts to and from T and that arithmetic on it is T's.
TEST(Uniform, WrapsAValue) {
    uniform<uint> n = make_uniform(5u);
    static_assert(std::is_same_v<decltype(make_uniform(2.0f)), uniform<float>>);
    uint total = n * 2 + 1;
    EXPECT_EQ(total, 11u);
    n = 8u;
    EXPECT_EQ(uint(n), 8u);
    const uniform<float> scale = 0.5f;
    EXPECT_EQ(scale * 4.0f, 2.0f);
}

// A library type constructible from anything convertible to float, with its own operators
// (MLX's complex64_t).
struct Complex {
    float re;
    template <class T, class = std::enable_if_t<std::is_convertible_v<T, float>>>
    constexpr Complex(T x) : re(float(x)) {}
};
constexpr Complex operator*(Complex a, Complex b) { return Complex(a.re * b.re); }
constexpr Complex operator-(Complex a, Complex b) { return Complex(a.re - b.re); }

// Test that arithmetic on uniforms is exact, as on built-in types: with such a type in scope
// `a * b` is uniform<int>'s own operator, not a tie with Complex's (MLX's gemv).
TEST(Uniform, OperatorsOfItsOwn) {
    const uniform<int> a = make_uniform(6), b = make_uniform(4);
    const auto product = a * b;
    static_assert(std::is_same_v<std::remove_const_t<decltype(product)>, uniform<int>>);
    EXPECT_EQ(int(product), 24);
    static_assert(std::is_same_v<decltype(a - 1), int> && std::is_same_v<decltype(10 - a), int>);
    EXPECT_EQ(a - 1, 5);
    EXPECT_EQ(10 - a, 4);
    EXPECT_TRUE(a > b && !(a == b));
    EXPECT_EQ(int(-a), -6);
    EXPECT_EQ((Complex(2.0f) * Complex(3.0f)).re, 6.0f);
    // && and || keep short-circuiting: the right operand of a false && is not evaluated.
    int evaluated = 0;
    const uniform<bool> no = make_uniform(false);
    const bool both = no && (++evaluated > 0);
    EXPECT_FALSE(both);
    EXPECT_EQ(evaluated, 0);
}

} // namespace
