#include "jit/compiler_process.h"

#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/process.h"

namespace metalcpu::jit {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

/// The bounds of every compiler process (docs/configuration.md, METALCPU_COMPILE_*).
support::ProcessLimits compilerLimits() {
    const support::Config& config = support::config();
    support::ProcessLimits limits;
    limits.timeoutSeconds = config.compileTimeout > 0 ? static_cast<unsigned>(config.compileTimeout) : 0;
    limits.addressSpaceBytes = megabytes(config.compileMemoryLimit);
    limits.outputBytes = kDiagnosticsLimit;
    return limits;
}

/// Whether a failed compiler's output says it ran out of memory (GCC, Clang, a C++ runtime).
bool ranOutOfMemory(const std::string& output) {
    for (const char* sign : {"memory exhausted", "out of memory", "Cannot allocate memory", "bad_alloc"})
        if (output.find(sign) != std::string::npos) return true;
    return false;
}

} // namespace

std::uint64_t megabytes(int value) { return value > 0 ? static_cast<std::uint64_t>(value) * kMiB : 0; }

Scratch::Scratch() : path_(support::makeTemporaryDirectory("metalcpu-cc-")) {}

Scratch::~Scratch() {
    if (!path_.empty()) support::removeTree(path_);
}

CompileResult runCompiler(const Toolchain& tools, const std::vector<std::string>& argv,
                          const std::string& workingDirectory, const Scratch& scratch,
                          std::vector<std::string> readable, std::uint64_t fileSizeBytes) {
    if (!scratch.made()) return CompileResult{false, "cannot create a temporary directory\n"};
    support::ProcessLimits limits = compilerLimits();
    limits.fileSizeBytes = fileSizeBytes;
    readable.insert(readable.end(), tools.programFiles.begin(), tools.programFiles.end());
    limits.files = support::FileAccess{std::move(readable), {scratch.path()}};
    support::ProcessResult run = support::runProcess(argv, workingDirectory, limits, {"TMPDIR=" + scratch.path()});
    if (!run.started) return CompileResult{false, (run.output.empty() ? "cannot run " + argv[0] : run.output) + "\n"};
    // On success the output is the compiler's warnings, if it was asked for any.
    const bool ok = run.exitCode == 0 && !run.timedOut;
    CompileResult made{ok, ok ? run.output : std::string()};
    if (made.ok) return made;
    const support::Config& config = support::config();
    std::string& text = made.diagnostics;
    if (run.timedOut)
        text = "error: the compiler did not finish within " + std::to_string(limits.timeoutSeconds) +
               " s and was stopped (METALCPU_COMPILE_TIMEOUT raises the limit; 0 removes it)\n";
    else if (limits.addressSpaceBytes && ranOutOfMemory(run.output))
        text = "error: the compiler ran out of memory within its limit of " + std::to_string(config.compileMemoryLimit) +
               " MiB (METALCPU_COMPILE_MEMORY_LIMIT raises the limit; 0 removes it)\n";
    else if (run.signal)
        text = "error: the compiler was ended by signal " + std::to_string(run.signal) + "\n";
    text += run.output;
    if (run.droppedBytes)
        text += "\n[" + std::to_string(run.droppedBytes) + " more bytes of compiler output cut; the first " +
                std::to_string(kDiagnosticsLimit / 1024) + " KiB are shown]\n";
    return made;
}

} // namespace metalcpu::jit
