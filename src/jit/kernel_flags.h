// The host compiler's command line for one image of a translated file: the flags every kernel
// compile shares, the math mode's, the instruction-set level's and the build's
// (docs/compiler.md, "Math modes"; docs/tools.md for the build's).
#pragma once

#include "jit/kernel_compiler.h"

#include <string>
#include <vector>

namespace metalcpu::jit {

/// One instruction-set level to compile for: -march=level, and -mtune=native when `tuned`.
struct Target {
    std::string level;
    bool tuned = false;
};

/// The levels `build` asks for (BuildOptions::levels); METALCPU_KERNEL_FLAGS' -march= wins.
std::vector<Target> targetsOf(const BuildOptions& build);

/// Flags every kernel compile shares. The kernel is freestanding C++20: no host headers,
/// no exceptions, no RTTI, no thread-safe statics (they would import from libc). Then the
/// math mode's flags, the level's, the build's (the `metal` tool's -O, -g, -W), then
/// METALCPU_KERNEL_FLAGS, which can override them.
std::vector<std::string> codeFlags(MathMode mode, const Target& target, const BuildOptions& build);

} // namespace metalcpu::jit
