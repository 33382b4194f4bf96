// vDSP's reductions against straightforward loops, in float and double, over counts that do
// and do not fill the vectorised loops (and the empty vector) and over strides of 1, more
// than 1 and negative. The tests' values make every sum exact whatever the order of the
// additions, so results compare for equality.
#include "vdsp_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

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

} // namespace
} // namespace accelerate_test
