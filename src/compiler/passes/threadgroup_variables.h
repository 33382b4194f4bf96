// Pass: `threadgroup` variable declarations in function bodies become references into
// per-threadgroup storage.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/passes/pass.h"
#include "compiler/scanner.h"

#include <cstdint>
#include <optional>
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

/// A statement around a declaration whose condition decides whether the declaration runs: an
/// `if` (which branch holds it), a `while` or `for` loop (its body runs only where the condition
/// first holds) or a `switch` (the case labels from which control reaches it).
struct EnclosingBranch {
    TokenRange condition; ///< inside the parentheses; a `for`'s condition alone
    bool then = true;     ///< runs where the condition holds (false: an if's else-branch)
    /// A switch's: the values of the case labels it runs for (it runs where the condition equals
    /// one); empty for an if or a loop.
    std::vector<TokenRange> cases;
};

/// `threadgroup float As[BS][BS], b;` inside a function body.
struct ThreadgroupDeclaration {
    std::size_t function = 0; ///< the function whose body declares it (Module::functions)
    TokenRange statement;     ///< from its first token after `[[...]]` specifiers to the `;`, inclusive
    /// The element type as written (`float`), from the statement's start: `threadgroup` and
    /// `attributes` in it are not part of it.
    TokenRange type;
    /// The attributes written in the declaration (`__attribute__((aligned(16)))`, `alignas(16)`,
    /// `[[gnu::aligned(16)]]`), wherever they stand: their alignment is the variables'.
    std::vector<TokenRange> attributes;
    std::vector<ThreadgroupDeclarator> declarators;
    /// The `if`, loop and `switch` statements around it whose conditions it depends on,
    /// outermost first, within its function's or lambda's body.
    std::vector<EnclosingBranch> branches;
};

/// The function template that numbers the instantiations of a kernel template whose own body
/// declares threadgroup variables (`__mc_tg_owner_N`, inserted before the kernel with the
/// kernel's template header): `__mc_tg_owner_N<T, 4>()` is mc_kernel::threadgroup_owner of
/// the instantiation `k<T, 4>`, which its body's variables name as their owner (their own
/// template arguments, `__mc_tg_owner_N<T, N>()`), so that each instantiation counts its own
/// sizes. Nothing for a kernel template whose parameters the body cannot name (one is unnamed
/// or a template template parameter).
struct ThreadgroupOwnerHelper {
    std::string name;          ///< `__mc_tg_owner_N`
    std::string bodyArguments; ///< `T, N, Ts...`
    std::size_t parameters = 0;
    std::size_t required = 0; ///< parameters without a default, packs not counted
    bool pack = false;
};
std::optional<ThreadgroupOwnerHelper> threadgroupOwnerHelper(const Unit& unit, std::size_t function);

/// Whether the glue can name the owner of instantiation `k<arguments>` by the arguments as
/// written: all the template's parameters but those with defaults (or a pack) are given.
bool namesThreadgroupOwner(const ThreadgroupOwnerHelper& helper, const Unit& unit, TokenRange arguments);

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
/// which is a checked pointer for arrays (metalcpu/checked.h). A declaration in a kernel
/// template's own body adds its owner (threadgroupOwnerHelper()), and one in a branch adds
/// whether the branch can run in the instantiation: `if (ARG) { threadgroup float v[N]; }`
/// gives `threadgroup_variable<float[N], KEY, __mc_tg_owner_3<ARG, N>(),
/// !(__builtin_constant_p(ARG) && !(ARG))>`, false where ARG is a constant false, as
/// Apple's compiler drops such a branch and its variables. Only conditions made of the
/// template's parameters, the body's constexpr variables, the file's function constants,
/// qualified names, literals and operators are written there
/// (a per-thread variable may not be in scope where a later pass moves the declaration);
/// any other condition counts as one that may be true.
void rewriteThreadgroupVariables(PassContext& context);

/// "0x123ull"
std::string siteKeyLiteral(std::uint64_t key);

} // namespace metalcpu::msl
