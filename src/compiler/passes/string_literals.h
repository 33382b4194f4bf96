// Pass (validation flavour): string literals become known regions of the constant address space.
#pragma once

#include "compiler/passes/pass.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// One string literal the instrumented flavour keeps in a named object: `spelling` is the
/// literal as written (adjacent pieces joined by a space), `name` the object's.
struct StringLiteral {
    std::string spelling;
    std::string name;
};

/// A string literal that decays to a pointer (`constant const char* s = "abc";`, `f("abc")`,
/// `{"a", "b"}` for an array of pointers) becomes `::__mc_string_N.text`, the same characters
/// in a named constant object whose bytes around them belong to no region; the
/// objects are recorded in `findings.stringLiterals` (identical spellings share one) and listed
/// with the program-scope constants, so the runtime knows each literal's bytes: a read inside
/// it passes, one past its end is reported against `constant "abc"`. Left as written, where
/// the literal cannot be an object's name: operands of static_assert, asm, attributes,
/// decltype, `extern "..."`, `operator ""`; prefixed and raw literals; and the initialiser of
/// a declaration that may be a character array (`char s[] = "abc";`, `{"a", "b"}` with no `*`
/// in the declaration, as for a struct whose member is a character array): those stay
/// unregistered, as every literal did before. `__func__` and `__FUNCTION__` in the body of a
/// free function (not in a lambda's) become the object of the function's name as a literal,
/// which is what they hold.
void rewriteStringLiterals(PassContext& context);

/// The definitions of the literals' objects, written before the file's code.
std::string stringLiteralDefinitions(const std::vector<StringLiteral>& literals);

} // namespace metalcpu::msl
