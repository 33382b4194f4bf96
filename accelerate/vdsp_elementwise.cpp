// vDSP's element-wise functions (accelerate/README.md). Each float function and its double
// twin (suffix D) apply one operation through map() (strided.h).

#include "strided.h"

#include <cmath>
#include <functional>

namespace metalcpu::accelerate {
namespace {

template <class T>
void ramp(T start, T step, Strided<T> result, vDSP_Length count) {
    withElements(result, [&](auto elements) {
        for (vDSP_Length i = 0; i < count; ++i) elements[i] = start + static_cast<T>(i) * step;
    });
}

} // namespace
} // namespace metalcpu::accelerate

using metalcpu::accelerate::map;
using metalcpu::accelerate::ramp;
using metalcpu::accelerate::strided;

extern "C" {

void vDSP_vadd(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::plus<>(), strided(left, leftStride), strided(right, rightStride));
}
void vDSP_vaddD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::plus<>(), strided(left, leftStride), strided(right, rightStride));
}
void vDSP_vmul(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
               float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::multiplies<>(),
        strided(left, leftStride), strided(right, rightStride));
}
void vDSP_vmulD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
                double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::multiplies<>(),
        strided(left, leftStride), strided(right, rightStride));
}
void vDSP_vsub(const float* subtrahend, vDSP_Stride subtrahendStride, const float* minuend,
               vDSP_Stride minuendStride, float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::minus<>(),
        strided(minuend, minuendStride), strided(subtrahend, subtrahendStride));
}
void vDSP_vsubD(const double* subtrahend, vDSP_Stride subtrahendStride, const double* minuend,
                vDSP_Stride minuendStride, double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::minus<>(),
        strided(minuend, minuendStride), strided(subtrahend, subtrahendStride));
}
void vDSP_vdiv(const float* divisor, vDSP_Stride divisorStride, const float* dividend,
               vDSP_Stride dividendStride, float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::divides<>(),
        strided(dividend, dividendStride), strided(divisor, divisorStride));
}
void vDSP_vdivD(const double* divisor, vDSP_Stride divisorStride, const double* dividend,
                vDSP_Stride dividendStride, double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, std::divides<>(),
        strided(dividend, dividendStride), strided(divisor, divisorStride));
}
void vDSP_vsadd(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x + value; },
        strided(input, inputStride));
}
void vDSP_vsaddD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x + value; },
        strided(input, inputStride));
}
void vDSP_vsmul(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x * value; },
        strided(input, inputStride));
}
void vDSP_vsmulD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x * value; },
        strided(input, inputStride));
}
void vDSP_vsdiv(const float* input, vDSP_Stride inputStride, const float* scalar, float* result,
                vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x / value; },
        strided(input, inputStride));
}
void vDSP_vsdivD(const double* input, vDSP_Stride inputStride, const double* scalar, double* result,
                 vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x) { return x / value; },
        strided(input, inputStride));
}
void vDSP_vsma(const float* input, vDSP_Stride inputStride, const float* scalar, const float* addend,
               vDSP_Stride addendStride, float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x, auto y) { return x * value + y; },
        strided(input, inputStride), strided(addend, addendStride));
}
void vDSP_vsmaD(const double* input, vDSP_Stride inputStride, const double* scalar, const double* addend,
                vDSP_Stride addendStride, double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar](auto x, auto y) { return x * value + y; },
        strided(input, inputStride), strided(addend, addendStride));
}
void vDSP_vma(const float* left, vDSP_Stride leftStride, const float* right, vDSP_Stride rightStride,
              const float* addend, vDSP_Stride addendStride, float* result, vDSP_Stride resultStride,
              vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x, auto y, auto z) { return x * y + z; },
        strided(left, leftStride), strided(right, rightStride), strided(addend, addendStride));
}
void vDSP_vmaD(const double* left, vDSP_Stride leftStride, const double* right, vDSP_Stride rightStride,
               const double* addend, vDSP_Stride addendStride, double* result, vDSP_Stride resultStride,
               vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x, auto y, auto z) { return x * y + z; },
        strided(left, leftStride), strided(right, rightStride), strided(addend, addendStride));
}
void vDSP_vneg(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
               vDSP_Length count) {
    map(strided(result, resultStride), count, std::negate<>(), strided(input, inputStride));
}
void vDSP_vnegD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                vDSP_Length count) {
    map(strided(result, resultStride), count, std::negate<>(), strided(input, inputStride));
}
void vDSP_vabs(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
               vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x) { return std::fabs(x); }, strided(input, inputStride));
}
void vDSP_vabsD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
                vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x) { return std::fabs(x); }, strided(input, inputStride));
}
void vDSP_vsq(const float* input, vDSP_Stride inputStride, float* result, vDSP_Stride resultStride,
              vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x) { return x * x; }, strided(input, inputStride));
}
void vDSP_vsqD(const double* input, vDSP_Stride inputStride, double* result, vDSP_Stride resultStride,
               vDSP_Length count) {
    map(strided(result, resultStride), count, [](auto x) { return x * x; }, strided(input, inputStride));
}
void vDSP_vfill(const float* scalar, float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar] { return value; });
}
void vDSP_vfillD(const double* scalar, double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [value = *scalar] { return value; });
}
void vDSP_vclr(float* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [] { return 0; });
}
void vDSP_vclrD(double* result, vDSP_Stride resultStride, vDSP_Length count) {
    map(strided(result, resultStride), count, [] { return 0; });
}
void vDSP_vramp(const float* start, const float* step, float* result, vDSP_Stride resultStride,
                vDSP_Length count) {
    ramp(*start, *step, strided(result, resultStride), count);
}
void vDSP_vrampD(const double* start, const double* step, double* result, vDSP_Stride resultStride,
                 vDSP_Length count) {
    ramp(*start, *step, strided(result, resultStride), count);
}

} // extern "C"
