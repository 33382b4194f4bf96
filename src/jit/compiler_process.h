#pragma once

#include "jit/kernel_compiler.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

struct Toolchain;

/// A limit from the configuration, in MiB, as bytes; 0 (no limit) for 0 or less.
std::uint64_t megabytes(int value);

/// A private directory that one compiler process writes into and has as its TMPDIR,
/// removed with everything in it: a compiler killed at a limit cannot remove its temporary
/// files itself, and a confined compiler may write nowhere else. What it makes for others
/// is moved out of it.
class Scratch {
public:
    Scratch();
    ~Scratch();
    bool made() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    std::string file(const char* name) const { return path_ + "/" + name; }

    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

private:
    std::string path_;
};

/// The result of a compile that found no toolchain (toolchain()'s `error`).
CompileResult missingToolchain(const std::string& error);

/// `path` as seen from this process when a compiler running in `workingDirectory` names it.
std::string inDirectory(const std::string& workingDirectory, const std::string& path);

/// `path` (as a compiler running in `workingDirectory` names it) made absolute, for a rule of
/// its confinement.
std::string absoluteIn(const std::string& workingDirectory, const std::string& path);

/// Moves what a compiler made in its scratch directory to where it was asked for.
CompileResult delivered(const std::string& made, const std::string& destination);

/// How much translated code one METALCPU_COMPILE_TIMEOUT covers: a compile of a larger file
/// may take that many seconds per started block of this size.
inline constexpr std::uint64_t kTimeoutCodeBytes = 512 * 1024;

/// METALCPU_COMPILE_TIMEOUT is CPU time, which a machine busy with other work does not
/// make run out (a test suite's compiles beside a parallel build); a compiler that waits
/// instead of computing is stopped after this many times as much wall time.
inline constexpr unsigned kWallTimePerCpuTime = 10;

/// How many times a plain compile's CPU time limit (METALCPU_COMPILE_TIMEOUT) a compile of a
/// shader-validation flavour may take: its instrumented code, at -O3 with the group function
/// flattened, costs several times the plain code's compile. The SIMD-group tests'
/// every_function_split: 141-151 s of CPU for its flavour alone, against 80-84 s for the plain
/// compile of it and its twin (bench/README.md, "Compile time of a validated work-item-loop kernel").
inline constexpr unsigned kValidationCompileTimeFactor = 3;

/// What a compile of a translated file is, for its CPU time limit: the size of its code (its
/// translatedCodeBytes()), and how many times METALCPU_COMPILE_TIMEOUT a block of it may take
/// (BuildOptions::compileTimeFactor: more for a shader-validation flavour).
struct CompileWork {
    std::uint64_t codeBytes = 0;
    unsigned timeFactor = 1;
};

/// The bytes of `translatedCpp` that are code: all but the text of the sources it carries
/// embedded as string literals (the specialisation and validation flavours, which the host
/// compiler copies without compiling).
std::uint64_t translatedCodeBytes(std::string_view translatedCpp);

/// Runs one compiler process within the limits of docs/configuration.md (METALCPU_COMPILE_*;
/// plus `fileSizeBytes`, the largest file it may write), confined to reading its toolchain
/// and `readable`, and to writing in `scratch`. For the compile of a translated file, `work`
/// says what it is: the CPU time limit is `work.timeFactor` times METALCPU_COMPILE_TIMEOUT per
/// started kTimeoutCodeBytes of its code (and the wall time limit kWallTimePerCpuTime times that).
/// When it fails, its output, cut at kDiagnosticsLimit, is the diagnostics; but when the
/// output cannot say why (a limit stopped the compiler, a signal ended it, or it printed no
/// error), they start with failureCause(): `step` (what the process was doing: "compiling
/// program_source for x86-64-v3") and what ended it.
CompileResult runCompiler(const Toolchain& tools, const std::vector<std::string>& argv, const std::string& step,
                          const std::string& workingDirectory, const Scratch& scratch,
                          std::vector<std::string> readable, std::uint64_t fileSizeBytes = 0,
                          CompileWork work = {});

/// How diagnostics of runCompiler() begin when the compiler's own output cannot say why it
/// failed: "error: <step>: " (the rest of the line says what ended it).
std::string failureCause(const std::string& step);

} // namespace metalcpu::jit
