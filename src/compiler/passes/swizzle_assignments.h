// Pass: an assignment to a swizzle writes only the swizzle's components. A swizzle member
// (`.xy`) overlays its vector's whole element array, and its copy assignment is trivial, so
// that vectors are trivially copyable and MSL's unions of vectors copy (stdlib/include/
// metalcpu/stdlib/vec.h says why); the kernel side is metalcpu/swizzle_assignments.h.
#pragma once

#include "compiler/passes/pass.h"

#include <string_view>

namespace metalcpu::msl {

/// Whether `name` reads as a swizzle of two to four components: `xy`, `zyx`, `rgba`, `xx`
/// (one name set at a time; a single component is a plain element and needs nothing).
bool isSwizzleName(std::string_view name);

/// Every assignment whose left side is a member access named like a swizzle (`v.xy = e`,
/// `p->zw = e`, `a[i].bgr = e`, `(v.yx) = e`) gets its `=` written `->*__mc_swz=`, so that it
/// assigns `v.xy->*__mc_swz`: for a swizzle, a target whose assignment converts the right side
/// to the swizzle's vector and writes only its components (from the same vector too:
/// `v.yx = v.xy`); for anything else (a member of the program's called `xy`), the member
/// itself. `->*` binds tighter than `=` and looser than the member access, so the expression
/// keeps its structure. Compound assignments (`v.xy += e`) are left alone: the stdlib computes
/// them on the swizzle's vector and assigns that, component by component.
void rewriteSwizzleAssignments(PassContext& context);

} // namespace metalcpu::msl
