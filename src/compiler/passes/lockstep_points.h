// Pass: the part of SIMD-group lockstep that kernels written for Apple GPUs rely on. On fibers
// the lanes of a SIMD-group run one after another between rendezvous (barriers and SIMD-group
// functions), while a GPU runs them in lockstep. Code that reads threadgroup memory in every
// lane and then, with no barrier between, overwrites it in some lanes — llama.cpp's flash
// attention: every lane reads `ss[0]`, `ss[1]`, then `if (tiisg == 0) { ss[0] = S; ss[1] = M; }`
// — is a race in Metal's memory model that the GPU hides; on fibers lane 0 would run ahead to
// the store and the other lanes would read what it stored. Before such a statement the lanes
// of the SIMD-group meet, as at a `simdgroup_barrier`, and resume in lane order.
#pragma once

#include "compiler/passes/pass.h"
#include "compiler/scanner.h"
#include "compiler/statements.h"
#include "compiler/token.h"
#include "compiler/translate.h"

#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

class Unit;

/// What one kernel body holds that lockstep is kept around, whatever its lowering.
struct LockstepIfs {
    /// The keyword of every `if` statement that
    ///   - is a statement of a `{}` block (so a statement can be put before it),
    ///   - every lane of the SIMD-group reaches: the blocks, loops and ifs around it, from the
    ///     body down, have headers uniform across the SIMD-group (they name only kernel
    ///     parameters that are not per-thread builtins or references into device or threadgroup
    ///     memory, builtins uniform in the threadgroup or `simdgroup_index_in_threadgroup`, names
    ///     the body does not declare, and the variables of the uniform loops around them; they
    ///     call, index and dereference nothing), the loops have no `break` or `continue` of their
    ///     own, and the body has no `goto` (lanes that return are inactive, as in Metal);
    ///   - has a condition that is not so uniform (it may differ per lane: `tiisg == 0`),
    ///   - and in its branches stores to threadgroup memory: assigns, compound-assigns or
    ///     increments an object named by one of `threadgroupNames` (`ss[0] = S;`, `*p += 1;`,
    ///     `t.x = 0;`), or calls a function of the file, or a lambda of the body, that may write
    ///     through such a name it is handed (`store(ss, x)`, `store(ss[0], x)` by non-const
    ///     reference) or that it captures.
    std::vector<std::size_t> ifs;
    /// The variables and parameters that hold or point into threadgroup memory: declared
    /// `threadgroup`, or a pointer, reference or `auto` variable initialised from one
    /// (`auto p = ss + 4;`, `auto& r = ss[0];`, `threadgroup float* q = p;`).
    std::set<std::string> threadgroupNames;
    /// The initializers of such pointers and references: `ss + 4` in `auto p = ss + 4;`, which
    /// compute an address and read no memory.
    std::vector<TokenRange> addressInitializers;
};

/// The lockstep `if`s of kernel definition `function` (Module::functions; LockstepIfs::ifs):
/// none when its body has a `goto` or cannot be read as statements.
LockstepIfs findLockstepIfs(const Unit& unit, std::size_t function, const std::vector<ParamInfo>& params);

/// Whether tokens `range` of a body whose lockstep `if`s are `found` may read threadgroup
/// memory: they name one of its threadgroup names other than as the target of a plain
/// assignment (`ss[i] = x` stores only) or inside one of its address initializers. A name
/// handed to a call counts (the callee may read through it).
bool mayReadThreadgroup(const Unit& unit, const LockstepIfs& found, TokenRange range);

/// Where a lowering that runs a piece of a kernel thread after thread (work-item loops) must
/// split for lockstep: lane 0's store under an `if` of LockstepIfs::ifs would be seen by the
/// other lanes' reads of threadgroup memory before it in the piece (`acc += ss[c];
/// if (lane == 0) ss[0] = s;`), which on a GPU all come first.
enum class LockstepSplit {
    None,   ///< `s` joins the piece
    Before, ///< `s` is such an `if` and the piece reads before it: the piece ends before `s`
    /// `s` holds such an `if` (strictly inside it) after a read in the piece (in `before`, in
    /// `s` before the `if`, or anywhere in a loop of `s` around it): `s` is split as a
    /// statement holding a barrier is, its loops and ifs run once per group
    Inside,
};

/// How statement `s` of a kernel body whose lockstep `if`s are `found` joins a piece whose
/// statements so far span `before` (empty at a piece's start).
LockstepSplit lockstepSplit(const Unit& unit, const LockstepIfs& found, const Statement& s, TokenRange before);

/// In each kernel definition that runs on fibers (its own body calls a barrier or a SIMD-group
/// function, so every instantiation uses barriers, and it is neither a coroutine nor split into
/// work-item loops), inserts `::metal::simdgroup_barrier(::metal::mem_flags::mem_none);` before
/// every `if` of LockstepIfs::ifs. Records the `if`s in Findings::lockstepPoints. Kernels split
/// into work-item loops keep lockstep by splitting a piece there instead
/// (passes/work_item_loops.h); coroutines and plain kernels are left as they are.
void insertLockstepPoints(PassContext& context);

} // namespace metalcpu::msl
