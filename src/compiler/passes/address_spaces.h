// Pass: MSL address-space qualifiers become plain C++.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Rewrites the address-space qualifiers everywhere:
///   `device`, `thread`, `threadgroup` (in types, casts, member-function qualifiers) are erased;
///   `constant` becomes `const`, or is erased when `const` already qualifies the same type
///   (`constant const float*`, `const constant T&`);
///   `threadgroup_imageblock`, `ray_data`, `object_data` are reported as unsupported.
/// Erased tokens print as nothing, so the columns of the following tokens stay right.
/// A qualifier after `::`, `.` or `->` is a member name, not a qualifier, and stays.
/// Qualifiers an earlier pass already rewrote stay as that pass left them: in the validation
/// flavour, rewriteCheckedPointerTypes() has turned those of pointers into checked pointers.
void rewriteAddressSpaces(PassContext& context);

} // namespace metalcpu::msl
