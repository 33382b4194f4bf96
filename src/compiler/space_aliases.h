// Type aliases that name an address space: `typedef threadgroup float* tg_ptr;`,
// `using dev_ptr = device float*;`.
#pragma once

#include "compiler/token.h"

#include <map>
#include <string>

namespace metalcpu::msl {

class Unit;

/// The aliased type's tokens, by alias name, of every `typedef` and alias-declaration whose
/// type is written with an address space. The passes that tell overloads apart by the
/// address spaces of their parameters, and arguments by their declarations, read an alias as
/// the type it stands for: `float pick(tg_ptr p)` and `float pick(dev_ptr p)` are overloads
/// on address spaces, and a `tg_ptr t` points into threadgroup memory. An alias declared twice
/// with different types (in two scopes) is left out: its name tells nothing.
using SpaceAliases = std::map<std::string, TokenRange>;
SpaceAliases findSpaceAliases(const Unit& unit);

/// The alias at token `i` (an unqualified name), or nullptr.
const TokenRange* spaceAliasAt(const Unit& unit, const SpaceAliases& aliases, std::size_t i);

} // namespace metalcpu::msl
