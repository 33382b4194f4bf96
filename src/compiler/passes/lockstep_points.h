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

namespace metalcpu::msl {

/// In each kernel definition that runs on fibers (its own body calls a barrier or a SIMD-group
/// function, so every instantiation uses barriers, and it is neither a coroutine nor split into
/// work-item loops), inserts `::metal::simdgroup_barrier(::metal::mem_flags::mem_none);` before
/// every `if` statement that
///   - is a statement of a `{}` block (so a statement can be put before it),
///   - every lane of the SIMD-group reaches: the blocks, loops and ifs around it, from the body
///     down, have headers uniform across the SIMD-group (they name only kernel parameters that
///     are not per-thread builtins or references into device or threadgroup memory, builtins
///     uniform in the threadgroup or `simdgroup_index_in_threadgroup`, names the body does not
///     declare, and the variables of the uniform loops around them; they call, index and
///     dereference nothing), the loops have no `break` or `continue` of their own, and the body
///     has no `goto` (lanes that return are inactive, as in Metal);
///   - has a condition that is not so uniform (it may differ per lane: `tiisg == 0`),
///   - and assigns, compound-assigns or increments, in its branches, an object named by a
///     variable or parameter declared `threadgroup` (`ss[0] = S;`, `*p += 1;`, `t.x = 0;`).
/// Records the `if`s in Findings::lockstepPoints. Writes through a helper, a lambda or an
/// `auto` pointer are not seen; kernels on other lowerings are left as they are.
void insertLockstepPoints(PassContext& context);

} // namespace metalcpu::msl
