// Pass of the validation flavour: reinterpret_casts whose target is not written as a pointer
// or reference type, whose operand may be a checked pointer.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// `reinterpret_cast<X>(v)`, where X has no `*` or `&` of its own (`reinterpret_cast<ulong>(p)`,
/// PyTorch's c10/metal/atomic.h), becomes `::metalcpu_kernel::reinterpret_value<X>(v)`: in the
/// validation flavour v may be a checked pointer, which C++ does not reinterpret_cast, and the
/// translator cannot see v's type; reinterpret_value (stdlib checked.h) gives its address as
/// the integer, and is the reinterpret_cast as written for anything else. Casts to pointer
/// types are rewriteCheckedPointerTypes()'s (pointer_cast); this runs after it and leaves the
/// casts it rewrote alone.
void rewriteCheckedValueCasts(PassContext& context);

} // namespace metalcpu::msl
