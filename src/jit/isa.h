// The instruction-set levels kernels are compiled for, and which of them this CPU runs: a
// .metallib carries an image per level and the loader takes the best this CPU runs; kernels
// compiled at run time target the best level (docs/kernel-abi.md, "The library file").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

/// This architecture's levels, worst first: x86-64, x86-64-v2, x86-64-v3, x86-64-v4 on
/// x86-64 (GCC's -march names, and __builtin_cpu_supports' since GCC 12); armv8-a alone on
/// AArch64, where no named level above the baseline is common to the CPUs.
const std::vector<std::string>& knownLevels();

/// The level every CPU of this architecture runs: x86-64, armv8-a.
const std::string& baselineLevel();

/// The levels a library the tools build carries by default: the baseline, x86-64-v3 (AVX2,
/// FMA) and x86-64-v4 (AVX-512). v2 is left out: it adds no vector width over the baseline.
const std::vector<std::string>& defaultLevels();

/// Whether this CPU and its operating system run code compiled for `level`, and
/// METALCPU_KERNEL_ISA (a ceiling for tests and benchmarks) allows it. False for a level this
/// metalcpu does not know (a newer metalcpu's, or another architecture's).
bool cpuRuns(std::string_view level);

/// The best level of knownLevels() that cpuRuns(): what newLibrary(source) compiles for.
std::string hostLevel();

/// The host compiler's flags for code of `level`; with `tunedForHost` tuned for this CPU
/// too (-mtune=native), as kernels compiled at run time are.
std::vector<std::string> levelFlags(const std::string& level, bool tunedForHost);

/// What kernels compiled at run time are compiled for, as a cache key takes it: the host
/// level and this CPU's name (its tuning); a cache shared by two machines keeps one entry
/// for each.
std::string hostTarget();

/// The level code compiled with `flags` (METALCPU_KERNEL_FLAGS) needs, by their last -march=
/// or -mcpu=: a known level as it is; native or a CPU's name as hostLevel() (code for this
/// machine: another CPU of its level may lack an extension it uses); empty without one.
std::string levelInFlags(const std::vector<std::string>& flags);

} // namespace metalcpu::jit
