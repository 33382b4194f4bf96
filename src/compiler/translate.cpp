#include "compiler/translate.h"

#include "compiler/call_graph.h"
#include "compiler/columns.h"
#include "compiler/diagnostics.h"
#include "compiler/emitter/code_writer.h"
#include "compiler/emitter/entry_points.h"
#include "compiler/kernels.h"
#include "compiler/lexer.h"
#include "compiler/passes/address_spaces.h"
#include "compiler/passes/attributes.h"
#include "compiler/passes/barrier_coroutines.h"
#include "compiler/passes/checked_accesses.h"
#include "compiler/passes/constant_initialisation.h"
#include "compiler/passes/designators.h"
#include "compiler/passes/division.h"
#include "compiler/passes/function_constants.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/passes/literals.h"
#include "compiler/passes/member_overloads.h"
#include "compiler/passes/member_specialisations.h"
#include "compiler/passes/pragmas.h"
#include "compiler/passes/program_constants.h"
#include "compiler/passes/restrictions.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/passes/work_item_loops.h"
#include "compiler/scanner.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"

#include <map>
#include <set>

namespace metalcpu::msl {

namespace {

/// The file name the generated code's #line marker uses.
constexpr const char* kGeneratedFileName = "<metalcpu generated>";

Translation fail(Diagnostics& diagnostics) {
    Translation result;
    result.diagnostics = diagnostics.take();
    return result;
}

} // namespace

Translation translate(std::string_view preprocessedSource, const TranslateOptions& options) {
    FileTable files(options.mainFile);
    Diagnostics diagnostics(files);

    // 1. Tokens.
    Lexer lexer(preprocessedSource, files, diagnostics);
    lexer.limitTokens(options.tokenLimit);
    TokenList tokens = lexer.lex();
    if (diagnostics.hasErrors()) return fail(diagnostics);
    // Only files kernel code may read are opened, so no message can quote another.
    OriginalSourceReader readOriginal = options.readOriginalSource;
    if (options.allowsFile && readOriginal)
        readOriginal = [&options](const std::string& file) -> std::optional<std::string> {
            if (!options.allowsFile(file)) return std::nullopt;
            return options.readOriginalSource(file);
        };
    restoreColumns(tokens, files, readOriginal);
    auto matched = matchBrackets(tokens, diagnostics);
    if (!matched) return fail(diagnostics);
    const std::vector<std::size_t>& partner = *matched;

    // 2. Structure, restrictions, kernels and their reflection.
    Module module = scanModule(tokens, partner, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    checkRestrictions(tokens, partner, module, lexer.includes(), files, options, diagnostics);
    std::vector<EntryPoint> entryPoints = findEntryPoints(tokens, module, diagnostics);
    std::vector<FunctionConstantDecl> functionConstants = findFunctionConstants(tokens, partner, module, diagnostics);
    std::map<std::size_t, std::vector<ParamInfo>> parameters;
    std::map<std::size_t, KernelAttributes> attributes;
    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (!f.isKernel || !f.hasBody) continue;
        parameters[i] = parseKernelParameters(tokens, partner, f, diagnostics);
        resolveConditionalParameters(functionConstants, tokens[f.nameToken].location, parameters[i], diagnostics);
        attributes[i] = parseKernelAttributes(tokens, f, diagnostics);
    }
    std::vector<ThreadgroupDeclaration> threadgroupVariables =
        findThreadgroupVariables(tokens, partner, module, options.fileKey, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    CallGraph graph = buildCallGraph(tokens, partner, module);
    std::vector<std::pair<std::size_t, std::string>> kernelFunctions;
    for (const EntryPoint& e : entryPoints) kernelFunctions.emplace_back(e.function, e.hostName);
    findFunctionConstantUsers(tokens, module, graph, kernelFunctions, functionConstants);
    std::vector<CoroutineKernel> coroutineKernels = findCoroutineKernels(tokens, partner, module, graph, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    // Barrier kernels become work-item loops where they can, coroutines otherwise; kernels
    // with SIMD-group functions only work-item loops (a coroutine runs one thread at a time).
    std::vector<WorkItemKernel> workItemKernels =
        findWorkItemKernels(tokens, partner, module, coroutineKernels, threadgroupVariables, parameters);
    for (const WorkItemKernel& w : workItemKernels)
        std::erase_if(coroutineKernels, [&](const CoroutineKernel& c) { return c.function == w.function; });
    std::erase_if(coroutineKernels, [](const CoroutineKernel& c) { return !c.collectives.empty(); });
    std::set<std::size_t> coroutines, workItemLoops;
    for (const CoroutineKernel& k : coroutineKernels) coroutines.insert(k.function);
    for (const WorkItemKernel& k : workItemKernels) workItemLoops.insert(k.function);

    // Shader validation accepts pointers into program-scope constants: find them while
    // the declarations are still MSL.
    std::vector<ProgramConstant> constants;
    if (options.validation) constants = findProgramConstants(tokens, partner, module);

    // 3. Rewrites.
    collapseAddressSpaceOverloads(tokens, partner, module, options.validation);
    rewriteMemberSpecialisations(tokens, partner, module);
    rewriteFunctionConstants(tokens, module, functionConstants); // before the attributes go
    rewriteKernelSignatures(tokens, partner, module);
    eraseKernelInstantiations(tokens, module);
    rewriteAttributes(tokens, partner);
    rewriteAddressSpaces(tokens, partner, diagnostics);
    rewriteConstantInitialisation(tokens, partner, module);
    rewriteDivisions(tokens, partner); // before rewriteThreadgroupVariables copies array bounds
    std::vector<AccessSite> accessSites;
    if (options.validation) {
        rewriteCheckedPointerTypes(tokens, partner);
        rewriteCheckedAccesses(tokens, partner, module, accessSites);
    }
    rewriteHalfLiterals(tokens);
    rewritePragmas(tokens);
    rewriteThreadgroupVariables(tokens, module, threadgroupVariables, options.validation);
    rewriteCoroutineKernels(tokens, coroutineKernels);
    rewriteWorkItemKernels(tokens, workItemKernels);
    rewriteArrayDesignators(tokens, partner, diagnostics); // last: copies values with their edits
    if (diagnostics.hasErrors()) return fail(diagnostics);

    // 4. Entry points.
    std::map<std::size_t, std::vector<std::uint64_t>> sitesByFunction;
    for (const ThreadgroupDeclaration& d : threadgroupVariables)
        for (const ThreadgroupDeclarator& v : d.declarators) sitesByFunction[d.function].push_back(v.key);
    std::map<std::size_t, std::string> maxThreadsHelpers;
    std::vector<EntryPointCode> codes;
    Translation result;
    for (const EntryPoint& e : entryPoints) {
        const FunctionDecl& f = module.functions[e.function];
        const KernelAttributes& a = attributes[e.function];
        EntryPointCode code;
        KernelInfo& info = code.info;
        info.hostName = e.hostName;
        info.functionExpression = e.functionExpression;
        info.frameName = tokens[f.nameToken].spelling;
        if (!e.templateArguments.empty()) info.frameName += "<" + e.templateArguments + ">";
        const Location where = tokens[f.nameToken].location;
        info.file = files.reportedName(where.file);
        info.line = static_cast<int>(where.line);
        info.column = static_cast<int>(where.column);
        info.params = parameters[e.function];
        info.maxTotalThreadsPerThreadgroup = a.maxThreads;
        std::set<std::uint64_t> sites;
        for (std::size_t r : reachableFunctions(graph, e.function)) {
            if (graph.usesBarriersDirectly[r]) info.usesBarriers = true;
            for (std::uint64_t key : sitesByFunction[r]) sites.insert(key);
        }
        info.threadgroupSites.assign(sites.begin(), sites.end());
        info.usesCoroutines = coroutines.count(e.function) != 0;
        info.usesWorkItemLoops = workItemLoops.count(e.function) != 0;
        if (a.maxThreadsExpression) {
            if (f.isTemplate) {
                auto it = maxThreadsHelpers.find(e.function);
                if (it == maxThreadsHelpers.end())
                    it = maxThreadsHelpers
                             .emplace(e.function,
                                      addMaxThreadsHelper(tokens, f, e.function, *a.maxThreadsExpression))
                             .first;
                code.maxThreadsExpression =
                    qualifiedName(f.namespaces, it->second) + "<" + e.templateArguments + ">()";
            } else {
                code.maxThreadsExpression =
                    sourceText(tokens, a.maxThreadsExpression->begin, a.maxThreadsExpression->end);
            }
        }
        code.namespaces = e.glueNamespaces;
        result.kernels.push_back(info);
        codes.push_back(std::move(code));
    }

    // 5. Output.
    CodeWriter writer(files);
    if (options.validation) writer.writeRaw("#define METALCPU_VALIDATION 1\n");
    writer.writeRaw(functionConstantsDefinition(functionConstants));
    writer.writeRaw("#include <metalcpu/kernel_prelude.h>\n");
    if (!accessSites.empty()) writer.writeRaw(accessSiteTable(accessSites, files));
    writer.writeTokens(tokens);
    writer.writeGenerated(kGeneratedFileName,
                          functionConstantTable(functionConstants) +
                              generateEntryPoints(codes, files.reportedName(0), options.validation, constants));
    result.ok = true;
    result.hasFunctionConstants = !functionConstants.empty();
    result.cpp = writer.take();
    result.diagnostics = diagnostics.take();
    return result;
}

} // namespace metalcpu::msl
