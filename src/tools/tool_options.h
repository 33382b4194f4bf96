#pragma once

#include "jit/kernel_compiler.h"

#include <string>
#include <vector>

namespace metalcpu::tools {

/// The command line of `metal`, in the spellings Apple's tool accepts.
struct MetalOptions {
    bool compileOnly = false;              ///< -c: write an .air per input
    std::vector<std::string> inputs;       ///< .metal files (or .air files to link)
    std::string output;                    ///< -o
    std::vector<std::string> includeDirectories; ///< -I dir, -Idir
    std::vector<std::string> macros;       ///< -D NAME[=VALUE]
    int languageVersion = 320;             ///< -std=metal3.2, -std=macos-metal2.4, ...
    /// -ffast-math (fast, fast), -fno-fast-math (safe, precise), -fmetal-math-mode=fast|relaxed|safe,
    /// -fmetal-math-fp32-functions=fast|precise; the last one given wins.
    jit::MathMode mathMode = jit::MathMode::Fast;
    jit::MathFunctions mathFunctions = jit::MathFunctions::Fast;
    std::string depfile;                   ///< -MF (with -MD or -MMD)
    std::string depTarget;                 ///< -MT
    bool help = false;
    std::string error;                     ///< set when the command line is wrong
};

/// Parses `metal` arguments (argv without the program name). Flags Apple's compiler
/// accepts that do not change the result here (-g, -O2, -frecord-sources, -W…, -mmacos-version-min=…)
/// are accepted and ignored.
MetalOptions parseMetalOptions(const std::vector<std::string>& arguments);

/// __METAL_VERSION__ for a -std= value ("metal3.1" -> 310), or -1 when unknown.
int languageVersionOf(const std::string& standard);

} // namespace metalcpu::tools
