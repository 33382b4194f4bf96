// Pass: member functions overloaded only on MSL address spaces collapse to one.
#pragma once

#include "compiler/scanner.h"

namespace metalcpu::msl {

/// MSL lets a class overload a member function on the address space of `this`
/// (`operator float() const thread`, `... const device`, `... const threadgroup`,
/// `S() thread = default; S() device = default;`). Once address spaces are erased these are
/// redefinitions, and on the CPU every version behaves the same. For each set of members of
/// one class with the same name, parameters and const-ness that differ only in their address
/// space, this keeps one (the `thread` one, else the unqualified one, else the first) and
/// erases the others, template header included.
void collapseAddressSpaceOverloads(TokenList& tokens, const Module& module);

} // namespace metalcpu::msl
