// Apple's AIR intrinsics that kernel code may bind by `__asm` label, and the pass that hands
// their declarations over to metalcpu's implementation.
//
// metal-flash-attention's `metal_simdgroup_event` header (and code derived from it) declares
// Apple's SIMD-group async copies itself:
//
//   thread _simdgroup_event_t* __metal_simdgroup_async_copy_1d(
//     ulong, ulong, threadgroup void *, const device void *, ulong)
//     __asm("air.simdgroup_async_copy_1d.p3i8.p1i8");
//
// Such a declaration names no code of its own: the label binds it to the AIR intrinsic. The
// kernel library (metalcpu/stdlib/async_copy.h) implements exactly the intrinsics of
// airIntrinsicFunction() under the names those headers use, so a declaration of one of them
// is erased and the calls reach the library's. Any other `__asm` stays the restricted
// dialect's error (restrictions.h).
#pragma once

#include "compiler/passes/pass.h"

#include <cstddef>
#include <string_view>

namespace metalcpu::msl {

struct FunctionDecl;

/// The function the kernel library implements AIR intrinsic `label` as (the label without its
/// quotes: `air.wait_simdgroup_events`), or an empty view for a label metalcpu does not have.
std::string_view airIntrinsicFunction(std::string_view label);

/// The token of the string literal of `f`'s `__asm("...")` label (`asm`, `__asm`, `__asm__`
/// after its parameter list), or kNoToken.
std::size_t asmLabelToken(const Unit& unit, const FunctionDecl& f);

/// Whether `f` is a declaration (no body) that binds, by its label, an intrinsic the kernel
/// library implements, under the name the library gives it.
bool bindsAirIntrinsic(const Unit& unit, const FunctionDecl& f);

/// Erases every declaration bindsAirIntrinsic() accepts (its template header, if any, to its
/// `;`), so that its calls reach the kernel library's function of that name.
void eraseAirIntrinsicDeclarations(PassContext& context);

} // namespace metalcpu::msl
