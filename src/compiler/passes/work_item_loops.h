// Pass: loop fission at barriers, planned in work_item_loops.cpp (the planner, work_item_planner.h,
// spread over work_item_names/statements/variables.cpp) and written in
// work_item_rewrite.cpp. A coroutine kernel whose barriers sit only in straight-line
// code, blocks, loops and ifs of its body is restructured so that the code between two barriers runs as
// one loop over the group's threads (a "work-item loop", as pocl's WorkitemLoops makes them).
// No thread is suspended or resumed, and the host compiler sees ordinary loops over threads.
//
//   kernel body                          becomes (one call per group, builtins of thread 0)
//   ----------------------------------   ----------------------------------------------------
//   const uint row = ...; float s = 0;   run_work_items(wi, [&](t) { <rebind builtins>
//                                             { const uint row = ...; float s = 0; place(v0[t], row); ... } });
//   for (uint k = 0; k < n; ++k) {       for (uint k = 0; k < n; ++k) {
//       threadgroup float tile[16];          auto& tile = threadgroup_variable<...>(...);
//       tile[i] = ...;                       run_work_items(wi, [&](t) { ... { tile[i] = ...; } });
//       threadgroup_barrier(...);
//       s += tile[...];                      run_work_items(wi, [&](t) { float s = v1[t]; { s += ...; } v1[t] = s; });
//       threadgroup_barrier(...);
//   }                                    }
//   out[row] = s;                        run_work_items(wi, [&](t) { const uint row = v0[t]; float s = v1[t]; ... });
//
// Variables that live across a barrier get one slot per thread (`wi.slots<T>()`), copied in
// and out by each piece, or for C arrays and variables whose address is taken used in place
// (`float (&v)[4] = emplace(v2[t], ...)` where declared, a reference to `v2[t]` after); the loops
// and ifs that hold barriers run once per group, as Metal requires their control flow to be
// uniform. A SIMD-group function written as a whole statement (`x = simd_sum(e);`) splits
// the kernel too: its arguments are handed in by one loop, its results computed by the next
// (simd_deposit / simd_collect, work_items.h). docs/compiler.md lists the rules; kernels
// outside them stay coroutines (or fibers, when they have SIMD-group functions).
#pragma once

#include "compiler/passes/barrier_coroutines.h"
#include "compiler/passes/pass.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/scanner.h"
#include "compiler/statements.h"
#include "compiler/translate.h"

#include <map>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// A variable that lives across a barrier: it gets a slot per thread. Its type is the
/// declaration's specifiers and type, its declarator's `*`s and its array bounds
/// (`device float *p, v[4];`: `device float` `*`, `device float` `[4]`).
struct WorkItemVariable {
    std::string name;
    TokenRange type;       ///< as declared (`const uint`); the slot type drops the const
    TokenRange pointer;    ///< the declarator's `*`s (and `const`s after them)
    TokenRange bounds;     ///< the declarator's array bounds
    bool isConst = false;  ///< top-level const: later regions never write it back
    /// An array, or a variable whose address is taken: every piece works on the thread's slot
    /// through a reference, from its declaration on, instead of a copy loaded and stored back.
    bool inPlace = false;
    std::size_t nameToken = kNoToken; ///< where it is declared
    TokenRange initializer;           ///< its declarator's `= x`, `{...}` or `(...)`, or empty
    /// When its type names a constant the body declares (`float v[kCount]`, declared in the
    /// body's own block): the first token of the declaring piece, before which its slots are
    /// made (once per group, after the constant); else kNoToken, the top of the body.
    std::size_t setupBefore = kNoToken;
    /// For `float v[] = {a, b, c}`: the elements counted (3), which the slot type and the
    /// declarator are given; 0 when the first bound is written.
    std::size_t countedBound = 0;
    /// For a kernel parameter the body writes (passes/written_parameters.h): its index in the
    /// kernel's parameters; its slots are filled before the first piece, and no piece declares
    /// it. kNotParameter for a variable the body declares.
    std::size_t parameter = kNotParameter;
    static constexpr std::size_t kNotParameter = ~std::size_t(0);
    /// For such a parameter that is a builtin differing per thread: which, so that each
    /// thread's slot starts with its own value.
    Builtin perThreadBuiltin = Builtin::None;
};

/// A builtin parameter that differs per thread: each piece naming it rebinds it.
struct WorkItemBuiltin {
    std::size_t parameter = 0; ///< index in the kernel's parameters
    std::string name;
    Builtin kind = Builtin::None;
};

/// A per-thread condition a region runs under: the region is skipped by the threads whose
/// guard (WorkItemKernel::divergentIfs) is not `taken`.
struct WorkItemGuard {
    std::size_t guard = 0;
    bool taken = true; ///< false under the `else`
};

/// A run of statements between barriers (or between statements that run once per group):
/// it runs once per thread.
struct WorkItemRegion {
    TokenRange tokens;                ///< its statements, leading pragmas included
    std::vector<std::size_t> loads;   ///< variables declared before it that it names
    std::vector<std::size_t> stores;  ///< variables it declares at its top level that live on
    std::vector<std::size_t> builtins; ///< parameters (indices) it names that differ per thread
    /// For a SIMD-group function written as a whole statement (WorkItemKernel::collectives),
    /// which one: the statement is a region of its own, run as two loops over the threads.
    std::size_t collective = kNoCollective;
    static constexpr std::size_t kNoCollective = ~std::size_t(0);
    /// Whether it calls a SIMD-group matrix function that needs only the caller's lane
    /// (CoroutineKernel::laneUsers): its loops tell each thread its lane (simd_lane_scope).
    bool learnsLanes = false;
    /// The guards of the divergent ifs around it, outermost first.
    std::vector<WorkItemGuard> guards;
    /// For the condition of a divergent if (`tokens` is its header): which guard it sets.
    std::size_t setsGuard = kNoGuard;
    static constexpr std::size_t kNoGuard = ~std::size_t(0);
    /// The body of an interleaved kernel's uniform loop (WorkItemKernel::interleaved) that has
    /// a `continue` for that loop: its statements run in `do { ... } while (false)`, which the
    /// `continue` leaves, so the thread's variables are still stored back.
    bool continues = false;
    /// In the body of a divergent loop (DivergentIf::loop): the `break`s that leave it from this
    /// piece, each of which clears the thread's guard `leavesGuard` and leaves the piece
    /// (`goto` past its statements, so that its variables are still stored back).
    std::vector<std::size_t> breaks;
    std::size_t leavesGuard = kNoGuard;
};

/// An `if` whose condition differs per thread and whose `{}` branches hold SIMD-group function
/// statements or simdgroup_barriers but no threadgroup barrier: the condition runs once per
/// thread into the guard's slot, and each piece of a branch runs for the threads that take it.
/// Or such a loop (`loop`): each round the condition runs per thread, and the body's pieces
/// for the threads still in the loop, until none is.
struct DivergentIf {
    std::size_t keyword = 0;               ///< the `if`, `for` or `while`
    std::size_t elseKeyword = kNoToken;    ///< the `else`, if any
    std::size_t end = 0;                   ///< one past the statement
    bool loop = false;
    /// A loop's header: its `(` and `)`, and for a `for` the `;` after the init-statement and
    /// the one after the condition (kNoToken for a `while`). A non-empty init-statement is a
    /// region of its own.
    std::size_t open = kNoToken, close = kNoToken, initEnd = kNoToken, conditionEnd = kNoToken;
};

/// How one kernel is restructured.
struct WorkItemKernel {
    std::size_t function = 0; ///< Module::functions
    std::size_t bodyOpen = 0; ///< the body's `{`
    std::vector<WorkItemVariable> variables;
    std::vector<WorkItemRegion> regions;
    std::vector<TokenRange> barriers; ///< whole barrier statements, erased
    std::vector<CollectiveStatement> collectives; ///< SIMD-group functions as whole statements
    /// Names in the headers of loops and ifs that run once per group which refer to per-thread
    /// variables: they read the first live thread's slot (the value is uniform).
    std::vector<std::pair<std::size_t, std::size_t>> headerUses; ///< (token, variable)
    /// The conditions among those headers that read per-thread variables, for the
    /// barrier-divergence check of the instrumented flavour: it evaluates one for every thread
    /// (uniform_condition, work_items.h). The threads for which it holds go on to the first
    /// barrier in the tokens `taken` (the body, an if's first branch), the others to the first
    /// after token `left` (none: they return).
    struct UniformCondition {
        TokenRange condition;
        TokenRange taken;
        std::size_t left = 0;
    };
    std::vector<UniformCondition> uniformConditions;
    std::vector<std::size_t> loopBodies; ///< `{` of each loop that runs once per group
    /// The body of a loop or a branch of an if that runs once per group, written without braces.
    struct UnbracedBody {
        TokenRange tokens;
        bool loop = false;
    };
    std::vector<UnbracedBody> unbracedBodies; ///< in the order planned: outer before inner
    std::vector<std::size_t> returns;    ///< `return` tokens: the thread drops out
    std::vector<DivergentIf> divergentIfs; ///< the guard of each: its index here
    /// The `if`s a piece is split for, to keep a SIMD-group's lanes in lockstep there
    /// (lockstepSplit(), passes/lockstep_points.h).
    std::vector<std::size_t> lockstepSplits;
    /// Builtin parameters that differ per thread and some piece names.
    std::vector<WorkItemBuiltin> perThreadBuiltins;
    /// A barrier-free kernel whose uniform loops run once per group, their bodies once per
    /// thread in each iteration (passes/interleaved_threads.h), rather than one split at barriers.
    bool interleaved = false;
    /// For an interleaved kernel: how many neighbouring threads run together (lane_block,
    /// work_items.h), and the body's `}`, before which the loop over the blocks ends.
    unsigned lanes = 0;
    std::size_t bodyClose = 0;
};

/// Picks, among the coroutine kernels, those that can be restructured into work-item loops:
/// barriers only as statements of `{}` blocks, of loops with `{}` bodies and of if/else with
/// `{}` branches; loop and if headers free of per-thread builtins, set up from nothing
/// per-thread and not written by the pieces; no jump out of a piece, goto or label; no
/// texture, sampler or tensor parameter written (a pointer or builtin parameter the body
/// writes gets slots, passes/written_parameters.h); per-thread variables with a written type that can have slots (several
/// may share a declaration; arrays and variables whose address is taken are kept in place);
/// no tensor operation. docs/compiler.md ("Work-item loops") has the details.
/// The others get a WorkItemRefusal in `refusals`.
std::vector<WorkItemKernel> findWorkItemKernels(const Unit& unit,
                                                const std::vector<CoroutineKernel>& coroutineKernels,
                                                const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                                                const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                                std::vector<WorkItemRefusal>& refusals);

/// Plans barrier-free kernel `kernel` (its `returns` filled in, no barriers) as work-item loops
/// whose split points are the loops `uniformLoops` (their keywords: statements of the body's own
/// block with uniform headers, passes/interleaved_threads.h): each runs once per group and its
/// body, with everything in it, is one piece. True and `out` filled in when the planner takes
/// the kernel; else `refusal` says why.
bool planInterleavedKernel(const Unit& unit, const CoroutineKernel& kernel, const std::vector<std::size_t>& uniformLoops,
                           const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                           const std::vector<ParamInfo>& parameters, unsigned lanes, WorkItemKernel& out,
                           WorkItemRefusal& refusal);

/// Whether statement `s` has a `break` or `continue` that leaves it for a loop or switch outside
/// it (unless `breakStays` / `continueStays`: `s` is inside one that catches it), a `goto` or a
/// label other than `case` and `default`.
bool jumpsOut(const TokenList& tokens, const Statement& s, bool breakStays, bool continueStays);

/// Whether builtin `b` has one value for the whole group (METALCPU_BUILTINS' `uniform` column).
bool isUniformBuiltin(Builtin b);

/// Rewrites each kernel of Findings::workItemKernels as the comment at the top of this file shows. Run it last, after
/// the passes that rewrite types and accesses (the slot types are copied from their output,
/// checked pointer types in the validation flavour), and instead of rewriteCoroutineKernels()
/// for these kernels.
void rewriteWorkItemKernels(PassContext& context);

} // namespace metalcpu::msl
