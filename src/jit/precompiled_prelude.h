// The kernel prelude, precompiled: most of a kernel compile is the host compiler parsing the
// standard library every translated file includes (<metalcpu/kernel_prelude.h>); a GCC
// precompiled header of it, made once per compiler, flag set and flavour, takes that away
// from every later compile (docs/architecture.md, "The precompiled prelude").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

struct Toolchain;
class CacheLease;

/// The header a translated file's prelude is precompiled from: the #define lines before its
/// prelude include (msl::kPreludeInclude; what the prelude reads: the file's flavour), then
/// that include. nullopt when something other than #defines, comments and blank lines precedes
/// it, or there is none: such a file is compiled without a precompiled prelude.
std::optional<std::string> preludeHeader(std::string_view translatedHead);

/// One precompiled prelude in the cache: <Toolchain::preludeDir>/<key>.h.gch, where <key>
/// hashes the compiler (its identity and its --version), the compile's flags in their order
/// and the preludeHeader() text; the directory's name holds metalcpu's version and the
/// standard library's content hash. The compile names it by `-include <preludeDir>/<key>.h`,
/// a header that does not exist: GCC reads the .gch beside it, and one it refuses (made by
/// another compiler, with other flags, damaged) or cannot read is an error that names it
/// (mentionedIn()) rather than a silent parse of the whole prelude.
class PrecompiledPrelude {
public:
    /// Where the prelude of a file that starts with `translatedHead` is kept when `tools`
    /// compiles it with `flags` (everything but the input, the output and what to make of
    /// it). nullopt, saying why in the debug log, when it has none: the compiler is not GCC
    /// (Clang's precompiled headers are another mechanism, not used), METALCPU_PRECOMPILED_PRELUDE
    /// is 0, no preludeHeader(), or this process found it unusable before (prepare()).
    static std::optional<PrecompiledPrelude> of(const Toolchain& tools, const std::vector<std::string>& flags,
                                                std::string_view translatedHead);

    /// Finds it in the cache or makes it there (the header compiled by `tools` with the
    /// flags, into a file of its own made private and renamed into place: processes that
    /// make it at once each write a whole one). Threads of this process that ask at once
    /// make it once. It is made at the second compile that asks for it in a cache: the first
    /// leaves a note (<key>.wanted) and compiles without, so that a cache that compiles one
    /// file of a flavour never pays for making it. False, saying why in the debug log, when
    /// there is none to use; when it cannot be made this process does not try again. The one
    /// to use is leased (cache_sweep.h) for as long as this object lives: no unused-entry
    /// sweep removes it from under the compile.
    bool prepare(const Toolchain& tools);

    /// The compiler arguments that make a compile read it; they go before all others.
    std::vector<std::string> arguments() const;
    /// The .gch file, which a confined compiler must be allowed to read.
    const std::string& file() const { return file_; }
    /// Whether a failed compile's `output` mentions it: a refusal, a file it cannot read, or
    /// an error inside the prelude whose "included from" lines name the header. Such a compile
    /// is done again without it, and only that compile's messages are reported.
    bool mentionedIn(const std::string& output) const;
    /// Removes it from the cache, and this process does not make it again: the compiler
    /// refused it where the same compile without it succeeded. The next process makes it again.
    void discard(const std::string& why) const;

private:
    PrecompiledPrelude(std::string key, std::string file, std::string header, std::vector<std::string> flags);

    std::string key_;
    std::string file_;
    std::string header_;
    std::vector<std::string> flags_;
    std::shared_ptr<CacheLease> lease_;
};

} // namespace metalcpu::jit
