/* <Accelerate/Accelerate.h> is C, as Apple's is: compiled alone as C11 with warnings as errors
 * (tests/accelerate/CMakeLists.txt, accelerate.header_is_c). */
#include <Accelerate/Accelerate.h>

float firstOfProduct(const float* left, const float* right, float* result) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, left, 2, right, 2, 0.0f, result, 2);
    vDSP_vsmul(result, 1, &result[3], result, 1, 4);
    return result[0];
}
