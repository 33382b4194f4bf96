// Passes of the validation flavour (TranslateOptions::validation): pointers into device,
// constant and threadgroup memory become checked pointers, and every access the source
// writes through them names its site. stdlib/include/metalcpu/checked.h is the other half.
#pragma once

#include "compiler/scanner.h"
#include "compiler/source.h"
#include "compiler/token.h"

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// `device T*`, `constant T*`, `threadgroup T*` (also `const device T*`) become
/// `::metalcpu_kernel::checked_ptr<T, space>` with the space's constness; `*_cast<...>` to
/// such a type becomes `::metalcpu_kernel::pointer_cast<...>`. Runs after
/// rewriteAddressSpaces(), whose edits it overrides for the qualifiers it rewrites.
void rewriteCheckedPointerTypes(TokenList& tokens, const std::vector<std::size_t>& partner);

/// The source site of one access, for the table the validation flavour starts with.
struct AccessSite {
    std::uint32_t file = 0; ///< FileTable index
    std::string function;
    std::uint32_t line = 0, column = 0;
};

/// Inside function bodies: `x[i]` becomes `::metalcpu_kernel::load(x, i, site)`, or
/// store() when the element is assigned, or update() for `+=`, `++` and the like; `*p`
/// becomes load(p, 0, site) (or store/update); `p->m` becomes load(p, 0, site).m; and
/// `&x[i]` becomes address_of(x, i). The site is `::__mc_sites[n]`, entry n of `sites`, with
/// Apple's columns: the assignment operator for stores, the accessed name for loads (a
/// table of constants, so the fast path of an access stores nothing).
/// Declarators (`float a[4]`) and lambda introducers are left alone.
void rewriteCheckedAccesses(TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                            std::vector<AccessSite>& sites);

/// The C++ definition of `__mc_sites` for `sites` (empty when there are none).
std::string accessSiteTable(const std::vector<AccessSite>& sites, const FileTable& files);

} // namespace metalcpu::msl
