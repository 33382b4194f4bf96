// Part of the stage before the analyses (helper_inlining.h): a SIMD-group function written
// inside an expression of a kernel's statement becomes a statement of its own before it, so that
// the barrier split (work-item loops) can split at it instead of leaving the kernel on fibers.
//
//   sumf1[row] = simd_sum(sumf);           float simd_sum_value_i4 = simd_sum(sumf);
//                                    =>    sumf1[row] = simd_sum_value_i4;
//   if (simd_all(done)) { ... }            bool simd_all_value_i5 = simd_all(done);
//                                          if (simd_all_value_i5) { ... }
#pragma once

#include "compiler/call_graph.h"
#include "compiler/token.h"

#include <optional>
#include <set>
#include <string>

namespace metalcpu::msl {

class Unit;

/// A token the stage writes itself (`spelling` at `at`, after a blank), for this stage and the
/// helper inlining.
Token syntheticToken(std::string spelling, TokenKind kind, Location at);

/// One round: in each kernel body, the first SIMD-group function (simd_* or quad_*, one the
/// file does not define, no ballot) of each statement that is not already its whole value
/// (`x = simd_f(...);`, CollectiveStatement) and holds no other, is hoisted into
/// `T name = simd_f(args);` before the statement, when
///   - the statement is a simple statement or the header of an `if`, directly in a `{}` block;
///   - the statement has no `&&`, `||`, `?`, comma operator, `++`/`--`, assignment but its own
///     (the call might not run, or run after something it would now precede), no lambda and no
///     call of a function the file defines or of an atomic_* function (whose effects the
///     earlier collective could see) outside the hoisted call;
///   - T is known: `bool` for simd_all/any/is_first/is_helper_thread and their quad_ forms,
///     else the type of the first argument, a name or `name[i]` of a variable or parameter the
///     kernel declares without `*`, `&` or (for a name) bounds, every declaration of the name
///     with that same type.
/// C++ leaves the order of the operands' evaluation unspecified (a `=`'s right side first), so
/// evaluating the collective first is one order the statement already allowed. Returns the
/// new tokens, or nothing when nothing was hoisted. `usedNames` holds every identifier of the
/// unit; the new names are added.
std::optional<TokenList> hoistCollectives(const Unit& unit, const CallGraph& graph, std::set<std::string>& usedNames);

} // namespace metalcpu::msl
