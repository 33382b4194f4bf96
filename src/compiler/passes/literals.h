// Pass: MSL's 16-bit float literals (half and bfloat).
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// `1.5h` / `2H` / `1e-3h` become `half(1.5f)` / `half(2.0f)` / `half(1e-3f)`, and `5.0bf` /
/// `2BF` become `bfloat(5.0f)` / `bfloat(2.0f)` (a float literal rounded once more: the decimal
/// is first rounded to float). Other numbers keep their spelling, and numbers an earlier pass
/// rewrote (erased with a declaration) are left to it.
void rewriteHalfLiterals(PassContext& context);

} // namespace metalcpu::msl
