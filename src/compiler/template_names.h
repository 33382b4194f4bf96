// Which names are known not to name templates, so that a `<` after them is a comparison.
#pragma once

#include "compiler/token.h"

#include <vector>

namespace metalcpu::msl {

/// Marks Token::neverTemplate on the uses of names that C++ would not read as templates, so
/// that the angle matching (opensTemplateArguments(), closingAngle()) reads `x < 8` inside
/// template arguments as a comparison, as Clang does:
///
/// - a name declared as a non-type template parameter (`template <int N>`): `E<N < 8>`;
/// - a constant, a name declared with `constexpr`, `const` or `constant` and an initialiser
///   (`constexpr int kLimit = 4;`), from its declaration to the end of its block (to the end
///   of the file at namespace and class scope): `E<kLimit < 8>`;
/// - a dependent name without the `template` keyword, a name after `T::` with `T` a type
///   template parameter, or after `>::` (`E<T::size < 8>`, `E<is_same<T, U>::value < 2>`).
///
/// A name the unit also declares as a template (a class, alias, function or variable template,
/// or a template template parameter) is never marked. The front end does not see the library's
/// declarations (`<metal_stdlib>` expands to nothing), so a `<` after any other name opens a
/// template argument list, as after `vec` or `enable_if_t`. Runs on matched brackets (see
/// matchBrackets()), before any stage matches angles.
void markNonTemplateNames(TokenList& tokens, const std::vector<std::size_t>& partner);

} // namespace metalcpu::msl
