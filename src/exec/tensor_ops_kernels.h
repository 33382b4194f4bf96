// The GEMM microkernels of the tensor-operation executor (tensor_ops.cpp), one translation
// unit each so that each can be built for its instruction set while libmetalcpu stays on the
// baseline ISA; tensor_ops.cpp calls one only after checking the CPU supports it.
#pragma once

namespace metalcpu::exec::gemm {

/// C[0..MR) x [0..NR) (row stride ldc) += A panel x B panel over `depth` steps: the A panel
/// holds MR floats per step, the B panel NR; both zero-padded to full MR / NR. `rows` and
/// `columns` (at most MR, NR) say how much of C exists.
using MicrokernelFn = void (*)(int depth, const float* a, const float* b, float* c, int ldc, int rows, int columns);

struct MicrokernelInfo {
    int mr, nr;
    MicrokernelFn run;
};

MicrokernelInfo genericMicrokernel();
#if defined(__x86_64__)
MicrokernelInfo avx2Microkernel();
MicrokernelInfo avx512Microkernel();
#endif

/// Adds an MR x NR block computed in full into the `rows` x `columns` part of C.
inline void addBlock(const float* block, int nr, float* c, int ldc, int rows, int columns) {
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) c[i * ldc + j] += block[i * nr + j];
}

} // namespace metalcpu::exec::gemm
