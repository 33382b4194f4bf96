#include "jit/compiler_process.h"

#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/process.h"
#include "support/scratch_directories.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace metalcpu::jit {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

/// The bounds of every compiler process (docs/configuration.md, METALCPU_COMPILE_*).
support::ProcessLimits compilerLimits() {
    const support::Config& config = support::config();
    support::ProcessLimits limits;
    limits.cpuSeconds = config.compileTimeout > 0 ? static_cast<unsigned>(config.compileTimeout) : 0;
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

/// "signal 9 (SIGKILL ...)": its name, and who sends it when it is not the compiler's own doing.
std::string signalName(int signal) {
    std::string name = "signal " + std::to_string(signal);
    if (const char* abbreviation = sigabbrev_np(signal)) name += std::string(" (SIG") + abbreviation;
    else return name;
    if (signal == SIGKILL) name += ": most often from the system's out-of-memory killer, when memory runs short";
    return name + ")";
}

} // namespace

std::string failureCause(const std::string& step) { return "error: " + step + ": "; }

CompileResult missingToolchain(const std::string& error) { return CompileResult{false, error + "\n"}; }

std::string inDirectory(const std::string& workingDirectory, const std::string& path) {
    const bool relative = !workingDirectory.empty() && !path.empty() && path[0] != '/';
    return relative ? workingDirectory + "/" + path : path;
}

std::string absoluteIn(const std::string& workingDirectory, const std::string& path) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(inDirectory(workingDirectory, path), error);
    return error ? path : absolute.lexically_normal().string();
}

CompileResult delivered(const std::string& made, const std::string& destination) {
    if (support::moveFile(made, destination)) return CompileResult{true, {}};
    return CompileResult{false, "cannot write " + destination + "\n"};
}

std::uint64_t megabytes(int value) { return value > 0 ? static_cast<std::uint64_t>(value) * kMiB : 0; }

std::uint64_t translatedCodeBytes(std::string_view text) {
    // translated_file.cpp's embedSource(): `static const char metalcpu_<x>_source[] = R"<d>(...)<d>";`.
    constexpr std::string_view kEmbedded = "static const char metalcpu_";
    std::uint64_t embedded = 0;
    for (std::size_t at = text.find(kEmbedded); at != std::string_view::npos; at = text.find(kEmbedded, at + 1)) {
        const std::size_t open = text.find("[] = R\"", at);
        const std::size_t paren = open == std::string_view::npos ? open : text.find('(', open);
        if (paren == std::string_view::npos || text.substr(at, open - at).find('\n') != std::string_view::npos) continue;
        const std::string close = ")" + std::string(text.substr(open + 7, paren - open - 7)) + "\"";
        const std::size_t end = text.find(close, paren);
        if (end == std::string_view::npos) break;
        embedded += end - paren - 1;
        at = end;
    }
    return text.size() - embedded;
}


Scratch::Scratch() : path_(support::makeScratchDirectory("metalcpu-cc-")) {}

Scratch::~Scratch() {
    if (!path_.empty()) support::removeScratchDirectory(path_);
}

CompileResult runCompiler(const Toolchain& tools, const std::vector<std::string>& argv, const std::string& step,
                          const std::string& workingDirectory, const Scratch& scratch,
                          std::vector<std::string> readable, std::uint64_t fileSizeBytes, CompileWork work) {
    if (!scratch.made()) return CompileResult{false, "cannot create a temporary directory\n"};
    support::ProcessLimits limits = compilerLimits();
    // A big file takes long without being pathological (llama.cpp's 650 kB of MSL make 6 MiB
    // of code): the limit grows with it, so that only a compile slow for its size is stopped.
    const std::uint64_t codeBytes = work.codeBytes;
    const std::uint64_t blocks = std::max<std::uint64_t>(1, (codeBytes + kTimeoutCodeBytes - 1) / kTimeoutCodeBytes);
    const std::uint64_t factor = std::max(1u, work.timeFactor);
    limits.cpuSeconds = static_cast<unsigned>(std::min<std::uint64_t>(limits.cpuSeconds * blocks * factor, 1u << 26));
    limits.timeoutSeconds = limits.cpuSeconds * kWallTimePerCpuTime;
    limits.fileSizeBytes = fileSizeBytes;
    readable.insert(readable.end(), tools.programFiles.begin(), tools.programFiles.end());
    limits.files = support::FileAccess{std::move(readable), {scratch.path()}};
    // LC_ALL=C: GCC quotes names with ASCII quotes, as Metal's compiler does, instead of the
    // locale's curly ones, which programs reading the log with NS::ASCIIStringEncoding (VkFFT)
    // would get as NULL.
    support::ProcessResult run =
        support::runProcess(argv, workingDirectory, limits, {"TMPDIR=" + scratch.path(), "LC_ALL=C"});
    if (!run.started) return CompileResult{false, (run.output.empty() ? "cannot run " + argv[0] : run.output) + "\n"};
    // On success the output is the compiler's warnings, if it was asked for any.
    const bool ok = run.exitCode == 0 && !run.timedOut && !run.outOfCpuTime;
    CompileResult made{ok, ok ? run.output : std::string()};
    if (made.ok) return made;
    const support::Config& config = support::config();
    // What ended the compiler, when its output cannot say (a killed compiler prints nothing;
    // a crashed one may print no error): the user must learn it from this message alone.
    const std::string compiler = "the compiler (" + argv[0] + ")";
    const bool silent = run.output.empty();
    std::string cause;
    if (run.outOfCpuTime || run.timedOut) {
        cause = compiler + " did not finish within " +
                (run.outOfCpuTime ? std::to_string(limits.cpuSeconds) + " s of CPU time"
                                  : std::to_string(limits.timeoutSeconds) + " s of wall time (" +
                                        std::to_string(kWallTimePerCpuTime) + " times its CPU time)") +
                " and was stopped" + (silent ? ", having printed nothing" : "");
        const std::string times = factor > 1 ? std::to_string(factor) + " times " : std::string();
        if (blocks > 1)
            cause += " (" + times + "METALCPU_COMPILE_TIMEOUT=" + std::to_string(config.compileTimeout) +
                     " s for each started " + std::to_string(kTimeoutCodeBytes / 1024) + " KiB of the " +
                     std::to_string(codeBytes / 1024) + " KiB of code translated from this source; it raises the " +
                     "limit, 0 removes it)";
        else if (factor > 1)
            cause += " (" + times + "METALCPU_COMPILE_TIMEOUT=" + std::to_string(config.compileTimeout) +
                     " s; it raises the limit, 0 removes it)";
        else
            cause += " (METALCPU_COMPILE_TIMEOUT raises the limit; 0 removes it)";
    }
    else if (limits.addressSpaceBytes && ranOutOfMemory(run.output))
        cause = compiler + " ran out of memory within its limit of " + std::to_string(config.compileMemoryLimit) +
                " MiB (METALCPU_COMPILE_MEMORY_LIMIT raises the limit; 0 removes it)";
    else if (run.signal)
        cause = compiler + " was ended by " + signalName(run.signal) + (silent ? " and printed nothing" : "");
    else if (run.output.find("error") == std::string::npos)
        cause = compiler + " exited with code " + std::to_string(run.exitCode) +
                (silent ? " and printed nothing" : " and printed no error");
    std::string& text = made.diagnostics;
    if (!cause.empty()) text = failureCause(step) + cause + "\n";
    text += run.output;
    if (run.droppedBytes)
        text += "\n[" + std::to_string(run.droppedBytes) + " more bytes of compiler output cut; the first " +
                std::to_string(kDiagnosticsLimit / 1024) + " KiB are shown]\n";
    return made;
}

} // namespace metalcpu::jit
