#include "compiler/pipeline.h"

#include "compiler/edits.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/passes/attributes.h"
#include "compiler/passes/constant_initialisation.h"
#include "compiler/passes/designators.h"
#include "compiler/passes/division.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/passes/literals.h"
#include "compiler/passes/member_overloads.h"
#include "compiler/passes/member_specialisations.h"
#include "compiler/passes/pragmas.h"
#include "compiler/unit.h"

#include <algorithm>

namespace metalcpu::msl {

Findings analyse(const Unit& unit, Module& module, const TranslateOptions& options, Diagnostics& diagnostics) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    Findings found;
    found.entryPoints = findEntryPoints(tokens, module, diagnostics);
    found.functionConstants = findFunctionConstants(tokens, partner, module, diagnostics);
    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (!f.isKernel || !f.hasBody) continue;
        found.parameters[i] = parseKernelParameters(tokens, partner, f, diagnostics);
        resolveConditionalParameters(found.functionConstants, tokens[f.nameToken].location, found.parameters[i],
                                     diagnostics);
        found.attributes[i] = parseKernelAttributes(tokens, f, diagnostics);
    }
    found.threadgroupVariables = findThreadgroupVariables(tokens, partner, module, options.fileKey, diagnostics);
    if (diagnostics.hasErrors()) return found;
    found.graph = buildCallGraph(tokens, partner, module);
    std::vector<std::pair<std::size_t, std::string>> kernelFunctions;
    for (const EntryPoint& e : found.entryPoints) kernelFunctions.emplace_back(e.function, e.hostName);
    findFunctionConstantUsers(tokens, module, found.graph, kernelFunctions, found.functionConstants);
    found.coroutineKernels = findCoroutineKernels(unit, found.graph, diagnostics);
    if (diagnostics.hasErrors()) return found;
    // Barrier kernels become work-item loops where they can, coroutines otherwise; kernels
    // with SIMD-group functions only work-item loops (a coroutine runs one thread at a time).
    found.workItemKernels =
        findWorkItemKernels(unit, found.coroutineKernels, found.threadgroupVariables, found.parameters);
    for (const WorkItemKernel& w : found.workItemKernels)
        std::erase_if(found.coroutineKernels, [&](const CoroutineKernel& c) { return c.function == w.function; });
    std::erase_if(found.coroutineKernels, [](const CoroutineKernel& c) { return !c.collectives.empty(); });
    // Shader validation accepts pointers into program-scope constants: find them while the
    // declarations are still MSL.
    if (options.validation) found.programConstants = findProgramConstants(tokens, partner, module);
    return found;
}

namespace {

// Transitional adapters: the passes not yet written against EditList get the tokens.
TokenList& tokensOf(PassContext& c) { return c.edits.uncheckedTokens(); }

void addressSpaceOverloads(PassContext& c) {
    collapseAddressSpaceOverloads(tokensOf(c), c.unit.partner(), c.unit.module(), c.options.validation);
}
void memberSpecialisations(PassContext& c) { rewriteMemberSpecialisations(tokensOf(c), c.unit.partner(), c.unit.module()); }
void functionConstants(PassContext& c) {
    rewriteFunctionConstants(tokensOf(c), c.unit.module(), c.findings.functionConstants);
}
void attributes(PassContext& c) { rewriteAttributes(tokensOf(c), c.unit.partner()); }
void addressSpaces(PassContext& c) { rewriteAddressSpaces(tokensOf(c), c.unit.partner(), c.diagnostics); }
void constantInitialisation(PassContext& c) {
    rewriteConstantInitialisation(tokensOf(c), c.unit.partner(), c.unit.module());
}
void divisions(PassContext& c) { rewriteDivisions(tokensOf(c), c.unit.partner()); }
void checkedPointerTypes(PassContext& c) { rewriteCheckedPointerTypes(tokensOf(c), c.unit.partner()); }
void checkedAccesses(PassContext& c) {
    rewriteCheckedAccesses(tokensOf(c), c.unit.partner(), c.unit.module(), c.findings.accessSites);
}
void halfLiterals(PassContext& c) { rewriteHalfLiterals(tokensOf(c)); }
void pragmas(PassContext& c) { rewritePragmas(tokensOf(c)); }
void threadgroupVariables(PassContext& c) {
    rewriteThreadgroupVariables(tokensOf(c), c.unit.module(), c.findings.threadgroupVariables, c.options.validation);
}
void arrayDesignators(PassContext& c) { rewriteArrayDesignators(tokensOf(c), c.unit.partner(), c.diagnostics); }

} // namespace

const std::vector<PassInfo>& passes() {
    // Why this order:
    // - function-constants runs before attributes, which erases the [[function_constant]]s it reads;
    // - divisions runs before threadgroup-variables, which copies array bounds with their edits;
    // - the checked passes run after the type rewrites they build on;
    // - threadgroup-variables, coroutines and work-item loops copy rewritten text;
    // - array-designators runs last: it copies initialiser values with every edit in them.
    static const std::vector<PassInfo> kPasses = {
        {"address-space-overloads", addressSpaceOverloads, false},
        {"member-specialisations", memberSpecialisations, false},
        {"function-constants", functionConstants, false},
        {"kernel-signatures", rewriteKernelSignatures, false},
        {"kernel-instantiations", eraseKernelInstantiations, false},
        {"attributes", attributes, false},
        {"address-spaces", addressSpaces, false},
        {"constant-initialisation", constantInitialisation, false},
        {"divisions", divisions, false},
        {"checked-pointer-types", checkedPointerTypes, true},
        {"checked-accesses", checkedAccesses, true},
        {"half-literals", halfLiterals, false},
        {"pragmas", pragmas, false},
        {"threadgroup-variables", threadgroupVariables, false},
        {"coroutine-kernels", rewriteCoroutineKernels, false},
        {"work-item-loops", rewriteWorkItemKernels, false},
        {"array-designators", arrayDesignators, false},
    };
    return kPasses;
}

void runPasses(PassContext& context, std::string_view last) {
    for (const PassInfo& p : passes()) {
        if (p.validationOnly && !context.options.validation) continue;
        context.edits.beginPass(p.name);
        p.run(context);
        if (p.name == last) break;
    }
}

} // namespace metalcpu::msl
