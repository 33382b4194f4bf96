#include "jit/cache_directory.h"
#include "jit/compiler_process.h"
#include "jit/kernel_compiler.h"
#include "jit/toolchain.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <algorithm>
#include <optional>
#include <sstream>

namespace metalcpu::jit {
namespace {

/// The first line of a file that keeps which warning flags a compiler knows: a file without it
/// (of another format, or damaged) is not read, and the compiler is asked again.
constexpr std::string_view kWarningAnswerHeader = "metalcpu warning flags 1\n";

/// Where what the compiler of `tools` answered about `flags` is kept: a file in the cache's
/// warning-flags/ named by a hash of the compiler's identity (path, size and time stamp: an
/// upgraded compiler is asked again), metalcpu's version and sources, and the flags in their
/// order. Empty when that directory cannot be used; then the compiler is asked every time.
std::string warningAnswerPath(const Toolchain& tools, const std::vector<std::string>& flags) {
    std::string error;
    if (!prepareCacheSubdirectory(tools.warningFlagsDir, &error)) {
        support::log().debug("warning flags are not kept: {}", error);
        return {};
    }
    support::Hasher key;
    key.add(tools.identity).add(libraryVersion()).add(translatorIdentity());
    for (const std::string& flag : flags) key.add(flag);
    return tools.warningFlagsDir + "/" + key.hex();
}

/// The kept answer at `path`: for each of `flags`, whether the compiler knows it. nullopt when
/// there is none, or it cannot be read, or it is about other flags; the compiler is then asked.
/// Whatever the file says, only the flags the user gave can reach the compiler.
std::optional<std::vector<bool>> keptWarningAnswer(const std::string& path, const std::vector<std::string>& flags) {
    std::optional<std::string> text = support::readFile(path);
    if (!text || !text->starts_with(kWarningAnswerHeader)) return std::nullopt;
    std::istringstream lines(text->substr(kWarningAnswerHeader.size()));
    std::vector<bool> known;
    for (std::string line; std::getline(lines, line);) {
        const std::size_t i = known.size();
        if (i < flags.size() && line == "known " + flags[i]) known.push_back(true);
        else if (i < flags.size() && line == "unknown " + flags[i]) known.push_back(false);
        else return std::nullopt;
    }
    if (known.size() != flags.size()) return std::nullopt;
    return known;
}

/// Asks the compiler which of `flags` it knows: one run on an empty file. nullopt when it gave
/// no answer (it could not run, or failed without naming a flag).
std::optional<std::vector<bool>> askWarningFlags(const Toolchain& tools, const std::vector<std::string>& flags) {
    Scratch scratch;
    const std::string empty = scratch.file("empty.cpp");
    if (!support::writeFileAtomically(empty, "")) return std::nullopt;
    std::vector<std::string> argv = {tools.compiler, "-x", "c++", "-fsyntax-only"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back(empty);
    support::log().debug("asking {} which of {} warning flags it knows", tools.compiler, flags.size());
    CompileResult probe =
        runCompiler(tools, argv, "asking the compiler which warning flags it knows", {}, scratch, {empty});
    std::vector<bool> known;
    for (const std::string& flag : flags) {
        // GCC: "unrecognized command-line option '-Wx'" (an error); Clang: "unknown warning
        // option '-Wx'"; GCC for a C-only warning: "command-line option '-Wx' is valid for C".
        bool mentioned = false;
        for (const char* quote : {"'", "\xE2\x80\x99"})
            mentioned = mentioned || probe.diagnostics.find(flag + quote) != std::string::npos;
        known.push_back(!mentioned);
    }
    if (!probe.ok && std::find(known.begin(), known.end(), false) == known.end()) return std::nullopt;
    return known;
}

} // namespace

std::vector<std::string> knownWarningFlags(const std::vector<std::string>& flags, std::vector<std::string>* unknown) {
    std::string error;
    std::shared_ptr<const Toolchain> tools = toolchain(&error);
    if (flags.empty() || !tools) return flags;
    // A build runs metal once per source with the same flags: the compiler is asked once.
    const std::string kept = warningAnswerPath(*tools, flags);
    std::optional<std::vector<bool>> known = kept.empty() ? std::nullopt : keptWarningAnswer(kept, flags);
    if (!known) {
        // Without an answer every flag goes to the compiler, which then says what is wrong.
        known = askWarningFlags(*tools, flags);
        if (!known) return flags;
        std::string answer(kWarningAnswerHeader);
        for (std::size_t i = 0; i < flags.size(); ++i) answer += ((*known)[i] ? "known " : "unknown ") + flags[i] + "\n";
        // Not kept (a full disk): asked again next time.
        if (!kept.empty()) support::writeFileAtomically(kept, answer);
    }
    std::vector<std::string> result;
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if ((*known)[i]) result.push_back(flags[i]);
        else if (unknown) unknown->push_back(flags[i]);
    }
    return result;
}

} // namespace metalcpu::jit
