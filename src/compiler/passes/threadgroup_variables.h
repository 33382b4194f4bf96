// Pass: `threadgroup` variable declarations in function bodies become references into
// per-threadgroup storage.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/passes/pass.h"
#include "compiler/scanner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::msl {

/// One variable of a `threadgroup` declaration: one site with its own key.
struct ThreadgroupDeclarator {
    std::string name;
    std::size_t nameToken = 0;
    TokenRange arrayBounds; ///< `[BS][BS]` (empty when not an array)
    std::uint64_t key = 0;  ///< (fileKey << 20) | site number (1-based, in source order)
};

/// `threadgroup float As[BS][BS], b;` inside a function body.
struct ThreadgroupDeclaration {
    std::size_t function = 0; ///< the function whose body declares it (Module::functions)
    TokenRange statement;     ///< from `threadgroup` to the `;`, inclusive
    TokenRange type;          ///< the element type as written (`float`)
    std::vector<ThreadgroupDeclarator> declarators;
};

/// Finds the threadgroup variable declarations in every function body, and gives each
/// declarator a site key. Reports initializers (MSL forbids them) and threadgroup variables
/// at namespace scope. Declarations of pointers or references to threadgroup memory
/// (`threadgroup float* p = ...;`) are not variables in threadgroup memory and are left to
/// rewriteAddressSpaces(). A declaration belongs to the innermost function whose body holds
/// it, and is one where a simple statement starts with `threadgroup`: a statement of the
/// function's tree (Unit::body()) or of a lambda's written in it (findNestedBodies(), its body
/// parsed by parseBlock()), read by parseDeclaration(). One in a local class's code (a member
/// function, which the scanner does not list) is an error naming the variable. In a body the
/// statement parser cannot delimit, the block around the declaration is parsed instead, and
/// where that fails too Unit::startsStatement() judges by the tokens.
std::vector<ThreadgroupDeclaration> findThreadgroupVariables(const Unit& unit, std::uint64_t fileKey,
                                                             Diagnostics& diagnostics);

/// Replaces each declaration of Findings::threadgroupVariables by one statement per declarator:
///   auto& As = ::metalcpu_kernel::threadgroup_variable<float[BS][BS], 0x...ull>(__mc_group);
/// `__mc_group` (the kernel's hidden parameter) inside kernels, `nullptr` elsewhere. Run it
/// after the passes that rewrite types: the statement takes the declaration over (its text is
/// built from the rewritten type and bounds). With validation (TranslateOptions), the
/// statement is instead
///   auto&& As = ::metalcpu_kernel::threadgroup_object<float[BS][BS], 0x...ull>(__mc_group);
/// which is a checked pointer for arrays (metalcpu/checked.h).
void rewriteThreadgroupVariables(PassContext& context);

/// "0x123ull"
std::string siteKeyLiteral(std::uint64_t key);

} // namespace metalcpu::msl
