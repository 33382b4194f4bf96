// BLAS's C interface as <Accelerate/Accelerate.h> gives it, with Apple's enum names, against
// straightforward loops: the level-3 products in both orders with transposes, scaling and
// padded leading dimensions, and a sample of levels 1 and 2.
#include "one_letter_macros.h"

#include <Accelerate/Accelerate.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {

template <class T>
std::vector<T> randomValues(std::size_t count, unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<T> value(T(-1), T(1));
    std::vector<T> values(count);
    for (T& v : values) v = value(generator);
    return values;
}

// Element (row, column) of a matrix stored in `order` with leading dimension `ld`, transposed
// first when `transpose` says so.
template <class T>
T element(const std::vector<T>& matrix, CBLAS_ORDER order, CBLAS_TRANSPOSE transpose, int ld, int row, int column) {
    if (transpose == CblasTrans) std::swap(row, column);
    return order == CblasRowMajor ? matrix[std::size_t(row * ld + column)] : matrix[std::size_t(column * ld + row)];
}

void gemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha, const float* a,
          int lda, const float* b, int ldb, float beta, float* c, int ldc) {
    cblas_sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void gemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double alpha,
          const double* a, int lda, const double* b, int ldb, double beta, double* c, int ldc) {
    cblas_dgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// C = alpha * op(A) * op(B) + beta * C for one order and pair of transposes, with every leading
// dimension 3 more than it needs to be.
template <class T>
void checkGemm(CBLAS_ORDER order, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb) {
    const int m = 37, n = 29, k = 45, pad = 3;
    const T alpha = T(0.75), beta = T(-0.5);
    // Stored rows and columns of each matrix as it lies in memory.
    const auto rowsOf = [&](int rows, int columns, CBLAS_TRANSPOSE t) { return t == CblasTrans ? columns : rows; };
    const auto columnsOf = [&](int rows, int columns, CBLAS_TRANSPOSE t) { return t == CblasTrans ? rows : columns; };
    const auto leading = [&](int rows, int columns) { return (order == CblasRowMajor ? columns : rows) + pad; };
    const auto extent = [&](int rows, int columns) { return std::size_t(leading(rows, columns)) *
                                                            std::size_t(order == CblasRowMajor ? rows : columns); };
    const int lda = leading(rowsOf(m, k, ta), columnsOf(m, k, ta));
    const int ldb = leading(rowsOf(k, n, tb), columnsOf(k, n, tb));
    const int ldc = leading(m, n);
    const auto a = randomValues<T>(extent(rowsOf(m, k, ta), columnsOf(m, k, ta)), 1);
    const auto b = randomValues<T>(extent(rowsOf(k, n, tb), columnsOf(k, n, tb)), 2);
    const auto c0 = randomValues<T>(extent(m, n), 3);
    std::vector<T> c = c0;
    gemm(order, ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
    for (int row = 0; row < m; ++row)
        for (int column = 0; column < n; ++column) {
            double sum = 0;
            for (int i = 0; i < k; ++i)
                sum += double(element(a, order, ta, lda, row, i)) * double(element(b, order, tb, ldb, i, column));
            const double want = alpha * sum + beta * double(element(c0, order, CblasNoTrans, ldc, row, column));
            ASSERT_NEAR(element(c, order, CblasNoTrans, ldc, row, column), want, 1e-5)
                << "row " << row << ", column " << column;
        }
    // The padding beyond each row (or column) of C is not C's.
    const std::size_t used = std::size_t(order == CblasRowMajor ? n : m);
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (i % std::size_t(ldc) >= used) {
            ASSERT_EQ(c[i], c0[i]) << "padding word " << i;
        }
    }
}

template <class T>
class CblasProducts : public testing::Test {};
using ElementTypes = testing::Types<float, double>;
TYPED_TEST_SUITE(CblasProducts, ElementTypes);

TYPED_TEST(CblasProducts, GemmInBothOrdersWithTransposes) {
    for (CBLAS_ORDER order : {CblasRowMajor, CblasColMajor})
        for (CBLAS_TRANSPOSE ta : {CblasNoTrans, CblasTrans})
            for (CBLAS_TRANSPOSE tb : {CblasNoTrans, CblasTrans}) {
                SCOPED_TRACE("order " + std::to_string(order) + ", transposes " + std::to_string(ta) + " " +
                             std::to_string(tb));
                checkGemm<TypeParam>(order, ta, tb);
            }
}

TEST(Cblas, LevelOneAndTwo) {
    const int n = 1001;
    const auto x = randomValues<float>(n, 4), y0 = randomValues<float>(n, 5);
    double dot = 0, squares = 0;
    int largest = 0;
    for (int i = 0; i < n; ++i) {
        dot += double(x[i]) * y0[i];
        squares += double(x[i]) * x[i];
        if (std::fabs(x[i]) > std::fabs(x[largest])) largest = i;
    }
    EXPECT_NEAR(cblas_sdot(n, x.data(), 1, y0.data(), 1), dot, 1e-4);
    EXPECT_NEAR(cblas_snrm2(n, x.data(), 1), std::sqrt(squares), 1e-4);
    EXPECT_EQ(int(cblas_isamax(n, x.data(), 1)), largest);

    std::vector<float> y = y0;
    cblas_saxpy(n, 2.5f, x.data(), 1, y.data(), 1);
    // BLAS may fuse the multiply and the add: one rounding fewer than the loop's.
    for (int i = 0; i < n; ++i) ASSERT_NEAR(y[i], 2.5f * x[i] + y0[i], 1e-6f) << "element " << i;
    const std::vector<float> unscaled = y;
    cblas_sscal(n, -2.0f, y.data(), 1);
    for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], -2.0f * unscaled[i]) << "element " << i;

    // y = A x for a 7 x 1001 row-major A.
    const int rows = 7;
    const auto a = randomValues<float>(std::size_t(rows) * n, 6);
    std::vector<float> product(rows, 0.0f);
    cblas_sgemv(CblasRowMajor, CblasNoTrans, rows, n, 1.0f, a.data(), n, x.data(), 1, 0.0f, product.data(), 1);
    for (int row = 0; row < rows; ++row) {
        double want = 0;
        for (int i = 0; i < n; ++i) want += double(a[std::size_t(row) * n + i]) * x[i];
        EXPECT_NEAR(product[row], want, 1e-4) << "row " << row;
    }
}

// Macros named like cblas.h's parameters, defined before the include, change nothing
// (one_letter_macros.cpp).
TEST(AccelerateHeader, OneLetterMacrosBeforeTheInclude) {
    EXPECT_EQ(accelerate_test::cornerOfProductOfOnes(), 424.0f);
}

} // namespace
