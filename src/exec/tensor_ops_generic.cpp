#include "exec/tensor_ops_kernels.h"

namespace metalcpu::exec::gemm {
namespace {

constexpr int kMr = 4, kNr = 16;

// Plain C++ the compiler vectorises for whatever the baseline ISA is (SSE2, NEON).
void generic(int depth, const float* a, const float* b, float* c, int ldc, int rows, int columns) {
    float block[kMr * kNr] = {};
    for (int p = 0; p < depth; ++p, a += kMr, b += kNr)
        for (int i = 0; i < kMr; ++i)
            for (int j = 0; j < kNr; ++j) block[i * kNr + j] += a[i] * b[j];
    addBlock(block, kNr, c, ldc, rows, columns);
}

void genericInteger(int depth, const std::int32_t* a, const std::int32_t* b, std::uint32_t* c, int ldc, int rows,
                    int columns) {
    std::uint32_t block[kMr * kNr] = {};
    for (int p = 0; p < depth; ++p, a += kMr, b += kNr)
        for (int i = 0; i < kMr; ++i)
            for (int j = 0; j < kNr; ++j) block[i * kNr + j] += std::uint32_t(a[i]) * std::uint32_t(b[j]);
    addBlock(block, kNr, c, ldc, rows, columns);
}

} // namespace

MicrokernelInfo genericMicrokernel() { return {kMr, kNr, &generic}; }
IntegerMicrokernelInfo genericIntegerMicrokernel() { return {kMr, kNr, &genericInteger}; }

} // namespace metalcpu::exec::gemm
