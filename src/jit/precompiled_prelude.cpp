#include "jit/precompiled_prelude.h"

#include "compiler/translate.h"
#include "jit/cache_directory.h"
#include "jit/cache_sweep.h"
#include "jit/compiler_process.h"
#include "jit/toolchain.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/log.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>

namespace metalcpu::jit {
namespace {

/// The name the header is precompiled under: the "included from" lines of a message about
/// the prelude's code quote it.
constexpr std::string_view kHeaderName = "metalcpu_precompiled_prelude.h";

/// What the compiler says it is (`--version`), once per compiler a process uses.
struct CompilerVersion {
    bool gcc = false;
    std::string text;
};

CompilerVersion compilerVersion(const Toolchain& tools) {
    static std::mutex mutex;
    static std::map<std::string, CompilerVersion> known;
    std::lock_guard lock(mutex);
    if (auto found = known.find(tools.identity); found != known.end()) return found->second;
    Scratch scratch;
    CompileResult answer =
        runCompiler(tools, {tools.compiler, "--version"}, "asking the compiler its version", {}, scratch, {});
    CompilerVersion version;
    version.text = answer.ok ? answer.diagnostics : std::string();
    // GCC's banner names its copyright holder; Clang's (which also answers to g++ on some
    // systems) names itself.
    version.gcc = version.text.find("Free Software Foundation") != std::string::npos &&
                  version.text.find("clang") == std::string::npos;
    return known.emplace(tools.identity, version).first->second;
}

/// The keys of precompiled preludes this process could not make or the compiler refused:
/// their compiles go without, and no time is spent making them again.
class UnusableKeys {
public:
    bool contains(const std::string& key) {
        std::lock_guard lock(mutex_);
        return keys_.count(key) != 0;
    }
    void add(const std::string& key) {
        std::lock_guard lock(mutex_);
        keys_.insert(key);
    }

private:
    std::mutex mutex_;
    std::set<std::string> keys_;
};
UnusableKeys& unusableKeys() {
    static UnusableKeys keys;
    return keys;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

} // namespace

std::optional<std::string> preludeHeader(std::string_view translatedHead) {
    const std::size_t end = translatedHead.find(msl::kPreludeInclude);
    if (end == std::string_view::npos || (end > 0 && translatedHead[end - 1] != '\n')) return std::nullopt;
    std::string header;
    for (std::size_t at = 0; at < end;) {
        const std::size_t next = translatedHead.find('\n', at) + 1;
        const std::string_view line = translatedHead.substr(at, next - at);
        at = next;
        // A continued line would carry the next one into the definition.
        if (line.ends_with("\\\n")) return std::nullopt;
        if (line.starts_with("#define ")) header += line;
        else if (line != "\n" && !line.starts_with("//")) return std::nullopt;
    }
    return header + std::string(msl::kPreludeInclude);
}

PrecompiledPrelude::PrecompiledPrelude(std::string key, std::string file, std::string header,
                                       std::vector<std::string> flags)
    : key_(std::move(key)), file_(std::move(file)), header_(std::move(header)), flags_(std::move(flags)) {}

std::optional<PrecompiledPrelude> PrecompiledPrelude::of(const Toolchain& tools, const std::vector<std::string>& flags,
                                                         std::string_view translatedHead) {
    if (support::config().precompiledPrelude == 0) {
        support::log().debug("compiling without a precompiled prelude: METALCPU_PRECOMPILED_PRELUDE is 0");
        return std::nullopt;
    }
    const CompilerVersion version = compilerVersion(tools);
    if (!version.gcc) {
        support::log().debug("compiling without a precompiled prelude: {} is not GCC", tools.compiler);
        return std::nullopt;
    }
    std::optional<std::string> header = preludeHeader(translatedHead);
    if (!header) {
        support::log().debug("compiling without a precompiled prelude: the file has more than #defines before "
                             "its prelude");
        return std::nullopt;
    }
    support::Hasher hasher;
    hasher.add("metalcpu precompiled prelude 1").add(tools.identity).add(version.text);
    for (const std::string& flag : flags) hasher.add(flag);
    hasher.add(*header);
    const std::string key = hasher.hex();
    if (unusableKeys().contains(key)) {
        support::log().debug("compiling without a precompiled prelude: {} could not be used before", key);
        return std::nullopt;
    }
    return PrecompiledPrelude(key, tools.preludeDir + "/" + key + ".h.gch", std::move(*header), flags);
}

bool PrecompiledPrelude::prepare(const Toolchain& tools) {
    std::shared_ptr<std::mutex> entry = cacheEntryMutex(file_);
    std::lock_guard lock(*entry);
    if (unusableKeys().contains(key_)) return false;
    struct stat info {};
    if (lstat(file_.c_str(), &info) == 0) {
        // The standard library's directory was checked when this process began to use the
        // cache; a file another process put there since is checked here.
        std::string reason = S_ISREG(info.st_mode) ? support::untrustedFile(file_, info) : file_ + " is not a file";
        if (reason.empty() && (lease_ = CacheLease::take(file_))) {
            support::log().debug("using the precompiled prelude {}", file_);
            return true;
        }
        if (!reason.empty()) {
            support::log().debug("making the precompiled prelude again: {}", reason);
            if (S_ISDIR(info.st_mode)) support::removeTree(file_);
            else std::remove(file_.c_str());
        }
    }
    std::string error;
    if (!prepareCacheSubdirectory(tools.preludeDir, &error)) {
        support::log().debug("compiling without a precompiled prelude: {}", error);
        unusableKeys().add(key_);
        return false;
    }
    // Made at the second compile that wants it: making it costs about two compiles' worth of
    // parsing, which a cache that compiles one file of a flavour (a program's one library, a
    // validated pipeline of it) would never get back. The first leaves a note.
    const std::string wanted = tools.preludeDir + "/" + key_ + ".wanted";
    if (!support::fileExists(wanted)) {
        support::writeFileAtomically(wanted, "");
        support::log().debug("compiling without a precompiled prelude: the first compile of its kind in this "
                             "cache; the next makes {}",
                             file_);
        return false;
    }
    // Compiled in a scratch directory under its plain name, which messages then quote.
    Scratch scratch;
    const std::string header(kHeaderName), made = header + ".gch";
    if (!scratch.made() || !support::writeFile(scratch.file(header.c_str()), header_)) {
        support::log().debug("compiling without a precompiled prelude: cannot write its header");
        unusableKeys().add(key_);
        return false;
    }
    std::vector<std::string> argv = {tools.compiler, "-x", "c++-header"};
    argv.insert(argv.end(), flags_.begin(), flags_.end());
    argv.insert(argv.end(), {header, "-o", made});
    const auto start = std::chrono::steady_clock::now();
    CompileResult compiled =
        runCompiler(tools, argv, "precompiling the kernel prelude", scratch.path(), scratch,
                    {scratch.file(header.c_str()), tools.includeDir});
    const auto milliseconds =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    // Made private before it is moved into place, where another process checks it at once.
    if (!compiled.ok || chmod(scratch.file(made.c_str()).c_str(), 0600) != 0 ||
        !support::moveFile(scratch.file(made.c_str()), file_)) {
        support::log().debug("compiling without a precompiled prelude: cannot make {}: {}", file_,
                             compiled.ok ? "cannot move it there" : firstLine(compiled.diagnostics));
        unusableKeys().add(key_);
        return false;
    }
    support::log().debug("made the precompiled prelude {} in {} ms", file_, milliseconds);
    return (lease_ = CacheLease::take(file_)) != nullptr;
}

std::vector<std::string> PrecompiledPrelude::arguments() const {
    return {"-include", file_.substr(0, file_.size() - std::string_view(".gch").size())};
}

bool PrecompiledPrelude::mentionedIn(const std::string& output) const {
    return output.find("PCH") != std::string::npos || output.find(key_) != std::string::npos ||
           output.find(kHeaderName) != std::string::npos;
}

void PrecompiledPrelude::discard(const std::string& why) const {
    std::shared_ptr<std::mutex> entry = cacheEntryMutex(file_);
    std::lock_guard lock(*entry);
    unusableKeys().add(key_);
    std::remove(file_.c_str());
    support::log().debug("removed the precompiled prelude {}, which the compiler refused: {}", file_, firstLine(why));
}

} // namespace metalcpu::jit
