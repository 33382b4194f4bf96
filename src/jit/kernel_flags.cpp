#include "jit/kernel_flags.h"

#include "jit/isa.h"
#include "support/config.h"

#include <sstream>

namespace metalcpu::jit {
namespace {

std::vector<std::string> splitFlags(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> flags;
    for (std::string flag; in >> flag;) flags.push_back(flag);
    return flags;
}

} // namespace

std::vector<Target> targetsOf(const BuildOptions& build) {
    if (std::string forced = levelInFlags(splitFlags(support::config().kernelFlags)); !forced.empty()) return {{forced}};
    if (build.levels.empty()) return {{hostLevel(), true}};
    std::vector<Target> targets;
    for (const std::string& level : build.levels)
        targets.push_back(level == "native" ? Target{hostLevel(), true} : Target{level});
    return targets;
}

std::vector<std::string> codeFlags(MathMode mode, const Target& target, const BuildOptions& build) {
    std::vector<std::string> flags = {"-std=c++20", build.optimisation, "-fPIC", "-fno-exceptions", "-fno-rtti",
                                      "-fno-threadsafe-statics", "-fno-stack-protector",
                                      "-fvisibility=hidden", "-fno-plt", "-nostdinc",
                                      // `#pragma omp simd` on the loops over a group's threads
                                      // (metalcpu/kernel_support.h); no OpenMP runtime. The
                                      // macro says the pragma is understood (GCC defines none
                                      // for -fopenmp-simd; host code that includes the header
                                      // would warn about an unknown pragma).
                                      "-fopenmp-simd", "-DMETALCPU_OPENMP_SIMD=1",
                                      // A kernel library must unload when released: a GNU
                                      // unique symbol (a default-visibility static in an
                                      // inline function or template) would pin it.
                                      "-fno-gnu-unique",
                                      // Group functions are `flatten`: everything they call,
                                      // the kernel first, is to be inlined into them. IPA-SRA
                                      // turns a function the early inliner did not reach (a
                                      // kernel template instantiated at the end of the file)
                                      // into a clone without a body, which flatten then
                                      // refuses ("SSA form does not match"): 131 of candle
                                      // unary.metal's 150 group functions called their kernel
                                      // once per thread (docs/compiler.md, "Vectorised thread
                                      // loops").
                                      "-fno-ipa-sra",
                                      // Clang's (so Metal's) default error limit: one bad
                                      // template instantiation can otherwise bury its first
                                      // message under hundreds.
                                      "-fmax-errors=20",
                                      // Value numbering (FRE) asks the alias oracle up to 1000
                                      // times per load; in an interleaved kernel's group
                                      // function (eight threads' pieces unrolled, each lane's
                                      // locals in lane_slots) that walk was half of a compile:
                                      // 4.2 of the 8×4 matmul's 8.1 s of GCC 12 CPU time. 100
                                      // queries cut the compile to 3.7 s with the kernels as
                                      // fast as before (docs/compiler.md, "What a compile
                                      // costs").
                                      "--param=sccvn-max-alias-queries-per-access=100"};
    for (const std::string& flag : mathModeFlags(mode)) flags.push_back(flag);
    for (const std::string& flag : levelFlags(target.level, target.tuned)) flags.push_back(flag);
    flags.insert(flags.end(), build.codeFlags.begin(), build.codeFlags.end());
    // Warnings only when asked for, and then only those about the user's lines are shown.
    if (build.warnings) flags.insert(flags.end(), build.warningFlags.begin(), build.warningFlags.end());
    else flags.push_back("-w");
    for (const std::string& extra : splitFlags(support::config().kernelFlags)) flags.push_back(extra);
    return flags;
}

#if defined(__x86_64__)
#define METALCPU_EXACT_VECTOR_DIVISION , "-mrecip=!vec-div"
#else
#define METALCPU_EXACT_VECTOR_DIVISION
#endif

std::vector<std::string> mathModeFlags(MathMode mode) {
    switch (mode) {
    // Metal's fast math never reassociates: sums are added in the order written (a stencil or
    // a reduction gives the GPU's result), where GCC's -ffast-math regroups them
    // ((x + big) - big becomes x; loops of sums are vectorised in another order). Contraction
    // into fma stays allowed, as on the GPU (it only happens where the target has fma).
    //
    // On x86-64, -mrecip=!vec-div keeps GCC from dividing vectors of floats by a reciprocal
    // estimate and a Newton step (rcpps, rcp14ps: each width rounds differently) while it
    // divides scalars exactly: a thread's division then has the same bits whether its thread
    // loop was vectorised, its threads interleaved or run as vector lanes. Measured on the
    // development machine (docs/compiler.md, "Bits of a division"), exact division was no
    // slower: 0.48-0.66 ms against 0.55-0.91 for an elementwise quotient at x86-64-v3/v4.
    case MathMode::Fast:
        return {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast" METALCPU_EXACT_VECTOR_DIVISION};
    case MathMode::Relaxed:
        // Fast math that keeps infinities and NaNs (no __FAST_MATH__ then).
        return {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast", "-fno-finite-math-only"
                METALCPU_EXACT_VECTOR_DIVISION};
    case MathMode::Safe:
        break;
    }
    // IEEE 754 arithmetic: no reassociation, no contraction into fma, NaN, infinities and
    // signed zeros honoured. Kernels have no errno, so math functions need not set it.
    return {"-fno-math-errno", "-ffp-contract=off"};
}

std::vector<std::string> kernelCodeFlags(MathMode mode, const std::string& level, const BuildOptions& build) {
    return codeFlags(mode, Target{level}, build);
}

} // namespace metalcpu::jit
