// Pass: MSL attributes outside kernel signatures are removed.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Erases every [[...]] attribute specifier that holds an attribute standard C++ or GCC does
/// not know (MSL's [[thread_index_in_simdgroup]] on helper parameters, [[id(n)]], [[user(x)]],
/// ...), and keeps those made only of standard ones ([[maybe_unused]], [[likely]],
/// [[gnu::always_inline]]). Specifiers another pass already rewrote (a kernel's, erased with
/// its signature) are left to it.
void rewriteAttributes(PassContext& context);

} // namespace metalcpu::msl
