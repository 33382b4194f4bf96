// vDSP's reductions against straightforward loops, in float and double, over counts that do
// and do not fill the vectorised loops (and the empty vector) and over strides of 1, more
// than 1 and negative. The tests' values make every sum exact whatever the order of the
// additions, so results compare for equality.
#include "vdsp_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace accelerate_test {
namespace {

const vDSP_Length kCounts[] = {0, 1, 7, 16, 17, 33, 1000, 4099};
const vDSP_Stride kStrides[] = {1, 2, 5, -1, -3};

template <class T>
class VdspReductions : public testing::Test {};
TYPED_TEST_SUITE(VdspReductions, ElementTypes);

TYPED_TEST(VdspReductions, SumsMeansAndExtremes) {
    using T = TypeParam;
    for (vDSP_Length count : kCounts)
        for (vDSP_Stride stride : kStrides) {
            SCOPED_TRACE("count " + std::to_string(count) + ", stride " + std::to_string(stride));
            const std::vector<T> values = quarters<T>(count, unsigned(count));
            StridedVector<T> input(values, stride);
            T sum = 0, squares = 0, largest = -std::numeric_limits<T>::infinity();
            T smallest = std::numeric_limits<T>::infinity();
            for (T value : values) {
                sum += value;
                squares += value * value;
                largest = value > largest ? value : largest;
                smallest = value < smallest ? value : smallest;
            }
            T result = canary<T>;
            Vdsp<T>::sve(input.first(), stride, &result, count);
            EXPECT_EQ(result, sum);
            Vdsp<T>::svesq(input.first(), stride, &result, count);
            EXPECT_EQ(result, squares);
            Vdsp<T>::maxv(input.first(), stride, &result, count);
            EXPECT_EQ(result, largest);
            Vdsp<T>::minv(input.first(), stride, &result, count);
            EXPECT_EQ(result, smallest);
            Vdsp<T>::meanv(input.first(), stride, &result, count);
            if (count == 0) EXPECT_TRUE(std::isnan(result));
            else EXPECT_EQ(result, sum / T(count));
            EXPECT_TRUE(input.canariesIntact());
        }
}

TYPED_TEST(VdspReductions, DotProductsOverMixedStrides) {
    using T = TypeParam;
    for (vDSP_Length count : kCounts)
        for (vDSP_Stride leftStride : kStrides)
            for (vDSP_Stride rightStride : {vDSP_Stride(1), vDSP_Stride(3), vDSP_Stride(-2)}) {
                SCOPED_TRACE("count " + std::to_string(count) + ", strides " + std::to_string(leftStride) + " and " +
                             std::to_string(rightStride));
                const std::vector<T> left = quarters<T>(count, 11), right = quarters<T>(count, 12);
                StridedVector<T> leftVector(left, leftStride), rightVector(right, rightStride);
                T want = 0;
                for (std::size_t i = 0; i < count; ++i) want += left[i] * right[i];
                T result = canary<T>;
                Vdsp<T>::dotpr(leftVector.first(), leftStride, rightVector.first(), rightStride, &result, count);
                EXPECT_EQ(result, want);
            }
}

TYPED_TEST(VdspReductions, EmptyVectors) {
    using T = TypeParam;
    T result = canary<T>;
    Vdsp<T>::dotpr(nullptr, 1, nullptr, 1, &result, 0);
    EXPECT_EQ(result, T(0));
    Vdsp<T>::maxv(nullptr, 1, &result, 0);
    EXPECT_EQ(result, -std::numeric_limits<T>::infinity());
    Vdsp<T>::minv(nullptr, 1, &result, 0);
    EXPECT_EQ(result, std::numeric_limits<T>::infinity());
}

// A NaN element never wins a comparison: the extremes are those of the other elements.
TYPED_TEST(VdspReductions, ExtremesSkipNaN) {
    using T = TypeParam;
    std::vector<T> values = quarters<T>(40, 5);
    values[0] = values[21] = std::numeric_limits<T>::quiet_NaN();
    T largest = -std::numeric_limits<T>::infinity(), smallest = std::numeric_limits<T>::infinity();
    for (T value : values)
        if (!std::isnan(value)) largest = std::fmax(largest, value), smallest = std::fmin(smallest, value);
    T result = 0;
    Vdsp<T>::maxv(values.data(), 1, &result, values.size());
    EXPECT_EQ(result, largest);
    Vdsp<T>::minv(values.data(), 1, &result, values.size());
    EXPECT_EQ(result, smallest);
}

// What a *vi function should give, computed as Apple's vDSP.h words it: the best of of(A[i]),
// and the least i * stride at which of(A[i]) is that value (0 when none is).
template <class T, class Better, class Of>
std::pair<T, vDSP_Length> bestWithLeastOffset(const std::vector<T>& values, vDSP_Stride stride, T none, Better better,
                                              Of of) {
    T best = none;
    for (T value : values)
        if (better(of(value), best)) best = of(value);
    bool found = false;
    vDSP_Stride least = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const vDSP_Stride offset = vDSP_Stride(i) * stride;
        if (of(values[i]) == best && (!found || offset < least)) least = offset, found = true;
    }
    return {best, vDSP_Length(least)};
}

const auto kGreater = [](auto a, auto b) { return a > b; };
const auto kLess = [](auto a, auto b) { return a < b; };
const auto kValue = [](auto x) { return x; };
const auto kMagnitude = [](auto x) { return std::fabs(x); };

// Test the four *vi functions against bestWithLeastOffset(): quarters() repeats values, so
// most extremes are tied, and a negative stride must give the last of the tied elements.
TYPED_TEST(VdspReductions, ExtremesWithIndex) {
    using T = TypeParam;
    using Function = void (*)(const T*, vDSP_Stride, T*, vDSP_Length*, vDSP_Length);
    constexpr T infinity = std::numeric_limits<T>::infinity();
    for (vDSP_Length count : kCounts)
        for (vDSP_Stride stride : {vDSP_Stride(1), vDSP_Stride(2), vDSP_Stride(5), vDSP_Stride(0), vDSP_Stride(-1),
                                   vDSP_Stride(-3)}) {
            if (stride == 0 && count > 1) continue; // one element, read count times: below
            SCOPED_TRACE("count " + std::to_string(count) + ", stride " + std::to_string(stride));
            const std::vector<T> values = quarters<T>(count, unsigned(count) + 3);
            StridedVector<T> input(values, stride);
            const auto check = [&](const char* name, Function function, std::pair<T, vDSP_Length> want) {
                T result = canary<T>;
                vDSP_Length index = 12345;
                function(input.first(), stride, &result, &index, count);
                EXPECT_EQ(result, want.first) << name;
                EXPECT_EQ(index, want.second) << name;
            };
            check("maxvi", Vdsp<T>::maxvi, bestWithLeastOffset(values, stride, -infinity, kGreater, kValue));
            check("minvi", Vdsp<T>::minvi, bestWithLeastOffset(values, stride, infinity, kLess, kValue));
            check("maxmgvi", Vdsp<T>::maxmgvi, bestWithLeastOffset(values, stride, T(0), kGreater, kMagnitude));
            check("minmgvi", Vdsp<T>::minmgvi, bestWithLeastOffset(values, stride, infinity, kLess, kMagnitude));
            EXPECT_TRUE(input.canariesIntact());
        }
}

// Test the index on small vectors worked out by hand: the first of tied elements, counted in
// memory (element 1 at stride 2 is index 2), the last of them for a negative stride (whose
// offsets wrap as vDSP_Length), a magnitude tie between -5 and 5, a stride of 0, no elements,
// and NaN elements, which never win.
TYPED_TEST(VdspReductions, ExtremeIndexByHand) {
    using T = TypeParam;
    constexpr T infinity = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    T result = canary<T>;
    vDSP_Length index = 99;
    const T ties[] = {1, 3, 3, 2, -4, -4};
    Vdsp<T>::maxvi(ties, 1, &result, &index, 6);
    EXPECT_EQ(result, T(3));
    EXPECT_EQ(index, vDSP_Length(1));
    Vdsp<T>::minvi(ties, 1, &result, &index, 6);
    EXPECT_EQ(result, T(-4));
    EXPECT_EQ(index, vDSP_Length(4));
    Vdsp<T>::maxvi(ties, 2, &result, &index, 3); // 1, 3, -4
    EXPECT_EQ(result, T(3));
    EXPECT_EQ(index, vDSP_Length(2));
    Vdsp<T>::maxvi(ties + 2, -1, &result, &index, 3); // 3, 3, 1: offsets 0 and -1 tie
    EXPECT_EQ(result, T(3));
    EXPECT_EQ(index, vDSP_Length(-1));

    const T signs[] = {2, -5, 5, 0.5};
    Vdsp<T>::maxmgvi(signs, 1, &result, &index, 4);
    EXPECT_EQ(result, T(5));
    EXPECT_EQ(index, vDSP_Length(1));
    Vdsp<T>::minmgvi(signs, 1, &result, &index, 4);
    EXPECT_EQ(result, T(0.5));
    EXPECT_EQ(index, vDSP_Length(3));
    Vdsp<T>::minvi(signs, 0, &result, &index, 4); // element 0, four times
    EXPECT_EQ(result, T(2));
    EXPECT_EQ(index, vDSP_Length(0));

    const std::pair<decltype(Vdsp<T>::maxvi), T> empty[] = {
        {Vdsp<T>::maxvi, -infinity}, {Vdsp<T>::minvi, infinity}, {Vdsp<T>::maxmgvi, T(0)}, {Vdsp<T>::minmgvi, infinity}};
    for (const auto& [function, none] : empty) {
        index = 99;
        function(nullptr, 1, &result, &index, 0);
        EXPECT_EQ(result, none);
        EXPECT_EQ(index, vDSP_Length(0));
    }

    const T withNaN[] = {nan, -2, nan, 7, 7};
    Vdsp<T>::maxvi(withNaN, 1, &result, &index, 5);
    EXPECT_EQ(result, T(7));
    EXPECT_EQ(index, vDSP_Length(3));
    Vdsp<T>::minmgvi(withNaN, 1, &result, &index, 5);
    EXPECT_EQ(result, T(2));
    EXPECT_EQ(index, vDSP_Length(1));
    const T onlyNaN[] = {nan, nan};
    Vdsp<T>::maxvi(onlyNaN, 1, &result, &index, 2);
    EXPECT_EQ(result, -infinity);
    EXPECT_EQ(index, vDSP_Length(0));
}

} // namespace
} // namespace accelerate_test
