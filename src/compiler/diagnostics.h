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
    std::vector<Diagnostic> take() { return std::move(list_); }

private:
    void add(Diagnostic::Severity severity, Location where, std::string message);

    const FileTable& files_;
    std::vector<Diagnostic> list_;
    int errors_ = 0;
};

} // namespace metalcpu::msl
