#include "exec/tensor_ops_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

namespace metalcpu::exec::gemm {

// Eight halves per VCVTPH2PS; the tail one at a time with the scalar form of the instruction.
__attribute__((target("f16c,avx2"))) void widenHalvesF16c(const std::uint16_t* in, float* out, std::int64_t count) {
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
    for (; i < count; ++i) out[i] = _cvtsh_ss(in[i]);
}

__attribute__((target("f16c,avx2"))) void narrowFloatsF16c(const float* in, std::uint16_t* out, std::int64_t count) {
    std::int64_t i = 0;
    for (; i + 8 <= count; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    for (; i < count; ++i) out[i] = _cvtss_sh(in[i], _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

} // namespace metalcpu::exec::gemm
#endif
