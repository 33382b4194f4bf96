// Pass: MSL attributes outside kernel signatures are removed.
#pragma once

#include "compiler/token.h"

#include <vector>

namespace metalcpu::msl {

/// Erases every [[...]] attribute specifier that holds an attribute standard C++ or GCC does
/// not know (MSL's [[thread_index_in_simdgroup]] on helper parameters, [[id(n)]], [[user(x)]],
/// ...), and keeps those made only of standard ones ([[maybe_unused]], [[likely]],
/// [[gnu::always_inline]]). Specifiers already erased by another pass are skipped.
void rewriteAttributes(TokenList& tokens, const std::vector<std::size_t>& partner);

} // namespace metalcpu::msl
