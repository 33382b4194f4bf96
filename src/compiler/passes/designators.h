// Pass: GNU array designators in braced initialisers.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Clang (and so Metal) accepts C's array designators in C++ as an extension, GNU ranges
/// included: `constant float k[8] = {[0 ... 3] = 1, [4 ... 7] = 2};`, `int a[4] = {[2] = 5};`.
/// g++ accepts neither in C++. Two rewrites:
/// - written out: when every index is an integer constant made of literals (evaluateInteger()),
///   increasing, and at most kMaxDesignatedElements in all, the elements are written out in
///   order: a range repeats its value, and the positions a designator skips get `{}` (value
///   initialisation, as C++ gives elements without an initialiser);
/// - filled: otherwise (indices the front end cannot evaluate: template parameters, constexpr
///   locals, sizeof, enumerators; or going backwards, or too many), and also for a range whose
///   value may have side effects (a call, an assignment, an increment), when the list is the
///   whole initializer `= {...}` of the last declarator of a local array declaration that is
///   not static, thread_local, const or constexpr: the list becomes `{}` and the declaration
///   is followed by one `::metalcpu_kernel::designate<(first), (last)>(array, value);` per
///   element, in order (metalcpu/designators.h), so a later designator overrides an earlier
///   one as in GNU C, and a range's value is evaluated once, as GCC documents for C (the
///   written-out form repeats the value's text, so it is kept for values without effects).
///   designate() checks the indices against the array's bound at compile time.
/// Anything else is an error at the designator (program-scope constants, members, const
/// locals with such indices). Runs last, so that the repeated values carry the other passes'
/// edits (each copy is the value's output text; inner lists are written out before the outer
/// ones, so a copied designated list is too); the designators themselves go whole, with
/// whatever earlier passes did to them (a division in an index), and a fill's indices and
/// value are their output text.
void rewriteArrayDesignators(PassContext& context);

/// The most elements one initialiser's designators may write out.
inline constexpr long long kMaxDesignatedElements = 65536;

} // namespace metalcpu::msl
