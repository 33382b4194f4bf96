// Collecting diagnostics while translating.
#pragma once

#include "compiler/source.h"
#include "compiler/translate.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// The diagnostics of one translation, with locations resolved to reported file names.
class Diagnostics {
public:
    explicit Diagnostics(const FileTable& files) : files_(files) {}

    void error(Location where, std::string message);
    void warning(Location where, std::string message);
    void note(Location where, std::string message);

    bool hasErrors() const { return errors_ > 0; }
    const std::vector<Diagnostic>& list() const { return list_; }
    /// Where diagnostic `index` of list() was reported, as the tokens locate it.
    Location location(std::size_t index) const { return locations_[index]; }
    /// Diagnostic `index`, an error, becomes a warning saying `message` instead: the output
    /// carries the error where it matters (kernel selection's `#error`), so the translation
    /// need not fail for it.
    void demoteError(std::size_t index, std::string message);
    std::vector<Diagnostic> take() {
        locations_.clear();
        return std::move(list_);
    }

private:
    void add(Diagnostic::Severity severity, Location where, std::string message);

    const FileTable& files_;
    std::vector<Diagnostic> list_;
    std::vector<Location> locations_; ///< per diagnostic of list_
    int errors_ = 0;
};

} // namespace metalcpu::msl
