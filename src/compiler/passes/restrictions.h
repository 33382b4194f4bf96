// Checks: the restricted dialect. Kernel code must not be able to reach into the host process.
// Each is a check (passes/pass.h): it reads the unit and writes only diagnostics, at the
// offending token; compiler/pipeline.h lists them with function_pointer_casts.h's.
#pragma once

#include "compiler/passes/pass.h"

namespace metalcpu::msl {

/// When `options.allowsFile` is set: files the kernel code included that it does not allow,
/// and #line directives that name one.
void checkIncludedFiles(const CheckContext& context);

/// Tokens kernel code must not spell: `extern` (any form), `asm`/`__asm__`,
/// `thread_local`/`__thread`, `goto` (MSL has none), `double` and its vectors and matrices (no
/// 64-bit floating point in Metal), `new`/`delete` expressions, GCC
/// attributes that affect linking or run code at load time (constructor, destructor, section,
/// alias, ifunc, weak, weakref, visibility, ...: anything not on a list of harmless ones, in
/// both `__attribute__((...))` and `[[gnu::...]]` spellings), `#pragma weak`,
/// `#pragma redefine_extname`, `#pragma GCC dependency` and `_Pragma` (the preprocessor runs
/// them; none should be left), and builtins and names refusedName() refuses (reserved_names.h).
void checkRestrictedTokens(const CheckContext& context);

/// Declarations kernel code must not make: functions declared but defined nowhere in the file
/// (calls to them would bind to host symbols), vertex/fragment functions, non-const `static`
/// local variables, and program-scope variables outside the constant address space.
void checkRestrictedDeclarations(const CheckContext& context);

} // namespace metalcpu::msl
