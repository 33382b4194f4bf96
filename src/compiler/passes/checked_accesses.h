// Passes of the validation flavour (TranslateOptions::validation): pointers into device,
// constant and threadgroup memory become checked pointers, and every access the source
// writes through them names its site. stdlib/include/metalcpu/checked.h is the other half.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// `device T*`, `constant T*`, `threadgroup T*` (also `const device T*`) become
/// `::metalcpu_kernel::checked_ptr<T, space>` with the space's constness; `*_cast<...>` to
/// such a type becomes `::metalcpu_kernel::pointer_cast<...>`. Runs before
/// rewriteAddressSpaces(), which leaves the qualifiers rewritten here alone.
void rewriteCheckedPointerTypes(PassContext& context);

/// The source site of one access, for the table the validation flavour starts with.
struct AccessSite {
    std::uint32_t file = 0; ///< FileTable index
    std::string function;
    std::uint32_t line = 0, column = 0;
};

/// An access rewriteCheckedAccesses() recognised but could not rewrite: it runs unchecked.
struct UncheckedAccess {
    Location where;
    std::string reason; ///< what the access is, lower-case: "a subscript of a template call's result"
};

/// Inside function bodies: `x[i]` becomes `::metalcpu_kernel::load(x, i, site)`, or
/// store() when the element is assigned, or update() for `+=`, `++` and the like; `*p`
/// becomes load(p, 0, site) (or store/update); `p->m` becomes load(p, 0, site).m; and
/// `&x[i]` becomes address_of(x, i). The site is `::__mc_sites[n]`, entry n of
/// Findings::accessSites, with Apple's columns: the assignment operator for stores, the
/// accessed name for loads (a table of constants, so the fast path of an access stores nothing).
/// Declarators (`float a[4]`) and lambda introducers are left alone. An access whose operand
/// cannot be delimited (`f<T>(x)[i]`, `**p`) stays as written and is recorded in
/// Findings::uncheckedAccesses, and the pass ends with one warning that counts them.
void rewriteCheckedAccesses(PassContext& context);

/// The C++ definition of `__mc_sites` for `sites` (empty when there are none).
std::string accessSiteTable(const std::vector<AccessSite>& sites, const FileTable& files);

} // namespace metalcpu::msl
