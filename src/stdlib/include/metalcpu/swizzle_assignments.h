// What the front end's rewrite of swizzle assignments relies on (docs/compiler.md, "Swizzle
// assignments"). In kernel code `v.xy = e` becomes `v.xy->*__mc_swz = e`: `->*` binds tighter
// than `=` and looser than the member access, so `__mc_swz` gets exactly the left side, and
// the assignment goes to what metalcpu_stdlib::assignment_target() makes of it (vec.h): for a
// swizzle, a target that writes only the swizzle's components. Needed because a swizzle's own
// copy assignment is trivial (so that vectors are trivially copyable and unions of them copy)
// and would copy the whole element array it overlays.
#pragma once

#include <metal_stdlib>

namespace metalcpu_kernel {

/// The type of `__mc_swz`: `x->*__mc_swz` is metalcpu_stdlib::assignment_target(x).
struct swizzle_assignment_tag {
    template <class L>
    friend METALCPU_INLINE constexpr decltype(auto) operator->*(L&& target, swizzle_assignment_tag) {
        return metalcpu_stdlib::assignment_target(static_cast<L&&>(target));
    }
};

} // namespace metalcpu_kernel

/// Named in the rewritten swizzle assignments of kernel code; user code cannot name it
/// (reserved_names.h).
inline constexpr ::metalcpu_kernel::swizzle_assignment_tag __mc_swz{};
