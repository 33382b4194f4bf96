// The front end's stages after parsing, in order: the checks of the restricted dialect and the
// analyses, which read the MSL as written, then the rewrite passes; the checks and the passes
// each with one signature (passes/pass.h).
#pragma once

#include "compiler/findings.h"
#include "compiler/passes/pass.h"

#include <string_view>
#include <vector>

namespace metalcpu::msl {

/// One check of the restricted dialect.
struct CheckInfo {
    const char* name;
    CheckFunction run;
};

/// The checks in the order they run (their diagnostics come in this order).
const std::vector<CheckInfo>& checks();

/// Runs every check; each reports in `context.diagnostics`, and all run whatever the others
/// found, so one translation lists every violation (the caller stops on errors after analyse()).
void runChecks(const CheckContext& context);

/// Everything the rewrites and the generated entry points need to know, read from the
/// unit before any rewrite. Reports problems in `diagnostics` (the caller stops on errors).
/// `module` gains the instantiations' targets (findEntryPoints()).
Findings analyse(const Unit& unit, Module& module, const TranslateOptions& options, Diagnostics& diagnostics);

/// One rewrite pass and why it runs where it does.
struct PassInfo {
    const char* name;
    PassFunction run;
    bool validationOnly; ///< runs only for the shader-validation flavour
};

/// The passes in the order they run.
const std::vector<PassInfo>& passes();

/// Runs the passes in order, each after EditList::beginPass(its name); stops after the pass
/// named `last` when it is not empty (tests look at the output part-way). Returns false, and
/// runs nothing, when `last` names no pass that runs in this flavour (a misspelling, or a
/// validation-only pass while validation is off), instead of silently running them all.
bool runPasses(PassContext& context, std::string_view last = {});

} // namespace metalcpu::msl
