#include "compiler/pipeline.h"

#include "compiler/edits.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/passes/air_intrinsics.h"
#include "compiler/passes/aggregate_constructors.h"
#include "compiler/passes/argument_buffers.h"
#include "compiler/passes/attributes.h"
#include "compiler/passes/checked_accesses.h"
#include "compiler/passes/checked_value_casts.h"
#include "compiler/passes/collective_calls.h"
#include "compiler/passes/lockstep_points.h"
#include "compiler/passes/constant_initialisation.h"
#include "compiler/passes/designators.h"
#include "compiler/passes/division.h"
#include "compiler/passes/function_pointer_casts.h"
#include "compiler/passes/interleaved_threads.h"
#include "compiler/passes/lane_vectors.h"
#include "compiler/passes/kernel_selection.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/passes/literals.h"
#include "compiler/passes/member_overloads.h"
#include "compiler/passes/member_specialisations.h"
#include "compiler/passes/pragmas.h"
#include "compiler/passes/restrictions.h"
#include "compiler/passes/string_literals.h"
#include "compiler/passes/swizzle_assignments.h"
#include "compiler/passes/vector_conversions.h"
#include "compiler/unit.h"

#include <algorithm>

namespace metalcpu::msl {

const std::vector<CheckInfo>& checks() {
    // Independent of one another; the order is only that of their diagnostics.
    static const std::vector<CheckInfo> kChecks = {
        {"included-files", checkIncludedFiles},
        {"restricted-tokens", checkRestrictedTokens},
        {"function-pointer-casts", checkFunctionPointerCasts},
        {"restricted-declarations", checkRestrictedDeclarations},
    };
    return kChecks;
}

void runChecks(const CheckContext& context) {
    for (const CheckInfo& c : checks()) c.run(context);
}

Findings analyse(const Unit& unit, Module& module, const TranslateOptions& options, Diagnostics& diagnostics) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    Findings found;
    found.entryPoints = findEntryPoints(tokens, module, diagnostics);
    found.functionConstants = findFunctionConstants(unit, diagnostics);
    found.spaceAliases = findSpaceAliases(unit);
    const std::map<std::string, std::string> derivedConstants = derivedFunctionConstants(unit, found.functionConstants);
    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (!f.isKernel || !f.hasBody) continue;
        found.parameters[i] = parseKernelParameters(tokens, partner, f, diagnostics);
        resolveConditionalParameters(found.functionConstants, derivedConstants, tokens[f.nameToken].location,
                                     found.parameters[i], diagnostics);
        found.attributes[i] = parseKernelAttributes(tokens, f, diagnostics);
    }
    // Buffers that point at an argument-buffer struct reflect its members for ArgumentEncoder;
    // those that point at another struct the front end can describe, for MTL::StructType.
    const std::vector<ArgumentStruct> argumentStructs = findArgumentStructs(unit);
    const std::vector<ArgumentStruct> dataStructs = findDataStructs(unit);
    for (auto& [function, params] : found.parameters)
        for (ParamInfo& p : params) {
            if (p.kind != ParamKind::Buffer) continue;
            if (const ArgumentStruct* s = argumentStructOf(argumentStructs, p.typeText)) {
                p.arguments = p.members = s->members;
                p.nestedArguments = nestedArgumentStructs(argumentStructs, *s);
            } else if (const ArgumentStruct* d = argumentStructOf(dataStructs, p.typeText)) {
                p.members = d->members;
                p.nestedArguments = nestedArgumentStructs(dataStructs, *d);
            }
        }
    found.threadgroupVariables = findThreadgroupVariables(unit, options.fileKey, diagnostics);
    if (diagnostics.hasErrors()) return found;
    found.graph = buildCallGraph(tokens, partner, module);
    findFunctionConstantUsers(unit, found.graph, found.entryPoints, found.functionConstants);
    found.coroutineKernels =
        findCoroutineKernels(unit, found.graph, found.entryPoints, found.workItemRefusals);
    if (diagnostics.hasErrors()) return found;
    // Barrier kernels become work-item loops where they can, coroutines otherwise; kernels
    // with SIMD-group functions only work-item loops (a coroutine runs one thread at a time).
    found.workItemKernels =
        findWorkItemKernels(unit, found.coroutineKernels, found.threadgroupVariables, found.parameters,
                            found.workItemRefusals);
    for (const WorkItemKernel& w : found.workItemKernels)
        std::erase_if(found.coroutineKernels, [&](const CoroutineKernel& c) { return c.function == w.function; });
    std::erase_if(found.coroutineKernels,
                  [](const CoroutineKernel& c) { return !c.collectives.empty() || !c.laneUsers.empty(); });
    // Barrier-free kernels with a uniform loop run their threads interleaved in it.
    for (WorkItemKernel& k : findInterleavedKernels(unit, found.graph, found.parameters, found.threadgroupVariables,
                                                    options.interleaveThreads, options.interleaveLanes,
                                                    found.interleavingRefusals))
        found.workItemKernels.push_back(std::move(k));
    // Of those, the ones whose body can run a row of threads as the lanes of vectors.
    found.laneBodies = planLaneBodies(unit, found.workItemKernels, found.parameters, options, found.laneRefusals);
    // Shader validation accepts pointers into program-scope constants: find them while the
    // declarations are still MSL.
    if (options.validation) found.programConstants = findProgramConstants(tokens, partner, module);
    return found;
}


const std::vector<PassInfo>& passes() {
    // Why this order:
    // - air-intrinsics runs first: the declarations it erases are the kernel library's
    //   functions, which no other pass may rewrite (address-space-overloads would keep one of
    //   the two copy directions);
    // - address-space-overloads runs next, on the address spaces as written, and erases only
    //   declarations in supported spaces: one in `ray_data` & co. stays for address-spaces to
    //   report (no later pass looks at erased code);
    // - aggregate-constructors runs after it, and erases what it kept of a class's defaulted
    //   constructors;
    // - function-constants runs before attributes, which erases the [[function_constant]]s it reads;
    // - divisions runs before threadgroup-variables, which copies array bounds with their edits;
    // - swizzle-assignments rewrites only the `=` of an assignment, which checked-accesses
    //   leaves alone (it erases the members it checks: `store_member(...)->*__mc_swz= e`), and
    //   runs before the passes that copy rewritten text;
    // - checked-pointer-types runs before address-spaces: in the validation flavour the address
    //   spaces of pointers become checked pointers, and address-spaces rewrites only the rest
    //   (each qualifier is rewritten once);
    // - collective-calls runs before checked-accesses and everything that wraps expressions:
    //   its `(call site, f(x))` must be inside what they insert around `f(x)` (`load(`...`)`),
    //   and after address-space-overloads, whose erased code must not print its insertions;
    // - lockstep-points only inserts a statement before an `if` of a fiber kernel, which no
    //   other pass rewrites or copies (coroutines and work-item loops are not on fibers);
    // - checked-value-casts runs after checked-pointer-types, whose casts to checked pointers
    //   (pointer_cast) it leaves alone;
    // - checked-accesses runs after the type rewrites it builds on;
    // - string-literals runs before the passes that copy rewritten text (threadgroup-variables,
    //   array-designators, member-specialisations), so the copies name the literals' objects;
    // - threadgroup-variables, coroutines and work-item loops copy rewritten text;
    // - array-designators runs late: it copies initialiser values with every edit in them;
    // - member-specialisations runs last: it copies the primary template's parameters with
    //   every edit in them (address spaces, checked pointers, default arguments);
    // - kernel-selection runs after all of them: its `#if` ... `#endif` around a definition must
    //   enclose everything the others inserted there (a coroutine kernel's return type).
    static const std::vector<PassInfo> kPasses = {
        {"air-intrinsics", eraseAirIntrinsicDeclarations, false},
        {"address-space-overloads", collapseAddressSpaceOverloads, false},
        {"aggregate-constructors", eraseAggregateConstructors, false},
        {"function-constants", rewriteFunctionConstants, false},
        {"kernel-signatures", rewriteKernelSignatures, false},
        {"kernel-instantiations", eraseKernelInstantiations, false},
        {"attributes", rewriteAttributes, false},
        {"argument-buffer-samplers", rewriteArgumentBufferSamplers, false},
        {"checked-pointer-types", rewriteCheckedPointerTypes, true},
        {"checked-value-casts", rewriteCheckedValueCasts, true},
        {"address-spaces", rewriteAddressSpaces, false},
        {"constant-initialisation", rewriteConstantInitialisation, false},
        {"collective-calls", markCollectiveCalls, false},
        {"lockstep-points", insertLockstepPoints, false},
        {"divisions", rewriteDivisions, false},
        {"swizzle-assignments", rewriteSwizzleAssignments, false},
        {"checked-accesses", rewriteCheckedAccesses, true},
        {"string-literals", rewriteStringLiterals, true},
        {"half-literals", rewriteHalfLiterals, false},
        {"vector-conversions", rewriteVectorConversions, false},
        {"pragmas", rewritePragmas, false},
        {"threadgroup-variables", rewriteThreadgroupVariables, false},
        {"coroutine-kernels", rewriteCoroutineKernels, false},
        {"work-item-loops", rewriteWorkItemKernels, false},
        {"array-designators", rewriteArrayDesignators, false},
        {"member-specialisations", rewriteMemberSpecialisations, false},
        {"kernel-selection", selectKernelCode, false}, // decides itself: selectsKernels()
    };
    return kPasses;
}

bool runPasses(PassContext& context, std::string_view last) {
    const auto runs = [&](const PassInfo& p) { return !p.validationOnly || context.options.validation; };
    if (!last.empty() && std::ranges::none_of(passes(), [&](const PassInfo& p) { return runs(p) && p.name == last; }))
        return false;
    for (const PassInfo& p : passes()) {
        if (!runs(p)) continue;
        context.edits.beginPass(p.name);
        p.run(context);
        if (p.name == last) break;
    }
    return true;
}

} // namespace metalcpu::msl
