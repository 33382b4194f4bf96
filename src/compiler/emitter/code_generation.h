// How each kernel's code is generated, chosen per kernel shape by measurement rather than by
// one flag for every kernel (issue 14): the host compiler's optimisation level for the
// kernel's group function and whether its loops over the threads are vectorised.
#pragma once

#include "compiler/translate.h"

#include <string>

namespace metalcpu::msl {

/// What decides how a kernel is best compiled: how its threads run, and what its body does.
enum class KernelShape {
    ThreadLoop,          ///< barrier-free, no loop of its own: elementwise, one lane per thread
    ThreadLoopOverLoops, ///< barrier-free with loops in its body (naive and register-tiled matmuls)
    WorkItemLoops,       ///< split at its barriers into loops over the threads (tiled kernels)
    InterleavedLoops,    ///< barrier-free, its threads interleaved in its uniform loops (register-tiled matmuls)
    Threads,             ///< coroutines or fibers: one thread at a time
};

KernelShape kernelShape(const KernelInfo& kernel);
const char* shapeName(KernelShape shape);

/// The decision for one shape. bench/README.md ("Code generation per kernel shape") has the
/// measurements behind each.
struct CodeGeneration {
    /// The group function's optimisation level as a GCC optimize attribute argument ("O3"),
    /// or empty for the command line's (-O2). Everything inlined into it is compiled so.
    std::string optimisation;
    /// The loops over the group's threads run them as SIMD lanes (`omp simd`,
    /// for_each_thread_in_row): every shape that loops over the threads. Measured off
    /// (-fno-openmp-simd) it made no kernel faster.
    bool vectoriseThreads = true;
    /// The host compiler's vectoriser keeps to 128-bit vectors in the group function
    /// (METALCPU_NARROW_VECTORS, kernel_support.h), whatever the image's ISA level allows.
    bool narrowVectors = false;
};

CodeGeneration codeGenerationFor(KernelShape shape);

/// The mc_kernel flags (MC_KERNEL_VECTORISED_THREADS, MC_KERNEL_OPTIMISED_O3,
/// MC_KERNEL_NARROW_VECTORS) that record a
/// decision, for METALCPU_LOG_LEVEL=debug; "" when none applies.
std::string codeGenerationFlags(const CodeGeneration& decision);

} // namespace metalcpu::msl
