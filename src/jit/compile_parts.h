// A translated file compiled in parts: nearly all of a big file's compile is GCC optimising
// its kernels, one after another in one process, so a file of several kernels is compiled
// by several processes at once, each building some of its kernels from the whole text, and
// their objects are linked into the image (docs/architecture.md, "Compiling in parts").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::jit {

/// The preamble line of a translated file that lists its kernels by selector
/// (msl::kernelSelector() of each host name): each kernel's entry-point code sits under its
/// METALCPU_SELECTS_KERNEL, so that a part can leave it out. Empty without kernels.
std::string kernelSelectorsPreamble(const std::vector<std::string>& hostNames);

/// The selectors kernelSelectorsPreamble() recorded in the preamble at the start of
/// `translatedCpp`; empty when there is none (a text translated by an older metalcpu).
std::vector<std::string> recordedKernelSelectors(const std::string& translatedCpp);

/// The host names of the kernels `selectors` (recordedKernelSelectors()) stand for in
/// `translatedCpp`, read from the kernel symbol (msl::kernelSymbol()) each one selects, for
/// messages about a part; a selector whose symbol is not found stands for itself.
std::vector<std::string> kernelNames(const std::string& translatedCpp, const std::vector<std::string>& selectors);

/// Translated code (translatedCodeBytes()) below this is compiled by one process per image: a
/// further process parses the whole file again (a few tenths of a second of CPU) for too
/// little code of its own to gain by it.
inline constexpr std::uint64_t kPartCodeBytes = 64 * 1024;

/// How many compiler processes one compile may run at once: METALCPU_COMPILE_JOBS, else the
/// CPUs this process may run on.
std::size_t compileJobs();

/// The kernels (selectors) of each part of `translatedCpp` when `jobs` processes compile it
/// for `images` images: as many parts as jobs per image, at most one per kernel, kernels
/// dealt out in turn (a file's neighbouring kernels are often one template's instances of
/// like cost). Fewer than two parts (returned empty): the file is compiled whole, as it is
/// when its code is below kPartCodeBytes, its preamble lists no kernels, or it is compiled for
/// one kernel (METALCPU_ONLY_KERNEL: a specialised pipeline, one kernel's validation).
std::vector<std::vector<std::string>> compileParts(const std::string& translatedCpp, std::size_t images,
                                                   std::uint64_t codeBytes, std::size_t jobs);

/// `translatedCpp` building only the kernels `selectors` (METALCPU_IN_PARTITION after the
/// prelude). The texts the file carries (shader-validation, specialisation) are kept by the
/// `first` part alone, each under a hidden symbol named after the file's text, which the other
/// parts' modules point at: every module of the file has them, as a kernel's validated and
/// specialised pipelines need, and the library holds each once (KernelLibrary compiles a
/// validation text once however many modules point at it).
std::string partSource(const std::string& translatedCpp, const std::vector<std::string>& selectors, bool first);

} // namespace metalcpu::jit
