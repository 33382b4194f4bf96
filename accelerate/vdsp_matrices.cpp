// vDSP's matrix functions (accelerate/README.md): products through BLAS's gemm, transposes in
// tiles. Each float function and its double twin (suffix D) call one template.

#include "strided.h"

#include <algorithm>
#include <climits>
#include <vector>

namespace metalcpu::accelerate {
namespace {

// result = left * right, all row-major and contiguous; BLAS refuses leading dimensions of 0.
void blasProduct(int rows, int columns, int inner, const float* left, const float* right, float* result) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, columns, inner, 1.0f, left, std::max(inner, 1),
                right, std::max(columns, 1), 0.0f, result, std::max(columns, 1));
}
void blasProduct(int rows, int columns, int inner, const double* left, const double* right, double* result) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, columns, inner, 1.0, left, std::max(inner, 1),
                right, std::max(columns, 1), 0.0, result, std::max(columns, 1));
}

// The first `count` elements of `matrix`, contiguous: the matrix itself when its stride is 1,
// otherwise a copy in `storage`.
template <class T>
const T* contiguous(Strided<const T> matrix, vDSP_Length count, std::vector<T>& storage) {
    if (matrix.stride == 1) return matrix.base;
    storage.resize(count);
    map(strided(storage.data(), 1), count, [](T value) { return value; }, matrix);
    return storage.data();
}

template <class T>
void product(Strided<const T> left, Strided<const T> right, Strided<T> result, vDSP_Length rows,
             vDSP_Length columns, vDSP_Length inner) {
    if (rows > INT_MAX || columns > INT_MAX || inner > INT_MAX) {
        // Beyond what BLAS's int dimensions can say: the textbook loop.
        for (vDSP_Length row = 0; row < rows; ++row)
            for (vDSP_Length column = 0; column < columns; ++column) {
                T total = 0;
                for (vDSP_Length k = 0; k < inner; ++k) total += left[row * inner + k] * right[k * columns + column];
                result[row * columns + column] = total;
            }
        return;
    }
    if (inner == 0) {
        // A sum of nothing; said here rather than trusting every BLAS with k = 0.
        map(result, rows * columns, [] { return T(0); });
        return;
    }
    std::vector<T> leftStorage, rightStorage, resultStorage;
    const T* leftElements = contiguous(left, rows * inner, leftStorage);
    const T* rightElements = contiguous(right, inner * columns, rightStorage);
    T* resultElements = result.base;
    if (result.stride != 1) {
        resultStorage.resize(rows * columns);
        resultElements = resultStorage.data();
    }
    blasProduct(static_cast<int>(rows), static_cast<int>(columns), static_cast<int>(inner), leftElements,
                rightElements, resultElements);
    if (result.stride != 1)
        map(result, rows * columns, [](T value) { return value; }, strided(resultStorage.data(), 1));
}

// result (rows x columns) = input (columns x rows) transposed, a square tile at a time, so
// that the reads and the writes of a tile each stay within a few cache lines.
template <class T>
void transpose(Strided<const T> input, Strided<T> result, vDSP_Length rows, vDSP_Length columns) {
    constexpr vDSP_Length tile = 32;
    withElements(input, [&](auto from) {
        withElements(result, [&](auto to) {
            for (vDSP_Length firstRow = 0; firstRow < rows; firstRow += tile)
                for (vDSP_Length firstColumn = 0; firstColumn < columns; firstColumn += tile) {
                    const vDSP_Length rowEnd = std::min(firstRow + tile, rows);
                    const vDSP_Length columnEnd = std::min(firstColumn + tile, columns);
                    for (vDSP_Length row = firstRow; row < rowEnd; ++row)
                        for (vDSP_Length column = firstColumn; column < columnEnd; ++column)
                            to[row * columns + column] = from[column * rows + row];
                }
        });
    });
}

} // namespace
} // namespace metalcpu::accelerate

using metalcpu::accelerate::product;
using metalcpu::accelerate::transpose;
using metalcpu::accelerate::strided;

extern "C" {

void vDSP_mmul(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length rows, vDSP_Length columns,
               vDSP_Length inner) {
    product(strided(left, leftStride), strided(right, rightStride), strided(result, resultStride), rows, columns,
            inner);
}
void vDSP_mmulD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length rows, vDSP_Length columns,
                vDSP_Length inner) {
    product(strided(left, leftStride), strided(right, rightStride), strided(result, resultStride), rows, columns,
            inner);
}
void vDSP_mtrans(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
                 vDSP_Length rows, vDSP_Length columns) {
    transpose(strided(input, inputStride), strided(result, resultStride), rows, columns);
}
void vDSP_mtransD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                  vDSP_Length rows, vDSP_Length columns) {
    transpose(strided(input, inputStride), strided(result, resultStride), rows, columns);
}

} // extern "C"
