// Pass: a barrier-free kernel whose body has a loop with a uniform header (its bounds from
// kernel arguments and constants, not from thread ids) runs its group's threads interleaved in
// that loop: the loop runs once per group, and in each iteration its body runs for every
// thread of the group before the next iteration starts (work-item loops split at the loop
// instead of at barriers, passes/work_item_loops.h). A thread's variables that live across
// iterations are in its slots.
//
//   kernel body                                becomes (one call per group)
//   ---------------------------------------    ------------------------------------------------
//   const uint j = gid.x * 4; float4 acc = 0;  run_work_items(wi, [&](t) { ... place(v0[t], j); place(v1[t], acc); });
//   for (uint k = 0; k < p.inner; k += 4) {    for (uint k = 0; k < p.inner; k += 4) {
//       acc += ... B[k * p.cols + j] ...;          run_work_items(wi, [&](t) { const uint j = v0[t]; float4 acc = v1[t];
//   }                                                  { acc += ...; } place(v1[t], acc); }); }
//   C[...] = acc;                              run_work_items(wi, [&](t) { ...; C[...] = acc; });
//
// Neighbouring threads that walk the same cache lines down a power-of-two stride (the
// register-tiled matmuls' columns of B, 8 KiB apart at 2048 floats a row) then read each line
// once per iteration for the whole group instead of once per thread, long after the
// neighbour's read evicted it (README, "The register-tiled kernels at 2048²"). Threads without
// barriers do not synchronise, so any order of their statements is one the GPU could run;
// what could tell the orders apart (atomics) keeps the kernel as it was.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/passes/work_item_loops.h"

#include <map>
#include <vector>

namespace metalcpu::msl {

class Unit;

/// The barrier-free kernels whose threads run interleaved in their uniform loops, planned as
/// work-item loops (WorkItemKernel::interleaved). A kernel definition qualifies when
///   - nothing reachable from it uses barriers, collectives or tensor operations, and nothing
///     reachable names an atomic (`atomic_*` functions, `atomic<T>` types): their order between
///     threads would change;
///   - a statement of its body's own block is a `for`, `while` or `do` loop whose header is
///     uniform: it names only its own variables, the kernel's parameters other than per-thread
///     builtins and references into device or threadgroup memory, and names the body does not
///     declare; it calls nothing, and indexes or dereferences nothing; and its body has no
///     `break` for it, `goto` or label (its lanes would leave it at different iterations);
///   - the work-item-loop planner takes it with those loops as split points (planInterleavedKernel():
///     per-thread variables that can have slots; a `continue` of a uniform loop works);
///   - `enabled` (TranslateOptions::interleaveThreads).
/// A kernel with a uniform loop that does not qualify gets a WorkItemRefusal in `refusals`.
std::vector<WorkItemKernel> findInterleavedKernels(const Unit& unit, const CallGraph& graph,
                                                   const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                                   const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                                                   bool enabled, unsigned lanes, std::vector<WorkItemRefusal>& refusals);

} // namespace metalcpu::msl
