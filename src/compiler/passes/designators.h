// Pass: GNU array designators in braced initialisers.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Clang (and so Metal) accepts C's array designators in C++ as an extension, GNU ranges
/// included: `constant float k[8] = {[0 ... 3] = 1, [4 ... 7] = 2};`, `int a[4] = {[2] = 5};`.
/// g++ accepts neither in C++. This writes the elements out in order: a range repeats its
/// value, and the positions a designator skips get `{}` (value initialisation, as C++ gives
/// elements without an initialiser). The indices must be integer constants made of literals
/// (evaluateInteger()), increasing, and at most kMaxDesignatedElements in all; anything else is
/// an error at the designator. Runs last, so that the repeated values carry the other passes'
/// edits (each copy is the value's output text; inner lists are written out before the outer
/// ones, so a copied designated list is too); the designators themselves go whole, with
/// whatever earlier passes did to them (a division in an index).
void rewriteArrayDesignators(PassContext& context);

/// The most elements one initialiser's designators may write out.
inline constexpr long long kMaxDesignatedElements = 65536;

} // namespace metalcpu::msl
