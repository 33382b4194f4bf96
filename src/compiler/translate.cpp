#include "compiler/translate.h"

#include "compiler/columns.h"
#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/emitter/code_writer.h"
#include "compiler/emitter/entry_points.h"
#include "compiler/kernel_descriptions.h"
#include "compiler/lexer.h"
#include "compiler/passes/helper_inlining.h"
#include "compiler/passes/kernel_selection.h"
#include "compiler/pipeline.h"
#include "compiler/qualifier_order.h"
#include "compiler/render_functions.h"
#include "compiler/scanner.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"
#include "compiler/unit.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

Translation fail(Diagnostics& diagnostics) {
    Translation result;
    result.diagnostics = diagnostics.take();
    return result;
}

/// Whether the kernel includes a Metal 4 tensor header. Before translation such an #include
/// reaches only the header's empty stand-in, so the translation asks the prelude for the real
/// headers; kernels that do not include them keep the names tensor, extents & co. to themselves.
bool includesTensorHeaders(const FileTable& files) {
    for (std::uint32_t f = 0; f < files.size(); ++f) {
        const std::string_view name = files.spelling(f);
        if (name.ends_with("/metal_tensor") || name.ends_with("/metal_cooperative_tensor") ||
            name.find("/MetalPerformancePrimitives/") != std::string_view::npos)
            return true;
    }
    return false;
}

/// Whether the kernel includes <metal_simdgroup_future> (reaching its stand-in, as above).
bool includesSimdgroupFuture(const FileTable& files) {
    for (std::uint32_t f = 0; f < files.size(); ++f)
        if (files.spelling(f).ends_with("/metal_simdgroup_future")) return true;
    return false;
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
    std::vector<std::size_t> partner = std::move(*matched);
    markNonTemplateNames(tokens, partner);
    placeAddressSpacesFirst(tokens, partner);

    // 2. Structure, restrictions, kernels and their reflection.
    Module module = scanModule(tokens, partner, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    std::vector<std::string> renderFunctions = removeRenderFunctions(tokens, partner, module, files);
    // The checks read the MSL as written; the analyses read it with the helpers that
    // synchronise inlined into the kernels (passes/helper_inlining.h).
    runChecks(CheckContext{Unit(tokens, partner, module), lexer.includes(), files, options, diagnostics});
    // (A unit the checks refuse is analysed as written, for its diagnostics.)
    const std::vector<InliningRefusal> inliningRefusals =
        diagnostics.hasErrors() ? std::vector<InliningRefusal>{}
                                : inlineSynchronisingHelpers(tokens, partner, module, files);
    const Unit unit(tokens, partner, module);
    Findings found = analyse(unit, module, options, diagnostics);
    if (diagnostics.hasErrors()) return fail(diagnostics);
    explainInliningRefusals(inliningRefusals, tokens, module, files, found.workItemRefusals);
    // 3. Rewrites.
    EditList edits(tokens, diagnostics);
    PassContext context{unit, edits, diagnostics, options, found};
    runPasses(context);
    if (diagnostics.hasErrors()) return fail(diagnostics);

    // 4. Entry points.
    Translation result;
    const std::vector<EntryPointCode> codes = describeEntryPoints(unit, edits, found, files);
    for (const EntryPointCode& code : codes) result.kernels.push_back(code.info);

    // 5. Output.
    CodeWriter writer(files);
    // Before the prelude only what it reads (the flavour); the file's own definitions after it.
    if (options.validation) writer.writeRaw("#define METALCPU_VALIDATION 1\n");
    if (includesTensorHeaders(files)) writer.writeRaw("#define METALCPU_TENSOR_HEADERS 1\n");
    if (includesSimdgroupFuture(files)) writer.writeRaw("#define METALCPU_SIMDGROUP_FUTURE 1\n");
    writer.writeRaw(std::string(kPreludeInclude));
    writer.writeRaw(functionConstantsDefinition(found.functionConstants));
    if (!found.accessSites.empty()) writer.writeRaw(accessSiteTable(found.accessSites, files));
    if (!found.memberSelectors.empty()) writer.writeRaw(memberSelectorDefinitions(found.memberSelectors));
    if (!found.stringLiterals.empty()) writer.writeRaw(stringLiteralDefinitions(found.stringLiterals));
    writer.writeTokens(tokens);
    const std::string constantTable =
        functionConstantTable(found.functionConstants) + renderFunctionTable(renderFunctions);
    const auto tableLines = static_cast<std::size_t>(std::count(constantTable.begin(), constantTable.end(), '\n'));
    writer.writeGenerated(kGeneratedFileName, constantTable + generateEntryPoints(codes, files.reportedName(0),
                                                                                  options.validation,
                                                                                  found.programConstants, tableLines + 1,
                                                                                  /*selectsKernels=*/true));
    result.ok = true;
    result.hasFunctionConstants = !found.functionConstants.empty();
    result.renderFunctions = std::move(renderFunctions);
    const std::string columns = writer.columnMap();
    result.cpp = writer.take() + columns;
    result.diagnostics = diagnostics.take();
    return result;
}

const ParamInfo* parameterNamed(const std::vector<ParamInfo>& params, std::string_view name) {
    for (const ParamInfo& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

} // namespace metalcpu::msl
