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
/// becomes load(p, 0, site) (or store/update); `x[i].a.b` becomes load_member(x, i,
/// ::__mc_member_n{}, site) (store_member, update_member; argument_member where an array member
/// may be bound whole to a reference) and `p->a.b` and `(*p).a.b` load_member(p, 0, ...), which
/// check the member's bytes alone; a member subscripted where it is named (`x[i].v[j]`) is
/// load_member_elements(...) (and its kin, by the element's use), whose subscript checks the
/// element's bytes; `&x[i]` becomes address_of(x, i) and `&x[i].a` member_address(x, i,
/// ::__mc_member_n{}). A call of an atomic function or simdgroup_load/simdgroup_store by name
/// takes its own site first (`atomic_fetch_add_explicit(::__mc_sites[n], p, ...)`, the column of
/// the name), unless the file defines a function of that name. The site is `::__mc_sites[n]`, entry n of
/// Findings::accessSites, with Apple's columns: the assignment operator for stores, the
/// accessed name for loads (a table of constants, so the fast path of an access stores nothing);
/// in a function template that is not a kernel (nor constexpr), `__mc_local_sites[k]`, a static
/// constexpr copy of it declared at the start of the body whose function is
/// `__builtin_FUNCTION()`, so that reports name the instantiation (`argsort<1, float>`).
/// Declarators (`float a[4]`) and lambda introducers are left alone. An access whose operand
/// cannot be delimited (`f<T>(x)[i]`, `**p`) stays as written and is recorded in
/// Findings::uncheckedAccesses, and the pass ends with one warning that counts them.
void rewriteCheckedAccesses(PassContext& context);

/// The C++ definitions of the member selectors `__mc_member_<i>` for `members` (Findings::
/// memberSelectors): function objects that name member i of what they are given, `(e.a.b)`,
/// one per distinct member so that every access to it shares one instantiation of
/// checked.h's load_member() and its kin (a lambda per access made a validated ggml-style
/// kernel's compile 1.7 times as long).
std::string memberSelectorDefinitions(const std::vector<std::string>& members);

/// The C++ definition of `__mc_sites` for `sites` (empty when there are none).
std::string accessSiteTable(const std::vector<AccessSite>& sites, const FileTable& files);

} // namespace metalcpu::msl
