#include "compiler/emitter/code_generation.h"

namespace metalcpu::msl {

KernelShape kernelShape(const KernelInfo& kernel) {
    if (kernel.interleavesThreads) return KernelShape::InterleavedLoops;
    if (kernel.usesWorkItemLoops) return KernelShape::WorkItemLoops;
    if (kernel.usesCoroutines || kernel.usesBarriers) return KernelShape::Threads;
    return kernel.loopsInBody ? KernelShape::ThreadLoopOverLoops : KernelShape::ThreadLoop;
}

const char* shapeName(KernelShape shape) {
    switch (shape) {
    case KernelShape::ThreadLoop: return "thread loop";
    case KernelShape::ThreadLoopOverLoops: return "thread loop over loops";
    case KernelShape::WorkItemLoops: return "work-item loops";
    case KernelShape::InterleavedLoops: return "interleaved work-item loops";
    case KernelShape::Threads: return "threads";
    }
    return "";
}

// Measured on the bench kernels (bench/README.md, "Code generation per
// kernel shape"): -O3 against -O2 for every kernel of a shape, median CPU time of alternating
// whole-process runs.
CodeGeneration codeGenerationFor(KernelShape shape) {
    switch (shape) {
    // scale_add: -O3 no faster than -O2 (its one loop vectorises at either).
    case KernelShape::ThreadLoop: return {"", true};
    // mat_mul_naive 0.96x, register_4x4 1.00x, register_8x4 0.97x at -O3: within the noise,
    // and issue 14 saw -O3 halve the 8x4 kernel with a wider ISA. -O2. Their float4 rows
    // are 128-bit work already; in the x86-64-v3 and v4 images GCC widens them to 256 or 512
    // bits with shuffles, and the register-tiled kernels ran slower than in the SSE2 image:
    // vectors of 128 bits at most give those images the baseline's speed back.
    case KernelShape::ThreadLoopOverLoops: return {"", true, true};
    // mat_mul_tiled 0.88x the CPU time at -O3 (0.79-0.90 over 5 pairs): the 16-step tile loop
    // is unrolled and more of each piece vectorises.
    case KernelShape::WorkItemLoops: return {"O3", true};
    // The same bodies as the thread loop over loops, whose float4 rows are 128-bit work.
    case KernelShape::InterleavedLoops: return {"", true, true};
    // One thread at a time: nothing to vectorise across, and nothing measured.
    case KernelShape::Threads: return {"", false};
    }
    return {};
}

std::string codeGenerationFlags(const CodeGeneration& decision) {
    std::string flags;
    if (decision.vectoriseThreads) flags += " | MC_KERNEL_VECTORISED_THREADS";
    if (decision.optimisation == "O3") flags += " | MC_KERNEL_OPTIMISED_O3";
    if (decision.narrowVectors) flags += " | MC_KERNEL_NARROW_VECTORS";
    return flags;
}

} // namespace metalcpu::msl
