// Passes of the validation flavour (TranslateOptions::validation): pointers into device,
// constant and threadgroup memory become checked pointers, and every access the source
// writes through them names its site. stdlib/include/metalcpu/checked.h is the other half.
#pragma once

#include "compiler/scanner.h"
#include "compiler/token.h"

#include <vector>

namespace metalcpu::msl {

/// `device T*`, `constant T*`, `threadgroup T*` (also `const device T*`) become
/// `::metalcpu_kernel::checked_ptr<T, space>` with the space's constness; `*_cast<...>` to
/// such a type becomes `::metalcpu_kernel::pointer_cast<...>`. Runs after
/// rewriteAddressSpaces(), whose edits it overrides for the qualifiers it rewrites.
void rewriteCheckedPointerTypes(TokenList& tokens, const std::vector<std::size_t>& partner);

/// Inside function bodies: `x[i]` becomes `::metalcpu_kernel::load(x, i, site)`, or
/// store() when the element is assigned, or update() for `+=`, `++` and the like; `*p`
/// becomes load(p, 0, site) (or store/update); `p->m` becomes load(p, 0, site).m; and
/// `&x[i]` becomes address_of(x, i). The site is `::mc_site{__FILE__, "function", line, column}`
/// with Apple's columns: the assignment operator for stores, the accessed name for loads.
/// Declarators (`float a[4]`) and lambda introducers are left alone.
void rewriteCheckedAccesses(TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module);

} // namespace metalcpu::msl
