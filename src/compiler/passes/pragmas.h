// Pass: loop pragmas in Clang's spelling become GCC's.
#pragma once

#include "compiler/passes/pass.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// `#pragma unroll` -> `#pragma GCC unroll 16`; `#pragma unroll N` / `#pragma unroll(N)` ->
/// `#pragma GCC unroll N` when N is an integer literal (GCC needs a constant it can read before
/// template instantiation, so anything else becomes 16); `#pragma nounroll` ->
/// `#pragma GCC unroll 1`; `#pragma clang loop unroll(...)` likewise. Other pragmas pass through,
/// and so do pragmas an earlier pass rewrote (erased with a declaration). The loop after an
/// unroll pragma is made one whose annotation GCC keeps: a `for` without a condition gets
/// `true`, and a condition that divides moves to the top of the body
/// (`for (i; true; inc) if (!(c)) break; else body`): GCC drops the annotation of a condition
/// that makes a class temporary (the divisions pass's checked_divisor) in a template
/// instantiation, with a warning.
void rewritePragmas(PassContext& context);

/// The words of a pragma line after `#pragma`, split at whitespace and parentheses.
std::vector<std::string> pragmaWords(const std::string& line);

} // namespace metalcpu::msl
