// vDSP's element-wise functions against straightforward loops, in float and double, over
// counts that do and do not fill the vectorised loops and over strides of 1, more than 1 and
// negative, mixed between the operands; in place too. The tests' values make every result
// exact, so results compare for equality; every word between and around the elements must keep
// its canary.
#include "vdsp_test_support.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

namespace accelerate_test {
namespace {

const vDSP_Length kCounts[] = {0, 1, 7, 16, 33, 1000};

// Strides of up to three inputs and of the result.
struct Strides {
    std::array<vDSP_Stride, 3> inputs;
    vDSP_Stride result;
};
const Strides kStrides[] = {{{1, 1, 1}, 1}, {{2, 1, 3}, 1}, {{1, 3, 2}, 2}, {{-1, 2, 1}, -2}, {{3, -1, -3}, 1}};

// For every count and set of strides: `call(inputs, result, count)` must set result[i] to
// expected(inputs[0][i], ...) and touch nothing else.
template <class T, std::size_t Arity, class Call, class Expected>
void checkElementwise(Call call, Expected expected) {
    for (vDSP_Length count : kCounts)
        for (const Strides& strides : kStrides) {
            SCOPED_TRACE("count " + std::to_string(count) + ", result stride " + std::to_string(strides.result) +
                         ", first input stride " + std::to_string(strides.inputs[0]));
            std::vector<StridedVector<T>> inputs;
            for (std::size_t input = 0; input < Arity; ++input)
                inputs.emplace_back(quarters<T>(count, unsigned(input + 1)), strides.inputs[input]);
            StridedVector<T> result(std::vector<T>(count, T(0)), strides.result);
            call(inputs, result, count);
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < count; ++i) {
                std::array<T, Arity> operands;
                for (std::size_t input = 0; input < Arity; ++input) operands[input] = inputs[input][i];
                const T want = std::apply(expected, operands);
                if (result[i] != want && wrong++ == 0)
                    ADD_FAILURE() << "element " << i << ": " << result[i] << ", want " << want;
            }
            EXPECT_EQ(wrong, 0u);
            for (auto& input : inputs) EXPECT_TRUE(input.canariesIntact());
            EXPECT_TRUE(result.canariesIntact());
        }
}

template <class T>
class VdspElementwise : public testing::Test {};
TYPED_TEST_SUITE(VdspElementwise, ElementTypes);

TYPED_TEST(VdspElementwise, AddSubtractMultiplyDivide) {
    using T = TypeParam;
    checkElementwise<T, 2>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vadd(in[0].first(), in[0].stride(), in[1].first(), in[1].stride(), out.first(), out.stride(), n);
        },
        [](T left, T right) { return left + right; });
    // Apple's order: the subtrahend and the divisor come first.
    checkElementwise<T, 2>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsub(in[0].first(), in[0].stride(), in[1].first(), in[1].stride(), out.first(), out.stride(), n);
        },
        [](T subtrahend, T minuend) { return minuend - subtrahend; });
    checkElementwise<T, 2>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vmul(in[0].first(), in[0].stride(), in[1].first(), in[1].stride(), out.first(), out.stride(), n);
        },
        [](T left, T right) { return left * right; });
    checkElementwise<T, 2>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vdiv(in[0].first(), in[0].stride(), in[1].first(), in[1].stride(), out.first(), out.stride(), n);
        },
        [](T divisor, T dividend) { return dividend / divisor; });
}

TYPED_TEST(VdspElementwise, WithAScalar) {
    using T = TypeParam;
    const T scalar = T(-2.5);
    checkElementwise<T, 1>(
        [&](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsadd(in[0].first(), in[0].stride(), &scalar, out.first(), out.stride(), n);
        },
        [&](T input) { return input + scalar; });
    checkElementwise<T, 1>(
        [&](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsmul(in[0].first(), in[0].stride(), &scalar, out.first(), out.stride(), n);
        },
        [&](T input) { return input * scalar; });
    checkElementwise<T, 1>(
        [&](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsdiv(in[0].first(), in[0].stride(), &scalar, out.first(), out.stride(), n);
        },
        [&](T input) { return input / scalar; });
    checkElementwise<T, 2>(
        [&](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsma(in[0].first(), in[0].stride(), &scalar, in[1].first(), in[1].stride(), out.first(),
                          out.stride(), n);
        },
        [&](T input, T addend) { return input * scalar + addend; });
}

TYPED_TEST(VdspElementwise, MultiplyAdd) {
    using T = TypeParam;
    checkElementwise<T, 3>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vma(in[0].first(), in[0].stride(), in[1].first(), in[1].stride(), in[2].first(), in[2].stride(),
                         out.first(), out.stride(), n);
        },
        [](T left, T right, T addend) { return left * right + addend; });
}

TYPED_TEST(VdspElementwise, NegateAbsoluteSquare) {
    using T = TypeParam;
    checkElementwise<T, 1>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vneg(in[0].first(), in[0].stride(), out.first(), out.stride(), n);
        },
        [](T input) { return -input; });
    checkElementwise<T, 1>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vabs(in[0].first(), in[0].stride(), out.first(), out.stride(), n);
        },
        [](T input) { return std::fabs(input); });
    checkElementwise<T, 1>(
        [](auto& in, auto& out, vDSP_Length n) {
            Vdsp<T>::vsq(in[0].first(), in[0].stride(), out.first(), out.stride(), n);
        },
        [](T input) { return input * input; });
}

TYPED_TEST(VdspElementwise, FillClearRamp) {
    using T = TypeParam;
    const T value = T(0.75), start = T(-3), step = T(0.25);
    checkElementwise<T, 0>(
        [&](auto&, auto& out, vDSP_Length n) { Vdsp<T>::vfill(&value, out.first(), out.stride(), n); },
        [&] { return value; });
    // vclr writes zeros over the quarters left by vfill.
    checkElementwise<T, 0>(
        [&](auto&, auto& out, vDSP_Length n) {
            Vdsp<T>::vfill(&value, out.first(), out.stride(), n);
            Vdsp<T>::vclr(out.first(), out.stride(), n);
        },
        [] { return T(0); });
    for (vDSP_Length count : kCounts)
        for (vDSP_Stride stride : {1, 3, -2}) {
            StridedVector<T> out(std::vector<T>(count, T(0)), stride);
            Vdsp<T>::vramp(&start, &step, out.first(), out.stride(), count);
            for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(out[i], start + T(i) * step) << "element " << i;
            EXPECT_TRUE(out.canariesIntact());
        }
}

// The result may be an input: Apple's vDSP allows it and so do programs.
TYPED_TEST(VdspElementwise, InPlace) {
    using T = TypeParam;
    const T scalar = T(1.5);
    for (vDSP_Length count : kCounts)
        for (vDSP_Stride stride : {1, 2}) {
            const std::vector<T> left = quarters<T>(count, 7), right = quarters<T>(count, 8);
            StridedVector<T> sum(left, stride), addend(right, stride), scaled(left, stride);
            StridedVector<T> other(right, 1);
            Vdsp<T>::vadd(sum.first(), stride, other.first(), 1, sum.first(), stride, count);
            Vdsp<T>::vsma(left.data(), 1, &scalar, addend.first(), stride, addend.first(), stride, count);
            Vdsp<T>::vsmul(scaled.first(), stride, &scalar, scaled.first(), stride, count);
            for (std::size_t i = 0; i < count; ++i) {
                ASSERT_EQ(sum[i], left[i] + right[i]) << "element " << i;
                ASSERT_EQ(addend[i], left[i] * scalar + right[i]) << "element " << i;
                ASSERT_EQ(scaled[i], left[i] * scalar) << "element " << i;
            }
            EXPECT_TRUE(sum.canariesIntact() && addend.canariesIntact() && scaled.canariesIntact());
        }
}

} // namespace
} // namespace accelerate_test
