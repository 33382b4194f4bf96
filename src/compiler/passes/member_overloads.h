// Pass: functions overloaded, and class templates specialised, only on MSL address spaces
// collapse to one.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// MSL lets a class overload a member function on the address space of `this`
/// (`operator float() const thread`, `... const device`, `... const threadgroup`,
/// `S() thread = default; S() device = default;`), and any function on the address space of a
/// reference (MLX complex.h's `operator+=(thread complex64_t&, ...)`, `(device complex64_t&,
/// ...)`). Once address spaces are erased these are redefinitions, and on the CPU every version
/// behaves the same. Functions of one scope whose declarations (template header, return type,
/// name, parameters, trailing qualifiers) are the same once address spaces are erased, but not
/// before, form a set; this keeps the declarations with the fewest address spaces other than
/// `thread` (the `thread` one, else the unqualified one, else the first) and erases the others,
/// template header included. Versions whose definitions differ beyond their address spaces
/// all stay when they differ in pointer or reference parameters of a named function, told
/// apart at their calls (dispatchOnAddressSpaces(), address_space_dispatch.h); otherwise they
/// are an error naming both (keeping one would silently run it for the other's callers).
/// Overloads that differ in anything else (`enable_if` in the return
/// type, parameter types, const-ness) all stay. With `checkedPointers` (the shader-validation
/// flavour), pointers in different address spaces are different types (`checked_ptr<T, space>`),
/// so overloads on a pointer's address space stay too. A declaration that names an address
/// space metalcpu does not run (`ray_data`, ...) joins no set in either flavour: it stays for
/// rewriteAddressSpaces() to report, where erasing it would drop its code without an error.
///
/// Partial specialisations of a class template that differ only in address spaces collapse
/// the same way (MLX steel's `pointer_element<thread T*>`, `<device T*>`, `<constant T*>`,
/// `<threadgroup T*>`: the `thread` one stays in the plain flavour, all four in the checked one).
/// The checked flavour is TranslateOptions::validation.
void collapseAddressSpaceOverloads(PassContext& context);

} // namespace metalcpu::msl
