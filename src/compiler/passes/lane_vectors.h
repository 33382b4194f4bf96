// Pass: threads as vector lanes (issue 14, stage 2; docs/compiler.md, "Threads as vector
// lanes"). An interleaved kernel (passes/interleaved_threads.h) whose body the pass can write
// for N threads at once gets a second body, its lane form, at the top of the loop over its
// group's blocks of N threads (lane_block, work_items.h):
//
//   kernel body                                 lane form (in `while (__mc_wi.next()) {`)
//   ------------------------------------------  --------------------------------------------------
//   const uint j = gid.x * 4;                    if (lane_whole_row(__mc_wi)) { const auto gid = lane_builtin<8>(...);
//   if (j >= p.cols) return;                         using __mc_l0 = lane_local<uint, 8, decltype((gid.x * 4))>; const __mc_l0 j = ...;
//   float4 acc = 0;                                  if (lane_any(j >= p.cols)) goto __mc_lanes_scalar;
//   for (uint k = 0; k < p.n; ++k)                   varying<float4, 8> acc = lane_as<...>(0);
//       acc += *(device const float4*)(B + j);       for (uint k = 0; k < p.n; ++k) acc += lane_load(lane_cast<const float4*>(B + j));
//   *(device float4*)(C + j) = acc;                  lane_store(lane_cast<float4*>(C + j), acc); continue; }
//                                                __mc_lanes_scalar: ; <the interleaved pieces, as before>
//
// Per-thread values (those that depend on thread_position_in_grid's x and the like) become
// lane values of lane_vectors.h, uniform ones stay as written, and the C++ types pick each
// operation's form (metalcpu/lane_statements.h). A block runs the lane form when its N threads
// are present and in one row of the group; otherwise, and when a lane fails the leading bounds
// test, the interleaved pieces run it, so partial blocks and grid edges are exact.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/passes/work_item_loops.h"
#include "compiler/translate.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

class Unit;

/// A piece of a lane body's text: `text`, then the output text of `copy` (tokens the kernel
/// wrote, printed as the other passes rewrote them: address spaces erased and the like).
struct LaneSegment {
    std::string text;
    TokenRange copy;
    /// Validated flavour: in place of `copy`, the site the checked-accesses pass wrote into
    /// its one token (the `]` of `p[i]`, the last token of `*p`'s operand).
    bool site = false;
};

/// The lane form of one interleaved kernel (Module::functions index).
struct LaneBody {
    std::size_t function = 0;
    std::vector<LaneSegment> segments;
    /// Validated flavour (the checked lane form, metalcpu/lane_checked.h): tokens copied
    /// without the checked-accesses pass's prefix and suffix (the pointer of a per-thread
    /// `p[i]`, the operand's last token of a per-thread `*p`, which the lane form checks
    /// itself), and the tokens whose scalar `load(` becomes a uniform access of the block's
    /// lanes (`lane_uniform_load(__mc_wi, `).
    bool validated = false;
    std::set<std::size_t> bareTokens;
    std::set<std::size_t> uniformAccesses;
    /// Of those, the ones in a loop whose range was checked before it (passes/loop_ranges.h),
    /// with the flag that says it was inside (`lane_uniform_load_in(flag, __mc_wi, `).
    std::map<std::size_t, std::string> rangedUniformAccesses;
};

/// Plans the lane form of each interleaved kernel of `kernels` that qualifies: a body of
/// declarations, expression statements that store through pointers or assign locals, ifs
/// (a per-thread condition as a lane mask: docs/compiler.md, "The lane form"), uniform loops,
/// and at most one leading bounds test `if (cond) return;` before any loop, after
/// declarations only; per-thread builtins only thread_position_in_grid,
/// thread_position_in_threadgroup (their x per thread, y and z the row's) and
/// thread_index_in_threadgroup; per-thread locals of scalar, vector or matrix types; calls of
/// the library's functions without effects and of the program's functions that take no
/// reference to assign through (per lane when their arguments are per-thread); divisions; no
/// address taken, conditional expression, comparison outside a condition, or member of a
/// per-thread value but one component; no break or continue under a per-thread if; no store
/// through an address every thread shares. In the validated flavour (the checked lane form) also
/// no per-thread if, no call of the program's functions, no compound store, member access of
/// an element or `->`. Not when `enabled` is false. The others get a WorkItemRefusal in
/// `refusals`.
std::vector<LaneBody> planLaneBodies(const Unit& unit, const std::vector<WorkItemKernel>& kernels,
                                     const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                     const TranslateOptions& options, std::vector<WorkItemRefusal>& refusals);

/// The text inserted after `while (__mc_wi.next()) {` of interleaved kernel `k`: its lane form
/// and the label its bounds test jumps to, or "" when it has none. Called by the work-item-loops
/// rewrite before it edits the kernel's body.
std::string laneBodyText(const PassContext& context, const WorkItemKernel& k);

} // namespace metalcpu::msl
