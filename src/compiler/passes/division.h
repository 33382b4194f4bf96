// Pass: integer division and remainder never trap. x86-64 raises SIGFPE for a division by zero
// and for INT_MIN / -1, which would kill the process running the kernel; Apple GPUs give an
// unspecified value instead. The kernel side (metalcpu/division.h, metalcpu/stdlib/division.h)
// answers as AArch64 does: x / 0 == 0, x % 0 == x, MIN / -1 == MIN, MIN % -1 == 0.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Routes the divisor of every `/`, `%`, `/=` and `%=` of the file through `__mc_div`:
/// `a / b` becomes `a /__mc_div->*b` (`->*` binds tighter than `/` and takes the same
/// right operand, a cast-expression, so the expression keeps its structure) and `a /= b`
/// becomes `a /=__mc_div=b` (`=` is right-associative like `/=` and takes the same
/// assignment-expression). Integer divisors come back as metalcpu_kernel::checked_divisor,
/// whose operators keep the built-in result type and value except where it would trap;
/// floating-point and other divisors come back unchanged, and everything stays constexpr.
/// `operator/` and `operator%` declarations, attribute arguments and operators an earlier pass
/// rewrote (erased with a declaration) are left alone.
void rewriteDivisions(PassContext& context);

} // namespace metalcpu::msl
