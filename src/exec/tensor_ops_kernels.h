// The GEMM microkernels of the tensor-operation executor (tensor_ops.cpp), one translation
// unit each so that each can be built for its instruction set while libmetalcpu stays on the
// baseline ISA; tensor_ops.cpp calls one only after checking the CPU supports it.
#pragma once

#include <cstdint>

namespace metalcpu::exec::gemm {

/// C[0..MR) x [0..NR) (row stride ldc) += A panel x B panel over `depth` steps: the A panel
/// holds MR floats per step, the B panel NR; both zero-padded to full MR / NR. `rows` and
/// `columns` (at most MR, NR) say how much of C exists.
using MicrokernelFn = void (*)(int depth, const float* a, const float* b, float* c, int ldc, int rows, int columns);

struct MicrokernelInfo {
    int mr, nr;
    MicrokernelFn run;
};

/// The same for exact integer products: panels of int32 (widened int8/uint8/int32 elements),
/// C of uint32 so that sums wrap as Metal's int does.
using IntegerMicrokernelFn = void (*)(int depth, const std::int32_t* a, const std::int32_t* b, std::uint32_t* c,
                                      int ldc, int rows, int columns);

struct IntegerMicrokernelInfo {
    int mr, nr;
    IntegerMicrokernelFn run;
};

MicrokernelInfo genericMicrokernel();
IntegerMicrokernelInfo genericIntegerMicrokernel();
#if defined(__x86_64__)
MicrokernelInfo avx2Microkernel();
IntegerMicrokernelInfo avx2IntegerMicrokernel();
MicrokernelInfo avx512Microkernel();
/// `count` IEEE halves (their bits) as floats with F16C (tensor_ops_f16c.cpp); call only on
/// CPUs with f16c and avx2.
void widenHalvesF16c(const std::uint16_t* in, float* out, std::int64_t count);
/// `count` floats rounded to halves (to nearest, ties to even) with F16C.
void narrowFloatsF16c(const float* in, std::uint16_t* out, std::int64_t count);
#endif

/// Adds an MR x NR block computed in full into the `rows` x `columns` part of C.
template <class T>
inline void addBlock(const T* block, int nr, T* c, int ldc, int rows, int columns) {
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) c[i * ldc + j] += block[i * nr + j];
}

} // namespace metalcpu::exec::gemm
