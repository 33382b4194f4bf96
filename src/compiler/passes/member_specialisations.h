// Pass: explicit specialisations of member templates written in their class.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// C++17 allows an explicit specialisation of a member function template in the class that
/// declares it (`template <> complex64_t operator()(complex64_t a, complex64_t b) { ... }`,
/// MLX's reduction/ops.h); Clang (and so Metal) accepts it, GCC 12 rejects it ("explicit
/// specialization in non-namespace scope"). Moving it to namespace scope is impossible when
/// the class is a template (that would specialise the class too) and breaks a non-template
/// class whose inline members call it (a specialisation after its first use), so it stays
/// where it is, its body untouched, and becomes a *constrained overload* of the primary
/// template that only the specialised arguments satisfy:
///
/// ```
/// template <typename T> T f(T a);                       // the primary
/// template <> float f<float>(float a) { ... }           // becomes
/// template <typename T> requires (::metalcpu_kernel::same_type<T, float> &&
///     ::metalcpu_kernel::same_type<void(T a), void(float a)>) float f(T a) { ... }
/// ```
///
/// The template parameters and the function parameters are the primary's (with the
/// specialisation's parameter names), so every call, with template arguments written
/// (`s.f<float>(x)`) or deduced (`s.f(x)`), deduces as for the primary, and C++20's partial
/// ordering picks the more constrained of the two exactly when the specialisation applies. The
/// constraint pins each template argument: the one the specialisation writes; else, when the
/// parameter appears as a whole type in the primary's parameters (`T a`, `const thread T& a`),
/// the function type; else the parameter's default.
///
/// A specialisation the rewrite cannot pin (no single primary in the class with its number of
/// parameters, a parameter pack, a template template parameter, an unnamed or undeducible
/// template parameter, a name of the primary's template parameters used in the
/// specialisation) becomes an ordinary member of the same signature instead, which overload
/// resolution prefers wherever a deduced call would reach the specialisation; a call that
/// names template arguments would still reach the primary, so if the file has one (`f<...>(`
/// anywhere, by name) the translation fails with an error at the specialisation.
///
/// It copies the primary's parameters with every edit of earlier passes in them (address
/// spaces, checked pointers), so it runs after them. A specialisation address-space-overloads
/// erased stays erased.
void rewriteMemberSpecialisations(PassContext& context);

} // namespace metalcpu::msl
