// One spelling of address-space-qualified types for every later stage.
#pragma once

#include "compiler/token.h"

#include <vector>

namespace metalcpu::msl {

/// Moves each address-space qualifier written after the type it qualifies to the front of that
/// type: `uint device* p`, `T const device& r`, `array<float, int(8)> threadgroup* t`,
/// `Params constant* c` read as `device uint* p`, `device T const& r`, and so on. MSL, like
/// C++ with cv-qualifiers, lets a decl-specifier sequence hold its qualifiers in any order, and
/// generators (Slang) write them after the type; every stage after this one (signatures, the
/// checked pointers of the validation flavour, threadgroup variables, overload sets) reads the
/// space first, so this is the one place that knows about the other order. A qualifier after a
/// `*` or `&` qualifies that pointer, not the pointee, and stays where it is; so do those after
/// a member function's parameters. The moved token keeps its location (diagnostics about it
/// point where it is written); `partner` is updated with the tokens.
void placeAddressSpacesFirst(TokenList& tokens, std::vector<std::size_t>& partner);

} // namespace metalcpu::msl
