// Pass (the shader-validation flavour, and any file with function constants): every kernel's
// definition, and every free function that only some kernels can reach, sits under `#if` the
// selection of those kernels, so that a kernel's own flavour (METALCPU_ONLY_KERNEL) compiles
// only code that kernel can reach: code that does not compile instrumented costs only the
// kernels reaching it (jit/kernel_library.h), and a pipeline specialised with function
// constants compiles only its kernel's code, not the whole file again (jit/specialisation.h).
#pragma once

#include "compiler/passes/pass.h"

#include <cstddef>
#include <string>
#include <vector>

namespace metalcpu::msl {

class Unit;
struct EntryPoint;
struct Findings;
struct TranslateOptions;

/// Whether a translation's kernels can be selected (the pass runs, and the entry points' glue
/// is guarded alike): the validation flavour, a file with function constants, and a file of
/// more kernels than TranslateOptions::selectKernelsAbove, whose text the runtime compiles
/// again for one kernel.
bool selectsKernels(const TranslateOptions& options, const Findings& findings);

/// Past this many kernels a function stays unguarded: its `#if` would list them all, and a
/// file's shared helpers would make the text grow with helpers times kernels.
inline constexpr std::size_t kMaxSelectedKernels = 32;

/// Which kernels can reach each function definition, by name (overloads together), found
/// conservatively: a definition is *selected* (its reach is known) when it is a kernel with a
/// body, or a free function (namespace scope, not a member, not an operator, not written with a
/// qualified name) whose name is mentioned only inside the bodies of selected definitions; its
/// reach is then the union of theirs, a kernel reaching its own entry points. A name mentioned
/// anywhere else (a global initialiser, a class body, a member function, a declaration's
/// parameters or return type, a function whose own reach is unknown) leaves every definition
/// of that name unselected. So does, for a kernel, any mention but its own explicit
/// instantiations (`typedef decltype(k<float>) k_t;` names it outside every body), and
/// then what it mentions is unselected too.
struct KernelReach {
    /// Per Module::functions index: whether the definition is selected.
    std::vector<bool> selected;
    /// Per Module::functions index: the entry points (Findings::entryPoints indices) that can
    /// reach it, in increasing order; meaningful only where selected.
    std::vector<std::vector<std::size_t>> kernels;
};

KernelReach findKernelReach(const Unit& unit, const std::vector<EntryPoint>& entryPoints);

/// The preprocessor condition that keeps code reached by `kernels` (entry-point indices):
/// `METALCPU_SELECTS_KERNEL(a) || METALCPU_SELECTS_KERNEL(b)`, or METALCPU_SELECTS_EVERY_KERNEL
/// when none reach it (only the whole file's flavour keeps it).
std::string selectionCondition(const std::vector<EntryPoint>& entryPoints, const std::vector<std::size_t>& kernels);

/// The pass: wraps each selected definition reached by fewer than all kernels (and at most
/// kMaxSelectedKernels) in `#if selectionCondition(...)` ... `#endif`. Runs last, so that the
/// guard is outside everything earlier passes inserted around the definition.
void selectKernelCode(PassContext& context);

} // namespace metalcpu::msl
