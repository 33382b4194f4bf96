// Pass: calls that can reach a SIMD-group collective carry their call site, so that the
// fiber scheduler knows which collective a lane is at by the whole path it took. A helper
// called from two places is then two collectives, and a helper's collectives are ordered by
// where it is called rather than where it is defined (exec/fiber_scheduler.h).
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Wraps every call, in a function body, of a function that can reach a SIMD-group
/// collective (simd_*, quad_*, simdgroup_barrier, the SIMD-group matrix functions; directly
/// or through other functions of the file, found by name as the call graph finds them) in
/// `(::metalcpu_kernel::simd_call_site(), call)`: the temporary makes the call the thread's
/// current one until the full expression ends (mc_services::simd_call_path). Unqualified,
/// qualified (`ns::f(x)`, `T::f(x)`) and member calls (`op.f(x)`, `a[i].b->template f<T>(x)`)
/// are wrapped; a call in an unevaluated operand (decltype, sizeof, noexcept, alignof) is not,
/// nor one whose object expression the pass cannot delimit (a lambda called in place, a
/// literal): its collectives keep the order of their own sites, as before this pass, which
/// differs only when lanes diverge around the call.
void markCollectiveCalls(PassContext& context);

} // namespace metalcpu::msl
