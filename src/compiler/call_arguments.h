// Call arguments and the parameters they bind to: whether passing a variable to a call may let
// the callee write it (a non-const reference parameter), by the file's own declarations and
// the few library functions that store through a reference.
#pragma once

#include "compiler/token.h"

#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

class Unit;

/// Where a token stands in a call's argument list, or in a direct initialiser's (`Foo f(a, b)`,
/// which calls a constructor of the declared type).
struct CallArgument {
    std::size_t open = kNoToken;   ///< the call's `(` (TokenRole::CallOpen; a direct initialiser's too)
    /// The called name (callee, member or qualified part), or kNoToken: `(f)(x)`. For a direct
    /// initialiser, the last name of the declared type (`Foo` in `Foo f(x)`, `float` in
    /// `device float* p(q)`, `S` in `ns::S<T> s(x)`), or kNoToken when none is written there.
    std::size_t callee = kNoToken;
    std::size_t declarator = kNoToken; ///< the name a direct initialiser initialises, else kNoToken
    std::size_t index = 0;             ///< which argument, from 0
};

/// The call or direct initialiser whose argument list holds token `i` directly (not inside a
/// nested call, bracket or braced list), or an argument with `open` kNoToken when there is none.
CallArgument callArgumentAt(const Unit& unit, std::size_t i);

/// Whether parameter declaration `p` (without its comma) is a reference through which the
/// callee may write: `T&`, `thread T&`, `const T*&`, `T (&a)[4]`, a forwarding `T&&`; not
/// `const T&`, `thread const T&`, `T const&`.
bool isWritableReference(const TokenList& tokens, const std::vector<std::size_t>& partner, TokenRange p);

/// The names the file declares as types anywhere: classes, unions, enums (`struct S`), aliases
/// (`using T = ...`, `typedef ... T;`).
std::set<std::string> declaredTypeNames(const TokenList& tokens, std::size_t begin, std::size_t end);

/// Whether the callee of `call` may bind argument `call.index` to a non-const reference and so
/// write what is passed. A function the file declares decides by its overloads of that name
/// (any with a non-const reference there, or a pack, says yes); a type of the file (`fileTypes`,
/// an aggregate may hold references), a member function, a call through an expression, or
/// explicit template arguments holding a reference say yes; any other name is a library
/// function or a type conversion, which take values, except those that store a result through
/// a reference (`modf`, `frexp`, `sincos`, the simdgroup_matrix loads and products) or hand
/// one on (`move`, `forward`). A direct initialiser is a call of its type's constructor, and
/// says yes where the declaration holds a `&` (`thread T& r(x)` binds `x`, as `T& r = x` does).
bool mayBindWritableReference(const Unit& unit, const CallArgument& call, const std::set<std::string>& fileTypes);

} // namespace metalcpu::msl
