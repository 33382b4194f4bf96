// Stage before the analyses, after helper inlining (helper_inlining.h): a kernel's `switch`
// that holds a barrier or SIMD-group function (llama.cpp's `switch (args.nr0) { case 2:
// kernel_mul_mv_t_t_impl<..., 2, ...>(...); break; }`, its helper inlined) is rewritten as a
// chain of `if`s, which the barrier split plans (it keeps a `switch` around a barrier a
// coroutine or on fibers):
//
//   switch (args.nr0) {                          if ((args.nr0) == (2)) { f(); }
//   case 2: f(); break;               =>         else if ((args.nr0) == (3) || (args.nr0) == (4)) { g(); }
//   case 3: case 4: g(); break;                  else { h(); }
//   default: h(); break;
//   }
#pragma once

#include "compiler/call_graph.h"
#include "compiler/token.h"
#include "compiler/unit.h"

#include <optional>

namespace metalcpu::msl {

/// The unit with each such `switch` of a kernel body rewritten, or nothing when none is. The
/// chain does what the switch does when
///   - the condition is a name or a member of one (`c`, `args.nr0`, `p->n`): it has no effect
///     of its own, so evaluating it again for each test reads the same value (no case body
///     runs between two tests);
///   - each case value is an integer literal without `l`/`L` (`2`, `-1`, `4u`): converted to
///     the promoted condition's type, as the switch does, it equals the condition exactly when
///     `==` says so;
///   - the body is a `{}` block of groups `case v: [case w: ...] statements break;`, `default:`
///     only last, nothing before the first label, no other `case`, `default` or label inside a
///     group, no `break` of the switch but each group's last, and no declaration directly in
///     a group (its scope would span the later groups).
/// Other switches stay as they are.
std::optional<TokenList> switchesAsIfChains(const Unit& unit, const CallGraph& graph);

} // namespace metalcpu::msl
