#include "compiler/passes/restrictions.h"

#include "compiler/diagnostics.h"
#include "compiler/lexer.h"
#include "compiler/passes/air_intrinsics.h"
#include "compiler/passes/pragmas.h"
#include "compiler/passes/reserved_names.h"
#include "compiler/signature.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <set>

namespace metalcpu::msl {

namespace {

// GCC attributes that only affect code generation or diagnostics. Not `target` and
// `target_clones`: versions of a function for several targets are chosen by an IFUNC
// resolver, which the dynamic loader runs while the library loads.
bool isHarmlessGnuAttribute(std::string name) {
    if (name.size() > 4 && name.starts_with("__") && name.ends_with("__"))
        name = name.substr(2, name.size() - 4);
    static const char* const kHarmless[] = {
        "always_inline",
        "noinline",
        "flatten",
        "aligned",
        "packed",
        "unused",
        "used",
        "const",
        "pure",
        "hot",
        "cold",
        "may_alias",
        "vector_size",
        "deprecated",
        "maybe_unused",
        "nonnull",
        "returns_nonnull",
        "warn_unused_result",
        "noreturn",
        "artificial",
        "gnu_inline",
        "leaf",
        "nothrow",
        "mode",
        "transparent_union",
        "designated_init",
        "fallthrough",
        "unavailable",
        "noipa",
        "noclone",
        "no_icf",
        "optimize",
        "assume_aligned",
        "alloc_align",
        "alloc_size",
        "access",
        "nonstring",
        "warning",
        "error",
        "format",
        "format_arg",
        "sentinel",
        "no_sanitize",
        "no_sanitize_address",
        "no_sanitize_undefined",
        "no_stack_protector",
        "likely",
        "unlikely",
        "scalar_storage_order",
        "vector",
        "simd",
    };
    for (const char* h : kHarmless)
        if (name == h) return true;
    return false;
}

std::string stripGnuNamespace(const std::string& name) {
    if (name.starts_with("gnu::")) return name.substr(5);
    if (name.starts_with("__gnu__::")) return name.substr(9);
    return name;
}

void checkGnuAttributeList(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t open,
                           std::size_t close, Diagnostics& diagnostics) {
    // `__attribute__((a, b(x), c))`: names at depth 0 inside the inner parentheses.
    for (std::size_t i = open; i < close; ++i) {
        const Token& t = tokens[i];
        if (t.isPunct("(") && partner[i] != kNoToken) {
            i = partner[i];
            continue;
        }
        if (t.isIdentifier() && !isHarmlessGnuAttribute(t.spelling)) {
            diagnostics.error(t.location, "attribute '" + t.spelling + "' is not allowed in kernel code");
        }
    }
}

/// `double` and the vector and matrix names built on it (`double2`, `double4x4`), none of
/// which MSL has.
bool isDoubleTypeName(const std::string& s) {
    if (!s.starts_with("double")) return false;
    const std::string_view rest = std::string_view(s).substr(6);
    const auto dimension = [](char c) { return c >= '2' && c <= '4'; };
    return rest.empty() || (rest.size() == 1 && dimension(rest[0])) ||
           (rest.size() == 3 && dimension(rest[0]) && rest[1] == 'x' && dimension(rest[2]));
}

} // namespace

void checkIncludedFiles(const CheckContext& context) {
    const TranslateOptions& options = context.options;
    if (!options.allowsFile) return;
    for (const IncludeEvent& include : context.includes) {
        const std::string& name = context.files.spelling(include.file);
        if (include.file == 0 || FileTable::isPseudoFile(name)) continue;
        if (include.lineDirective && options.allowsLineName ? options.allowsLineName(name) : options.allowsFile(name))
            continue;
        context.diagnostics.error(include.includedFrom, (include.lineDirective ? "'#line' cannot name '" + name
                                                                               : "kernel code cannot include '" + name) +
                                                            "': it is outside the allowed include directories");
    }
}

/// The components of `vec<T, N>` at `i` (the `vec` of `vec<` or `metal::vec<`) when N is a
/// literal, else 0.
unsigned long literalComponents(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    if (i + 1 >= tokens.size() || !tokens[i + 1].isPunct("<")) return 0;
    if (i >= 2 && tokens[i - 1].isPunct("::") && !tokens[i - 2].isIdentifier("metal")) return 0;
    const std::size_t close = closingAngle(tokens, partner, i + 1, tokens.size());
    if (close == kNoToken || close < 5 || !tokens[close - 2].isPunct(",") || tokens[close - 1].kind != TokenKind::Number)
        return 0;
    return std::strtoul(tokens[close - 1].spelling.c_str(), nullptr, 0);
}

/// The error for the `asm` at `i`: a label naming an AIR intrinsic says what metalcpu has of them.
std::string assemblyError(const TokenList& tokens, std::size_t i) {
    const std::string what = "kernel code cannot contain assembly";
    if (i + 2 >= tokens.size() || tokens[i + 2].kind != TokenKind::String || !tokens[i + 2].spelling.starts_with("\"air."))
        return what;
    const std::string& quoted = tokens[i + 2].spelling;
    const std::string_view function = airIntrinsicFunction(std::string_view(quoted).substr(1, quoted.size() - 2));
    // MFA's and others' headers name Apple's AIR intrinsics so (async copies).
    if (!function.empty())
        return what + ": Apple's AIR intrinsic " + quoted + " binds only a declaration named '" +
               std::string(function) + "' at program scope";
    return what + ": Apple's AIR intrinsic " + quoted +
           " is not there on the CPU (metalcpu has the SIMD-group async copies, air.simdgroup_async_copy_1d/_2d "
           "and air.wait_simdgroup_events)";
}

void checkRestrictedTokens(const CheckContext& context) {
    const TokenList& tokens = context.unit.tokens();
    const std::vector<std::size_t>& partner = context.unit.partner();
    Diagnostics& diagnostics = context.diagnostics;
    // A program's own `vec` template (not metal's) may take any number.
    bool ownVec = false;
    for (std::size_t i = 1; i < tokens.size(); ++i)
        ownVec = ownVec || (tokens[i].isIdentifier("vec") && (tokens[i - 1].isIdentifier("struct") ||
                                                             tokens[i - 1].isIdentifier("class") ||
                                                             tokens[i - 1].isIdentifier("using")));
    // The labels of declarations that bind an AIR intrinsic the kernel library implements.
    std::set<std::size_t> boundLabels;
    for (const FunctionDecl& f : context.unit.module().functions)
        if (bindsAirIntrinsic(context.unit, f)) boundLabels.insert(asmLabelToken(context.unit, f));
    // A program's own `printf` (a function it defines or declares) is its business.
    bool ownPrintf = false;
    for (const FunctionDecl& f : context.unit.module().functions) ownPrintf = ownPrintf || f.name == "printf";
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind == TokenKind::Pragma) {
            std::vector<std::string> words = pragmaWords(t.spelling);
            if (!words.empty() && (words[0] == "weak" || words[0] == "redefine_extname"))
                diagnostics.error(t.location, "'#pragma " + words[0] + "' is not allowed in kernel code");
            // The preprocessor runs it (it fails on a missing file), so none should be left;
            // the compile of the translated text would run it again.
            if (words.size() >= 2 && words[0] == "GCC" && words[1] == "dependency")
                diagnostics.error(t.location, "'#pragma GCC dependency' is not allowed in kernel code: it tells "
                                              "whether a file exists");
            continue;
        }
        if (t.kind != TokenKind::Identifier) continue;
        const std::string& s = t.spelling;
        if (std::optional<std::string> why = refusedName(s)) {
            diagnostics.error(t.location, std::move(*why));
        } else if (s == "extern") {
            diagnostics.error(t.location, "kernel code cannot declare extern symbols");
        } else if (s == "asm" || s == "__asm__" || s == "__asm") {
            if (boundLabels.count(i + 2)) continue;
            diagnostics.error(t.location, assemblyError(tokens, i));
        } else if (s == "vec" && !ownVec) {
            // vec<T, 64> is the storage of a SIMD-group matrix (metalcpu/stdlib/simdgroup_storage.h).
            const unsigned long n = literalComponents(tokens, partner, i);
            if (n != 0 && (n < 2 || n > 4) && n != 64)
                diagnostics.error(t.location, "metal::vec has 2, 3 or 4 components, not " + std::to_string(n));
        } else if (s == "thread_local" || s == "__thread" || s == "_Thread_local") {
            diagnostics.error(t.location, "kernel code cannot declare thread_local variables");
        } else if (s == "_Pragma" || s == "__pragma") {
            // The preprocessor runs every _Pragma; one left over would run in the compile of
            // the translated text, unchecked.
            diagnostics.error(t.location, "'" + s + "' cannot remain in preprocessed kernel code");
        } else if (s == "printf" && !ownPrintf && i + 1 < tokens.size() && tokens[i + 1].isPunct("(") &&
                   !(i > 0 && (tokens[i - 1].isPunct(".") || tokens[i - 1].isPunct("->")))) {
            // GCC would say it is undeclared and suggest <cstdio>, which kernel code cannot include.
            diagnostics.error(t.location, "'printf' is not available in Metal: log with os_log "
                                          "(os_log_default.log(\"x = %d\", x), from <metal_logging>) in a library "
                                          "compiled with logging enabled (MTL::CompileOptions::setEnableLogging, "
                                          "metal -fmetal-enable-logging)");
        } else if (isDoubleTypeName(s)) {
            // Metal has no 64-bit floating point; g++ would compile `double` silently and fail
            // on `double2` with a page about our vector templates.
            diagnostics.error(t.location, "'" + s + "' is not supported in Metal");
        } else if (s == "goto") {
            diagnostics.error(t.location, "goto is not supported in metal shading language");
        } else if (s == "new" || s == "delete") {
            bool deletedFunction = s == "delete" && i > 0 && tokens[i - 1].isPunct("=");
            if (!deletedFunction) diagnostics.error(t.location, "kernel code cannot use '" + s + "'");
        } else if (startsGnuAttribute(tokens, partner, i)) {
            std::size_t close = partner[i + 1];
            if (tokens[i + 2].isPunct("(") && partner[i + 2] != kNoToken)
                checkGnuAttributeList(tokens, partner, i + 3, partner[i + 2], diagnostics);
            i = close;
        }
    }
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!startsAttributeSpec(tokens, i) || partner[i] == kNoToken) continue;
        AttributeSpec spec = parseAttributeSpec(tokens, partner, i);
        for (const Attribute& a : spec.attributes) {
            if ((a.name.starts_with("gnu::") || a.name.starts_with("__gnu__::")) &&
                !isHarmlessGnuAttribute(stripGnuNamespace(a.name)))
                diagnostics.error(tokens[a.nameToken].location,
                                  "attribute '" + a.name + "' is not allowed in kernel code");
        }
        i = spec.close;
    }
}

namespace {

/// The names of `f`'s parameters (the last identifier of each, before any attribute).
std::set<std::string> parameterNames(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                     const FunctionDecl& f) {
    std::set<std::string> names;
    if (f.parametersOpen == kNoToken || f.parametersClose == kNoToken) return names;
    for (TokenRange range : splitParameters(tokens, partner, f.parametersOpen, f.parametersClose)) {
        std::size_t end = range.end;
        for (std::size_t k = range.begin; k < range.end; ++k)
            if (startsAttributeSpec(tokens, k)) {
                end = k;
                break;
            }
        if (end > range.begin && tokens[end - 1].isIdentifier() && !isCppKeyword(tokens[end - 1].spelling))
            names.insert(tokens[end - 1].spelling);
    }
    return names;
}

/// Reports the arrays declared in `f`'s body whose size uses one of its parameters (`float
/// tmp[n];`, `threadgroup float s[n];`): a parameter is never a constant expression, so each
/// is a variable-length array. Only that common form is found; a size from a local variable
/// is left to the host compiler.
void checkVariableLengthArrays(const TokenList& tokens, const std::vector<std::size_t>& partner, const FunctionDecl& f,
                               Diagnostics& diagnostics) {
    const std::set<std::string> parameters = parameterNames(tokens, partner, f);
    if (parameters.empty()) return;
    static const std::set<std::string_view> kTypeKeywords = {"int",  "float",    "double", "char", "short",
                                                             "long", "unsigned", "signed", "bool", "auto"};
    for (std::size_t k = f.bodyOpen + 1; k + 1 < f.bodyClose; ++k) {
        const Token& name = tokens[k];
        if (!name.isIdentifier() || isCppKeyword(name.spelling) || !tokens[k + 1].isPunct("[")) continue;
        const std::size_t close = partner[k + 1];
        if (close == kNoToken || close + 1 >= f.bodyClose) continue;
        // A declarator: right after a type's name (not `return x[n]`, `a.b[n]`, `f(x[n])`,
        // nor `a > b[n]`, so not after a template's `>` either), before what may follow one.
        const Token& before = tokens[k - 1];
        const bool afterType =
            before.isIdentifier() && (!isCppKeyword(before.spelling) || kTypeKeywords.count(before.spelling));
        const Token& after = tokens[close + 1];
        if (!afterType || !(after.isPunct(";") || after.isPunct("=") || after.isPunct(",") || after.isPunct("[") ||
                            after.isPunct("{")))
            continue;
        for (std::size_t e = k + 2; e < close; ++e)
            if (tokens[e].isIdentifier() && parameters.count(tokens[e].spelling) &&
                !(e > 0 && (tokens[e - 1].isPunct(".") || tokens[e - 1].isPunct("->") || tokens[e - 1].isPunct("::")))) {
                diagnostics.error(name.location, "variable-length arrays are not supported in Metal: the size of '" +
                                                     name.spelling + "' uses parameter '" + tokens[e].spelling +
                                                     "', which is not a constant expression; give the array a "
                                                     "constant size (a literal, a constexpr or constant value, a "
                                                     "template parameter)");
                break;
            }
        k = close;
    }
}

} // namespace

void checkRestrictedDeclarations(const CheckContext& context) {
    const TokenList& tokens = context.unit.tokens();
    const std::vector<std::size_t>& partner = context.unit.partner();
    const Module& module = context.unit.module();
    Diagnostics& diagnostics = context.diagnostics;
    // Functions declared but defined nowhere. (Render functions are gone: render_functions.h.)
    std::set<std::string> defined;
    for (const FunctionDecl& f : module.functions)
        if (f.hasBody) defined.insert(f.name);
    for (const FunctionDecl& f : module.functions) {
        if (!f.hasBody && !f.isDefaulted && f.enclosingClass.empty() && !defined.count(f.name) &&
            !bindsAirIntrinsic(context.unit, f)) {
            diagnostics.error(tokens[f.nameToken].location,
                              "function '" + f.name +
                                  "' is declared but not defined; kernel code can only "
                                  "call functions it defines");
        }
    }

    // Variable-length arrays: g++ accepts them (a GNU extension) and then fails deep inside the
    // translation's templates, at the kernel's signature; MSL has none.
    for (const FunctionDecl& f : module.functions)
        if (f.hasBody) checkVariableLengthArrays(tokens, partner, f, diagnostics);

    // Non-const static locals.
    for (const FunctionDecl& f : module.functions) {
        if (!f.hasBody) continue;
        for (const StaticLocal& local : findStaticLocals(tokens, partner, {f.bodyOpen, f.bodyClose + 1}))
            if (!local.isConstant)
                diagnostics.error(tokens[local.tokens.begin].location, "static local variables must be const");
    }

    // Program-scope variables (and static data members, variable templates) must be constants.
    for (const VariableDecl& v : module.variables) {
        if (v.nameToken == kNoToken || declaresConstant(tokens, partner, v)) continue;
        if (!declaresExternOrThreadgroup(tokens, v))
            diagnostics.error(tokens[v.nameToken].location, "program-scope variable '" + tokens[v.nameToken].spelling +
                                                                "' must be declared in the constant address space");
    }
}

} // namespace metalcpu::msl
