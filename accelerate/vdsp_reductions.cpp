// vDSP's reductions (accelerate/README.md): dot products through BLAS, whose kernels are
// chosen for the machine at run time, and sums, means and extremes through reduce()
// (strided.h). Each float function and its double twin (suffix D) call one template.

#include "strided.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>
#include <limits>

namespace metalcpu::accelerate {
namespace {

float blasDot(int count, const float* left, int leftStride, const float* right, int rightStride) {
    return cblas_sdot(count, left, leftStride, right, rightStride);
}
double blasDot(int count, const double* left, int leftStride, const double* right, int rightStride) {
    return cblas_ddot(count, left, leftStride, right, rightStride);
}

// BLAS walks a vector with a negative stride from its other end and takes int counts and
// strides, so only positive strides that fit an int go to BLAS, in pieces of at most INT_MAX
// elements; the rest is reduce()'s.
template <class T>
T dot(Strided<const T> left, Strided<const T> right, vDSP_Length count) {
    const auto fitsBlas = [](vDSP_Stride stride) { return stride > 0 && stride <= INT_MAX; };
    if (fitsBlas(left.stride) && fitsBlas(right.stride)) {
        T total = 0;
        for (vDSP_Length done = 0; done < count;) {
            const auto piece = static_cast<int>(std::min<vDSP_Length>(count - done, INT_MAX));
            total += blasDot(piece, &left[done], static_cast<int>(left.stride), &right[done],
                             static_cast<int>(right.stride));
            done += static_cast<vDSP_Length>(piece);
        }
        return total;
    }
    return reduce(count, T(0), [&](vDSP_Length i) { return left[i] * right[i]; }, std::plus<>());
}

template <class T>
T sum(Strided<const T> input, vDSP_Length count) {
    return withElements(input, [&](auto elements) {
        return reduce(count, T(0), [&](vDSP_Length i) { return elements[i]; }, std::plus<>());
    });
}

template <class T>
T mean(Strided<const T> input, vDSP_Length count) {
    return count == 0 ? std::numeric_limits<T>::quiet_NaN() : sum(input, count) / static_cast<T>(count);
}

// What the extremes compare: the elements, or their magnitudes.
struct Value {
    template <class T>
    T operator()(T x) const {
        return x;
    }
};
struct Magnitude {
    template <class T>
    T operator()(T x) const {
        return std::fabs(x);
    }
};

// NaN elements never win a comparison, so they are skipped (Apple does not say what its vDSP
// does with them).
template <class T, class Of = Value>
T largest(Strided<const T> input, vDSP_Length count, T none = -std::numeric_limits<T>::infinity(), Of of = {}) {
    return withElements(input, [&](auto elements) {
        return reduce(count, none, [&](vDSP_Length i) { return of(elements[i]); },
                      [](auto best, auto value) { return value > best ? value : best; });
    });
}

template <class T, class Of = Value>
T smallest(Strided<const T> input, vDSP_Length count, T none = std::numeric_limits<T>::infinity(), Of of = {}) {
    return withElements(input, [&](auto elements) {
        return reduce(count, none, [&](vDSP_Length i) { return of(elements[i]); },
                      [](auto best, auto value) { return value < best ? value : best; });
    });
}

// The index the *vi functions give for `extreme` (which reduce() found): vDSP.h's "least i * IA
// such that A[i] has the value in C", so the offset of the first such element for a positive
// stride and of the last for a negative one, cast to vDSP_Length as C does. 0 when no element
// has it (no elements, or only NaN).
template <class T, class Of>
vDSP_Length indexOf(Strided<const T> input, vDSP_Length count, T extreme, Of of) {
    const auto offset = [&](vDSP_Length i) { return static_cast<vDSP_Length>(static_cast<vDSP_Stride>(i) * input.stride); };
    if (input.stride >= 0) {
        for (vDSP_Length i = 0; i < count; ++i)
            if (of(input[i]) == extreme) return offset(i);
    } else {
        for (vDSP_Length i = count; i-- > 0;)
            if (of(input[i]) == extreme) return offset(i);
    }
    return 0;
}

template <class T, class Of = Value>
void largestWithIndex(Strided<const T> input, vDSP_Length count, T* result, vDSP_Length* index, T none, Of of = {}) {
    *result = largest(input, count, none, of);
    *index = indexOf(input, count, *result, of);
}

template <class T, class Of = Value>
void smallestWithIndex(Strided<const T> input, vDSP_Length count, T* result, vDSP_Length* index, T none, Of of = {}) {
    *result = smallest(input, count, none, of);
    *index = indexOf(input, count, *result, of);
}

} // namespace
} // namespace metalcpu::accelerate

using metalcpu::accelerate::dot;
using metalcpu::accelerate::largest;
using metalcpu::accelerate::largestWithIndex;
using metalcpu::accelerate::Magnitude;
using metalcpu::accelerate::mean;
using metalcpu::accelerate::smallest;
using metalcpu::accelerate::smallestWithIndex;
using metalcpu::accelerate::sum;
using metalcpu::accelerate::strided;

extern "C" {

void vDSP_dotpr(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
                float* result, vDSP_Length count) {
    *result = dot(strided(left, leftStride), strided(right, rightStride), count);
}
void vDSP_dotprD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                 double* result, vDSP_Length count) {
    *result = dot(strided(left, leftStride), strided(right, rightStride), count);
}
void vDSP_sve(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count) {
    *result = sum(strided(input, inputStride), count);
}
void vDSP_sveD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count) {
    *result = sum(strided(input, inputStride), count);
}
void vDSP_svesq(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count) {
    *result = dot(strided(input, inputStride), strided(input, inputStride), count);
}
void vDSP_svesqD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count) {
    *result = dot(strided(input, inputStride), strided(input, inputStride), count);
}
void vDSP_meanv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count) {
    *result = mean(strided(input, inputStride), count);
}
void vDSP_meanvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count) {
    *result = mean(strided(input, inputStride), count);
}
void vDSP_maxv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count) {
    *result = largest(strided(input, inputStride), count);
}
void vDSP_maxvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count) {
    *result = largest(strided(input, inputStride), count);
}
void vDSP_minv(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length count) {
    *result = smallest(strided(input, inputStride), count);
}
void vDSP_minvD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length count) {
    *result = smallest(strided(input, inputStride), count);
}

void vDSP_maxvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index, vDSP_Length count) {
    largestWithIndex(strided(input, inputStride), count, result, index, -std::numeric_limits<float>::infinity());
}
void vDSP_maxviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index, vDSP_Length count) {
    largestWithIndex(strided(input, inputStride), count, result, index, -std::numeric_limits<double>::infinity());
}
void vDSP_minvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index, vDSP_Length count) {
    smallestWithIndex(strided(input, inputStride), count, result, index, std::numeric_limits<float>::infinity());
}
void vDSP_minviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index, vDSP_Length count) {
    smallestWithIndex(strided(input, inputStride), count, result, index, std::numeric_limits<double>::infinity());
}
void vDSP_maxmgvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index, vDSP_Length count) {
    largestWithIndex(strided(input, inputStride), count, result, index, 0.0f, Magnitude{});
}
void vDSP_maxmgviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                   vDSP_Length count) {
    largestWithIndex(strided(input, inputStride), count, result, index, 0.0, Magnitude{});
}
void vDSP_minmgvi(const float* input, vDSP_Stride inputStride, float* result, vDSP_Length* index, vDSP_Length count) {
    smallestWithIndex(strided(input, inputStride), count, result, index, std::numeric_limits<float>::infinity(),
                      Magnitude{});
}
void vDSP_minmgviD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Length* index,
                   vDSP_Length count) {
    smallestWithIndex(strided(input, inputStride), count, result, index, std::numeric_limits<double>::infinity(),
                      Magnitude{});
}

} // extern "C"
