// The command lines of `metal` and `metallib`, in the spellings Apple's tools accept, so that
// Makefiles and build scripts written for macOS run unchanged (docs/tools.md lists every flag).
#pragma once

#include "jit/isa.h"
#include "jit/kernel_compiler.h"

#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::tools {

/// What one `metal` run does; the flags that stop earlier win (-E and -M over -fsyntax-only,
/// over -c, over linking).
enum class MetalAction {
    Link,         ///< compile every source and link everything into a .metallib
    Compile,      ///< -c: one .air per source
    SyntaxOnly,   ///< -fsyntax-only: check, write nothing
    Preprocess,   ///< -E: write the preprocessed source
    Dependencies, ///< -M, -MM: write the make rule, nothing else
};

struct MetalInput {
    std::string path; ///< "-" for standard input
    bool source = false; ///< Metal source (.metal, standard input, or after -x metal); else an object or archive
};

/// -MD, -MMD, -M, -MM, -MF, -MT, -MQ, -MP.
struct DependencyOptions {
    bool write = false;             ///< any of -MD, -MMD, -M, -MM
    bool userHeadersOnly = false;   ///< -MMD, -MM: headers of -isystem directories left out
    std::string file;               ///< -MF
    std::vector<std::string> targets; ///< -MT as written, -MQ quoted for make
    bool phonyTargets = false;      ///< -MP
};

/// -w, -W..., -Werror.
struct WarningOptions {
    bool suppressed = false;             ///< -w: no warning is shown, none is an error
    std::vector<std::string> hostFlags;  ///< -Wall, -Wno-x, -Wx (also from -Werror=x) for the host compiler
    bool allAreErrors = false;           ///< -Werror (-Wno-error undoes it)
    std::vector<std::string> errors;     ///< -Werror=x: x
    std::vector<std::string> notErrors;  ///< -Wno-error=x: x
};

/// The command line of `metal`.
struct MetalOptions {
    MetalAction action = MetalAction::Link;
    std::vector<MetalInput> inputs;
    std::string output;                  ///< -o
    /// -I, -iquote, -isystem, -include, -D, -U, -std=, and the math-mode flags (the last one
    /// given wins). -D and -U apply in the order given.
    jit::KernelCompileSettings settings;
    DependencyOptions dependencies;
    WarningOptions warnings;
    std::string optimisation = "-O2";    ///< -O0 ... -O3, -Os, -Oz (as -Os), -Ofast (as -O3)
    std::vector<std::string> codeFlags;  ///< -g, -gline-tables-only and -frecord-sources (as -g1), -fno-inline
    std::vector<std::string> levels = jit::defaultLevels(); ///< -march=, -mcpu=: one level, or "native"
    bool help = false;                   ///< -h, --help
    bool version = false;                ///< --version
    bool verbose = false;                ///< -v: the version, and which flags were ignored
    std::vector<std::string> ignored;    ///< flags accepted without effect, for -v
    std::string error;                   ///< set when the command line is wrong
};

/// Parses `metal` arguments (argv without the program name; @file already expanded).
/// A flag that is neither known nor documented as ignored is an error, never an input file.
MetalOptions parseMetalOptions(const std::vector<std::string>& arguments);

/// The command line of `metallib`.
struct MetallibOptions {
    std::vector<std::string> inputs; ///< .air objects and archives of them
    std::string output = "default.metallib"; ///< -o; Apple's default without it
    bool help = false;
    bool version = false; ///< --version, -v
    std::string error;
};

MetallibOptions parseMetallibOptions(const std::vector<std::string>& arguments);

/// One line of `metal --help` and of docs/tools.md's flag table: the spelling (with its value's
/// name: "-I <dir>", "-std=<version>") and what it does here.
struct FlagHelp {
    std::string_view spelling; ///< as matched: "-I", "-std="
    std::string usage;         ///< with its value: "-I <dir>", "-std=<version>"
    std::string_view meaning;
};

/// Every flag `metal` accepts, in the order of its help text.
const std::vector<FlagHelp>& metalFlags();

/// __METAL_VERSION__ for a -std= value ("metal3.1" -> 310), or -1 when unknown.
int languageVersionOf(const std::string& standard);

} // namespace metalcpu::tools
