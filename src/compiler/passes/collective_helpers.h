// Collective helpers: functions of the file whose call, written as a whole statement of a
// kernel's body (`x = scan(v);`, `x = op.scan(v);`), a kernel split into work-item loops
// splits at as it does at a SIMD-group function (docs/compiler.md, "Work-item loops").
#pragma once

#include "compiler/call_graph.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace metalcpu::msl {

class Unit;

/// `threadgroup_barrier` or `simdgroup_barrier`.
bool isBarrierName(std::string_view name);

/// `simdgroup_multiply` or `simdgroup_multiply_accumulate`.
bool isMatrixProductName(std::string_view name);

/// The SIMD-group matrix functions that need only the caller's lane (CoroutineKernel::laneUsers).
bool isMatrixLaneUser(std::string_view name);

/// Whether function `function` is a *collective helper*: its parameters are taken by value and
/// its body is only `return [metal::]simd_f(args);` (a simd_* or quad_* function, not one the
/// file defines), whose arguments assign, increment and call nothing. Running it once per lane to record its
/// collective's value and once more to replay it is then the same as running it once: it has
/// no effect but its value. A call of one written as a whole statement of a kernel's body
/// (and nowhere else in the file but such statements) is split at as a collective statement.
bool isCollectiveHelper(const Unit& unit, const CallGraph& graph, std::size_t function);

/// The most SIMD-group functions one call of `function` makes when it is a *staged collective
/// helper*, else nothing. Such a helper (MLX's `CumMax::simd_scan`: a loop of
/// `simd_shuffle_up`s) runs for every lane of the SIMD-group once per collective
/// (metalcpu_kernel::simd_stages), which is the same as running it once when:
///   - it has no effect but its value: parameters by value, no pointer or reference parameter
///     or local, no `*p`, `&x`, `->`, `this`, lambda, static local or `goto`; it writes only its
///     parameters and locals, and calls only SIMD-group functions, Metal's functions (not
///     atomics, barriers, SIMD-group matrices nor those with an output parameter) and functions
///     of the file that are staged helpers or make no collective, by this same rule;
///   - every lane makes the same collectives in the same order, however the values it is
///     given differ (a pass replays only the collectives before the one it records): no
///     collective under an `if` or in a statement with `?:`, `&&` or `||`, no `while`, `do`
///     or `switch`, and every `for` counts its own variable between literals
///     (`for (int i = 1; i <= 16; i *= 2)`, a body that never writes `i`);
///   - it divides by nothing (`/`, `%`): a pass's later collectives give made-up values;
///   - one call makes at most 32 collectives (METALCPU_SIMD_MAX_STAGES), counted over the
///     loops' trips. Recursion, and a function named as a value, are refused.
std::optional<unsigned> stagedCollectiveCount(const Unit& unit, const CallGraph& graph, std::size_t function);

/// Why function `function` is neither a collective helper nor a staged one, as a clause
/// (`it returns before its end ...`, `a SIMD-group function is under an \`if\` ...`): the first
/// part of the staged rule it breaks. "" when it is one.
std::string whyNotCollectiveHelper(const Unit& unit, const CallGraph& graph, std::size_t function);

/// The names whose every function with a body is a collective helper or a staged one, none
/// of them named as a value (a function pointer could call it from anywhere), with whether
/// some function of the name is staged (then every call of the name runs staged, since
/// `op.scan(v)` may be any class's). A call of such a name in a kernel's body can be split at.
/// The file's own functions only, so a name spelt like Metal's (MLX's `simd_scan` members)
/// counts, but not one of Metal's barriers.
std::map<std::string, bool, std::less<>> collectiveHelperNames(const Unit& unit, const CallGraph& graph);

} // namespace metalcpu::msl
