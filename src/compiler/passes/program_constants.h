// Pass (read-only): the program-scope `constant` variables of a file, for shader validation.
#pragma once

#include "compiler/scanner.h"
#include "compiler/token.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// A program-scope constant: `expression` names it from the global namespace (`::ns::kTable`),
/// `name` is how it was declared (`kTable`).
struct ProgramConstant {
    std::string expression;
    std::string name;
};

/// The first declarator of every program-scope variable declared `constant` (or `const`,
/// `constexpr`). Variable templates are left out: they have no single address. The
/// instrumented flavour lists them so that untagged pointers into them are valid.
std::vector<ProgramConstant> findProgramConstants(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                  const Module& module);

} // namespace metalcpu::msl
