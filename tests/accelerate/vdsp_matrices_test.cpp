// vDSP_mmul and vDSP_mtrans against straightforward loops, in float and double, over shapes
// that are square, thin, empty and not multiples of any blocking, with contiguous, spaced and
// backward strides. The tests' values make every product exact, so results compare for
// equality; every word between and around the elements must keep its canary.
#include "vdsp_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace accelerate_test {
namespace {

struct ProductShape {
    vDSP_Length rows, columns, inner;
};
const ProductShape kProductShapes[] = {{1, 1, 1}, {3, 5, 7}, {33, 17, 65}, {64, 64, 64}, {1, 40, 9},
                                       {40, 1, 9},  {2, 3, 0}, {0, 3, 2},   {3, 0, 2}};

struct MatrixStrides {
    vDSP_Stride left, right, result;
};
const MatrixStrides kMatrixStrides[] = {{1, 1, 1}, {2, 1, 1}, {1, 3, 1}, {1, 1, 2}, {-1, 2, -3}};

template <class T>
class VdspMatrices : public testing::Test {};
TYPED_TEST_SUITE(VdspMatrices, ElementTypes);

TYPED_TEST(VdspMatrices, ProductMatchesTripleLoop) {
    using T = TypeParam;
    for (const ProductShape& shape : kProductShapes)
        for (const MatrixStrides& strides : kMatrixStrides) {
            SCOPED_TRACE(std::to_string(shape.rows) + "x" + std::to_string(shape.columns) + " inner " +
                         std::to_string(shape.inner) + ", strides " + std::to_string(strides.left) + " " +
                         std::to_string(strides.right) + " " + std::to_string(strides.result));
            const std::vector<T> left = quarters<T>(shape.rows * shape.inner, 21);
            const std::vector<T> right = quarters<T>(shape.inner * shape.columns, 22);
            StridedVector<T> leftMatrix(left, strides.left), rightMatrix(right, strides.right);
            StridedVector<T> result(std::vector<T>(shape.rows * shape.columns, canary<T>), strides.result);
            Vdsp<T>::mmul(leftMatrix.first(), strides.left, rightMatrix.first(), strides.right, result.first(),
                          strides.result, shape.rows, shape.columns, shape.inner);
            std::size_t wrong = 0;
            for (vDSP_Length row = 0; row < shape.rows; ++row)
                for (vDSP_Length column = 0; column < shape.columns; ++column) {
                    T want = 0;
                    for (vDSP_Length k = 0; k < shape.inner; ++k)
                        want += left[row * shape.inner + k] * right[k * shape.columns + column];
                    const T got = result[row * shape.columns + column];
                    if (got != want && wrong++ == 0)
                        ADD_FAILURE() << "row " << row << ", column " << column << ": " << got << ", want " << want;
                }
            EXPECT_EQ(wrong, 0u);
            EXPECT_TRUE(leftMatrix.canariesIntact() && rightMatrix.canariesIntact() && result.canariesIntact());
        }
}

TYPED_TEST(VdspMatrices, TransposeMatchesLoop) {
    using T = TypeParam;
    const std::pair<vDSP_Length, vDSP_Length> shapes[] = {{1, 1}, {3, 5}, {33, 70}, {64, 64}, {1, 50}, {50, 1}, {0, 4}};
    for (auto [rows, columns] : shapes)
        for (const MatrixStrides& strides : kMatrixStrides) {
            SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(columns) + ", strides " +
                         std::to_string(strides.left) + " " + std::to_string(strides.result));
            const std::vector<T> values = quarters<T>(rows * columns, 31);
            StridedVector<T> input(values, strides.left);
            StridedVector<T> result(std::vector<T>(rows * columns, canary<T>), strides.result);
            Vdsp<T>::mtrans(input.first(), strides.left, result.first(), strides.result, rows, columns);
            std::size_t wrong = 0;
            for (vDSP_Length row = 0; row < rows; ++row)
                for (vDSP_Length column = 0; column < columns; ++column)
                    if (result[row * columns + column] != values[column * rows + row] && wrong++ == 0)
                        ADD_FAILURE() << "row " << row << ", column " << column;
            EXPECT_EQ(wrong, 0u);
            EXPECT_TRUE(input.canariesIntact() && result.canariesIntact());
        }
}

} // namespace
} // namespace accelerate_test
