// Pass: MSL's half-precision literals.
#pragma once

#include "compiler/token.h"

namespace metalcpu::msl {

/// `1.5h` / `2H` / `1e-3h` become `half(1.5f)` / `half(2.0f)` / `half(1e-3f)`. Other numbers
/// keep their spelling.
void rewriteHalfLiterals(TokenList& tokens);

} // namespace metalcpu::msl
