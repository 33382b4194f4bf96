#include "compiler/translate.h"

#include "compiler/call_graph.h"
#include "compiler/columns.h"
#include "compiler/diagnostics.h"
#include "compiler/emitter/code_writer.h"
#include "compiler/emitter/entry_points.h"
#include "compiler/edits.h"
#include "compiler/kernels.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/passes/restrictions.h"
#include "compiler/pipeline.h"
#include "compiler/lexer.h"
#include "compiler/scanner.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

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
    const Unit unit(tokens, partner, module);
    checkRestrictions(tokens, partner, module, lexer.includes(), files, options, diagnostics);
    Findings found = analyse(unit, module, options, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    std::set<std::size_t> coroutines, workItemLoops;
    for (const CoroutineKernel& k : found.coroutineKernels) coroutines.insert(k.function);
    for (const WorkItemKernel& k : found.workItemKernels) workItemLoops.insert(k.function);

    // 3. Rewrites.
    EditList edits(tokens, diagnostics);
    PassContext context{unit, edits, diagnostics, options, found};
    runPasses(context);
    if (diagnostics.hasErrors()) return fail(diagnostics);

    // 4. Entry points.
    std::map<std::size_t, std::vector<std::uint64_t>> sitesByFunction;
    for (const ThreadgroupDeclaration& d : found.threadgroupVariables)
        for (const ThreadgroupDeclarator& v : d.declarators) sitesByFunction[d.function].push_back(v.key);
    std::map<std::size_t, std::string> maxThreadsHelpers;
    std::vector<EntryPointCode> codes;
    Translation result;
    for (const EntryPoint& e : found.entryPoints) {
        const FunctionDecl& f = module.functions[e.function];
        const KernelAttributes& a = found.attributes[e.function];
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
        info.params = found.parameters[e.function];
        info.maxTotalThreadsPerThreadgroup = a.maxThreads;
        std::set<std::uint64_t> sites;
        for (std::size_t r : reachableFunctions(found.graph, e.function)) {
            if (found.graph.usesBarriersDirectly[r]) info.usesBarriers = true;
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
                                      addMaxThreadsHelper(edits, f, e.function, *a.maxThreadsExpression))
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
    writer.writeRaw(functionConstantsDefinition(found.functionConstants));
    writer.writeRaw("#include <metalcpu/kernel_prelude.h>\n");
    if (!found.accessSites.empty()) writer.writeRaw(accessSiteTable(found.accessSites, files));
    writer.writeTokens(tokens);
    writer.writeGenerated(kGeneratedFileName,
                          functionConstantTable(found.functionConstants) +
                              generateEntryPoints(codes, files.reportedName(0), options.validation, found.programConstants));
    result.ok = true;
    result.hasFunctionConstants = !found.functionConstants.empty();
    result.cpp = writer.take();
    result.diagnostics = diagnostics.take();
    return result;
}

} // namespace metalcpu::msl
