// Check: the restricted dialect. Kernel code must not be able to reach into the host process.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/lexer.h"
#include "compiler/scanner.h"
#include "compiler/translate.h"

#include <vector>

namespace metalcpu::msl {

/// Reports, at the offending token:
///   `extern` (any form), `asm`/`__asm__`, `thread_local`/`__thread`, `goto` (MSL has none),
///   `new`/`delete` expressions, GCC attributes that affect linking or run code at load time
///   (constructor, destructor, section, alias, ifunc, weak, weakref, visibility, ...: anything
///   not on a list of harmless ones), `#pragma weak`, `#pragma redefine_extname`, `#pragma GCC
///   dependency` and `_Pragma` (the preprocessor runs them; none should be left),
///   builtins and names refusedName() refuses (reserved_names.h), casts to function pointer types
///   (function_pointer_casts.h), non-const `static` local variables, program-scope variables
///   outside the constant address space, functions declared but defined nowhere in the file (calls to them
///   would bind to host symbols), vertex/fragment functions, and (when `options.allowsFile` is set) files
///   included that it does not allow.
void checkRestrictions(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                       const std::vector<IncludeEvent>& includes, const FileTable& files,
                       const TranslateOptions& options, Diagnostics& diagnostics);

} // namespace metalcpu::msl
