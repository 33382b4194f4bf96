// Pass: nothing of a kernel runs when its library loads or unloads. MSL requires program-scope
// variables to be constant-initialised; in C++ a `constant` object with a constructor that is
// not constexpr would be built by a static initialiser inside newLibrary(), and one with a
// destructor would register it with __cxa_atexit.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// Writes C++20 `constinit` before every program-scope variable (namespace scope, static data
/// members) and every static local variable that is not `constexpr` (which is
/// constant-initialised already and may not be both), after the attributes that start the
/// declaration; the host compiler then reports a non-constant initialiser at the variable. A
/// `constant` at namespace scope initialised with `=` or braces gets `constexpr` instead (MSL's
/// constants are constant expressions, usable in the next one's initialiser), and there a
/// one-letter component of another program-scope vector (`size.x`) becomes a subscript
/// (`size[0]`): component names are union members a constant expression may not read.
/// After each such declaration that is not a template, and after the constexpr ones, it writes
/// `static_assert(__has_trivial_destructor(__typeof__(name)), "...")`, so a destructor (also
/// of the temporary a reference keeps alive) is an error at the variable too. Variable
/// templates get `constexpr` instead (unless they have it): their type must then be literal,
/// and a destructor that is not constexpr is an error at each instantiation.
void rewriteConstantInitialisation(PassContext& context);

} // namespace metalcpu::msl
