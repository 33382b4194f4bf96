// Stage before the analyses: a kernel's calls of helper functions that hold barriers or
// SIMD-group functions are replaced by the helpers' bodies, so that the barrier split (work-item
// loops, barrier_coroutines.h) sees those barriers and collectives as statements of the kernel's
// own body instead of leaving the kernel on fibers.
//
//   template<typename T>                       kernel void k(..., uint tid [[...]]) {
//   void norm(device T* p, uint tid) {             {
//       p[tid] = ...;                                  device float* p_i1 = (dst);
//       threadgroup_barrier(...);          =>         uint tid_i2 = (tid);
//   }                                                  p_i1[tid_i2] = ...;
//   kernel void k(..., uint tid [[...]]) {             threadgroup_barrier(...);
//       norm<float>(dst, tid);                     }
//   }                                          }
//
// Unlike the rewrite passes (pass.h), which edit tokens in place, this stage makes a new token
// list: the analyses that plan the split read the unit as written, so the inlined code must be
// written before them. Copied tokens keep their places in the helper, so diagnostics and the
// generated #line directives point into the helper as written.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/passes/barrier_coroutines.h"
#include "compiler/scanner.h"
#include "compiler/source.h"
#include "compiler/token.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// Why a kernel's call of a helper that synchronises was not inlined (the kernel then keeps the
/// reason the barrier split gives, with this one added).
struct InliningRefusal {
    Location kernel; ///< the kernel's name, as written
    Location where;  ///< the obstacle
    std::string reason;
};

/// Inlines, in every kernel body, the calls of helpers that reach a barrier or a SIMD-group
/// function, in rounds (a helper that calls another is inlined, then its call of the other),
/// as docs/compiler.md ("Helpers inlined before the split") lists:
///   - the call is a statement of the body's tree, `f(args);` or `f<args>(args);`, or, written
///     directly in a `{}` block, `lhs = f(args);` (any assignment operator, no call in `lhs`)
///     or `T x = f(args);`;
///   - `f` is the only function of its name with a body, a free function of the kernel's
///     namespace (or of one a `using namespace` before the kernel makes visible) defined
///     before the kernel, not a kernel, not recursive, not a collective helper (those are split
///     at as they are), and its template arguments are all written, defaulted or deduced from
///     an argument `C<args>{...}` for a parameter `C<P, ...>`; or a member function called
///     `obj.f(args)` on a variable the kernel's body declares with f's class written by name or
///     through the kernel's aliases and member aliases, or a static one called `Q::f(args)` by
///     such a qualifier (inlining_members.cpp), a class of namespace scope without bases; it
///     calls through no function pointer but its own non-type template parameters, each given
///     the kernel's own template parameter or the file's only function of that name (not a
///     template nor a member);
///   - its parameters are named, without parentheses, and each reference parameter is given
///     a name or a copy is declared; its return type is `void` or a type other than auto or a
///     reference;
///   - its body has no return but a last `return [expr];` (any, for a void helper whose call
///     is the last statement of the kernel's body, not nested), no goto or label, no static
///     variable, no local class, no `__func__`, and names nothing the kernel declares; its
///     local names are declared before they are used and never called (one may shadow a
///     parameter in a nested block or a for/if/while/switch header: it is renamed there).
/// Parameters become variables of a block that holds the body (a reference parameter given a
/// name is that name), template parameters the call's arguments, locals get names of their
/// own, and the last return assigns a result variable declared before the block. In a member
/// function, members are the object's (`obj.m`), statics and types the class's as the
/// object's declaration or the qualifier writes it (`T::m`), `this` is `(&obj)`. After the
/// rounds the kernels' local type aliases are replaced by the types they name
/// (inlining_aliases.cpp). When
/// anything was inlined, `tokens`, `partner` and `module` hold the new unit (brackets matched,
/// scanned); otherwise they are unchanged. Returns the reasons calls were not inlined.
std::vector<InliningRefusal> inlineSynchronisingHelpers(TokenList& tokens, std::vector<std::size_t>& partner,
                                                        Module& module, const FileTable& files);

/// Adds to each refusal of `refusals` that names a helper call (WorkItemRefusal::related) why
/// that kernel's helper was not inlined, from `inlining`.
void explainInliningRefusals(const std::vector<InliningRefusal>& inlining, const TokenList& tokens,
                             const Module& module, const FileTable& files, std::vector<WorkItemRefusal>& refusals);

} // namespace metalcpu::msl
