#include "compiler/passes/function_constants.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/kernels.h"
#include "compiler/source.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <optional>

namespace metalcpu::msl {

namespace {

constexpr const char* kHelperPrefix = "__mc_fc_";
constexpr const char* kDefinedQuery = "is_function_constant_defined";

/// The `[[...function_constant(index)...]]` among tokens [begin, end), or nothing.
std::optional<std::pair<AttributeSpec, Attribute>> functionConstantAttribute(const TokenList& tokens,
                                                                            const std::vector<std::size_t>& partner,
                                                                            std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k + 1 < end; ++k) {
        if (!startsAttributeSpec(tokens, k) || partner[k] == kNoToken) continue;
        AttributeSpec spec = parseAttributeSpec(tokens, partner, k);
        if (const Attribute* a = spec.find("function_constant")) return std::make_pair(spec, *a);
        k = spec.close;
    }
    return std::nullopt;
}

/// The identifiers of tokens [begin, end).
void collectNames(const TokenList& tokens, std::size_t begin, std::size_t end, std::set<std::string>& names) {
    for (std::size_t k = begin; k < end && k < tokens.size(); ++k)
        if (tokens[k].isIdentifier()) names.insert(tokens[k].spelling);
}

/// The name inside `is_function_constant_defined(` at `i`, if the call is that simple.
std::size_t definedQueryName(const TokenList& tokens, std::size_t i) {
    if (i + 3 >= tokens.size() || !tokens[i + 1].isPunct("(") || !tokens[i + 2].isIdentifier() ||
        !tokens[i + 3].isPunct(")"))
        return kNoToken;
    return i + 2;
}

/// The function constant declared by program-scope variable `v`, or nothing (with an error
/// when it is malformed). `placed` collects the attributes it has looked at.
std::optional<FunctionConstantDecl> parseDeclaration(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                     const Module& module, std::size_t v, std::set<std::size_t>& placed,
                                                     Diagnostics& diagnostics) {
    const VariableDecl& decl = module.variables[v];
    if (decl.nameToken == kNoToken) return std::nullopt;
    auto attribute = functionConstantAttribute(tokens, partner, decl.nameToken + 1, decl.tokens.end);
    if (!attribute) return std::nullopt;
    const auto& [spec, a] = *attribute;
    placed.insert(a.nameToken);
    const Location where = tokens[a.nameToken].location;
    const std::string& name = tokens[decl.nameToken].spelling;
    if (decl.isTemplate || !decl.enclosingClass.empty()) {
        diagnostics.error(where, "function constant '" + name + "' must be declared at program scope");
        return std::nullopt;
    }
    if (!a.hasArguments || a.arguments.empty()) {
        diagnostics.error(where, "[[function_constant]] of '" + name + "' needs an index");
        return std::nullopt;
    }
    if (spec.close + 1 != decl.tokens.end || !tokens[decl.tokens.end].isPunct(";")) {
        diagnostics.error(tokens[spec.close + 1].location,
                          "function constant '" + name + "' cannot have an initializer or another declarator");
        return std::nullopt;
    }
    // The type: the specifiers before the name but the address space.
    std::vector<std::size_t> typeTokens;
    bool inConstant = false;
    for (std::size_t k = decl.tokens.begin; k < decl.nameToken; ++k) {
        if (startsAttributeSpec(tokens, k) && partner[k] != kNoToken) {
            k = partner[k];
        } else if (tokens[k].isIdentifier("constant")) {
            inConstant = true;
        } else if (!tokens[k].isIdentifier("const")) {
            typeTokens.push_back(k);
        }
    }
    if (!inConstant || typeTokens.empty()) {
        diagnostics.error(where, "function constant '" + name + "' must be declared in the constant address space");
        return std::nullopt;
    }
    FunctionConstantDecl constant;
    constant.name = name;
    std::vector<std::string> namespaces;
    for (const std::string& n : decl.namespaces)
        if (!n.empty()) namespaces.push_back(n); // an unnamed namespace is reached from outside
    constant.helper = namespaces.empty() ? "::" + std::string(kHelperPrefix) + name
                                         : qualifiedName(namespaces, kHelperPrefix + name);
    constant.variable = v;
    constant.type = typeText(tokens, typeTokens);
    constant.index = sourceText(tokens, a.arguments.begin, a.arguments.end);
    return constant;
}

/// Reports `[[function_constant]]` anywhere but where parseDeclaration() looked, on kernel
/// parameters and on the parameters an explicit instantiation of a kernel template repeats
/// (candle writes them out; the definition's attributes are the ones that count), and on the
/// parameters of other functions: those keep the kernel's attributes when a kernel's body
/// moves into a helper (MFA v1's `_attention_impl`), which Apple's compiler builds, and like
/// `[[buffer(n)]]` there they have no effect. Elsewhere the attribute would be dropped
/// without effect.
void reportMisplaced(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module,
                     std::set<std::size_t> placed, Diagnostics& diagnostics) {
    auto place = [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k)
            if (tokens[k].isIdentifier("function_constant")) placed.insert(k);
    };
    for (const FunctionDecl& f : module.functions)
        if (f.parametersOpen != kNoToken && f.parametersClose != kNoToken) place(f.parametersOpen, f.parametersClose);
    for (const ExplicitInstantiation& inst : module.instantiations)
        if (inst.hasParameters && (inst.marksKernel || (inst.target != kNoToken && module.functions[inst.target].isKernel)))
            place(inst.parameters.begin, inst.parameters.end);
    for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
        if (!startsAttributeSpec(tokens, k) || partner[k] == kNoToken) continue;
        AttributeSpec spec = parseAttributeSpec(tokens, partner, k);
        for (const Attribute& a : spec.attributes)
            if (a.name == "function_constant" && !placed.count(a.nameToken))
                diagnostics.error(tokens[a.nameToken].location,
                                  "[[function_constant]] applies only to program-scope constants and kernel arguments");
        k = spec.close;
    }
}

/// A constant named in is_function_constant_defined() is optional (MTLFunctionConstant.required).
void markOptional(const TokenList& tokens, std::vector<FunctionConstantDecl>& constants, Diagnostics& diagnostics) {
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier(kDefinedQuery)) continue;
        std::size_t nameToken = definedQueryName(tokens, i);
        auto constant = nameToken == kNoToken ? constants.end()
                                              : std::find_if(constants.begin(), constants.end(), [&](const auto& c) {
                                                    return c.name == tokens[nameToken].spelling;
                                                });
        if (constant == constants.end()) {
            diagnostics.error(tokens[i].location, std::string(kDefinedQuery) + "() needs the name of a function constant");
            continue;
        }
        constant->required = false;
    }
}

} // namespace

std::vector<FunctionConstantDecl> findFunctionConstants(const Unit& unit, Diagnostics& diagnostics) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const Module& module = unit.module();
    std::vector<FunctionConstantDecl> found;
    std::set<std::size_t> placed;
    for (std::size_t v = 0; v < module.variables.size(); ++v)
        if (auto constant = parseDeclaration(tokens, partner, module, v, placed, diagnostics))
            found.push_back(std::move(*constant));
    reportMisplaced(tokens, partner, module, std::move(placed), diagnostics);
    markOptional(tokens, found, diagnostics);
    return found;
}

void findFunctionConstantUsers(const Unit& unit, const CallGraph& graph, const std::vector<EntryPoint>& entryPoints,
                               std::vector<FunctionConstantDecl>& constants) {
    if (constants.empty()) return;
    const TokenList& tokens = unit.tokens();
    const Module& module = unit.module();
    // The names each program-scope variable's declaration mentions (its initialiser).
    std::map<std::string, std::set<std::string>> variableNames;
    for (const VariableDecl& v : module.variables)
        if (v.nameToken != kNoToken && v.enclosingClass.empty())
            collectNames(tokens, v.nameToken + 1, v.tokens.end, variableNames[tokens[v.nameToken].spelling]);
    for (const EntryPoint& entry : entryPoints) {
        std::set<std::string> names;
        for (std::size_t r : reachableFromInstantiation(graph, entry.function, tokens, unit.partner(),
                                                        entry.templateArgumentTokens.begin,
                                                        entry.templateArgumentTokens.end)) {
            const FunctionDecl& f = module.functions[r];
            if (f.parametersOpen != kNoToken && f.hasBody) collectNames(tokens, f.parametersOpen, f.bodyClose, names);
        }
        // Through derived constants, to their end.
        std::vector<std::string> pending(names.begin(), names.end());
        while (!pending.empty()) {
            std::string name = std::move(pending.back());
            pending.pop_back();
            auto found = variableNames.find(name);
            if (found == variableNames.end()) continue;
            for (const std::string& next : found->second)
                if (names.insert(next).second) pending.push_back(next);
        }
        for (FunctionConstantDecl& c : constants)
            if (names.count(c.name)) c.kernels.insert(entry.hostName);
    }
}

std::map<std::string, std::string> derivedFunctionConstants(const Unit& unit,
                                                            const std::vector<FunctionConstantDecl>& constants) {
    std::map<std::string, std::string> derived;
    if (constants.empty()) return derived;
    const TokenList& tokens = unit.tokens();
    std::set<std::string> known;
    for (const FunctionConstantDecl& c : constants) known.insert(c.name);
    // Program-scope `constant` variables whose initialiser names a function constant, or a
    // variable that does, to a fixed point (`constant bool b = a && c;`, `constant bool d = !b;`).
    for (bool grew = true; grew;) {
        grew = false;
        for (const VariableDecl& v : unit.module().variables) {
            if (v.nameToken == kNoToken || v.isTemplate || !v.enclosingClass.empty()) continue;
            const std::string& name = tokens[v.nameToken].spelling;
            if (known.count(name)) continue;
            bool inConstant = false;
            for (std::size_t k = v.tokens.begin; k < v.nameToken; ++k) inConstant = inConstant || tokens[k].isIdentifier("constant");
            std::set<std::string> names;
            collectNames(tokens, v.nameToken + 1, v.tokens.end, names);
            const bool fromConstants =
                std::any_of(names.begin(), names.end(), [&](const std::string& n) { return known.count(n) > 0; });
            if (!inConstant || !fromConstants) continue;
            std::vector<std::string> namespaces;
            for (const std::string& n : v.namespaces)
                if (!n.empty()) namespaces.push_back(n);
            derived[name] = namespaces.empty() ? "::" + name : qualifiedName(namespaces, name);
            known.insert(name);
            grew = true;
        }
    }
    return derived;
}

void resolveConditionalParameters(const std::vector<FunctionConstantDecl>& constants,
                                  const std::map<std::string, std::string>& derived, const Location& where,
                                  std::vector<ParamInfo>& params, Diagnostics& diagnostics) {
    for (ParamInfo& p : params) {
        if (p.presentIf.empty()) continue;
        auto constant = std::find_if(constants.begin(), constants.end(),
                                     [&](const FunctionConstantDecl& c) { return c.name == p.presentIf; });
        if (constant != constants.end()) {
            p.presentIf = "static_cast<bool>(" + constant->helper + "::value)";
        } else if (auto d = derived.find(p.presentIf); d != derived.end()) {
            p.presentIf = "static_cast<bool>(" + d->second + ")";
        } else {
            diagnostics.error(Location{where.file, static_cast<std::uint32_t>(p.line), static_cast<std::uint32_t>(p.column)},
                              "[[function_constant(" + p.presentIf + ")]] of parameter '" + p.name +
                                  "' must name a program-scope function constant, or a program-scope constant "
                                  "computed from them");
        }
    }
}

void rewriteFunctionConstants(PassContext& context) {
    const TokenList& tokens = context.unit.tokens();
    EditList& edits = context.edits;
    for (const FunctionConstantDecl& c : context.findings.functionConstants) {
        const VariableDecl& v = context.unit.module().variables[c.variable];
        const std::string helper = kHelperPrefix + c.name;
        const std::string type = "::metalcpu_kernel::function_constant<" + c.type + ", (" + c.index + ")>";
        // After the (erased) attribute, on the declaration's line: the columns before it stay.
        edits.attachBefore(v.tokens.end, " = " + type + "::value");
        edits.insertAfter(v.tokens.end, " using " + helper + " = " + type + ";");
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier(kDefinedQuery)) continue;
        std::size_t nameToken = definedQueryName(tokens, i);
        if (nameToken == kNoToken) continue; // reported by findFunctionConstants()
        // In code an earlier pass erased (an address-space overload collapsed away): gone.
        if (edits.isRewritten(i)) continue;
        edits.erase(TokenRange{i, i + 2});
        edits.erase(i + 3);
        edits.replace(nameToken, kHelperPrefix + tokens[nameToken].spelling + "::defined");
    }
}

std::string functionConstantsDefinition(const std::vector<FunctionConstantDecl>& constants) {
    if (constants.empty()) return {};
    return "#undef METALCPU_FUNCTION_CONSTANTS\n#define METALCPU_FUNCTION_CONSTANTS " + std::to_string(constants.size()) + ", __mc_function_constants\n";
}

std::string functionConstantTable(const std::vector<FunctionConstantDecl>& constants) {
    if (constants.empty()) return {};
    std::string out;
    std::string rows;
    for (std::size_t i = 0; i < constants.size(); ++i) {
        const FunctionConstantDecl& c = constants[i];
        std::string users = "nullptr";
        if (!c.kernels.empty()) {
            users = "__mc_fc_users_" + std::to_string(i);
            out += "const char* const " + users + "[] = {";
            for (const std::string& k : c.kernels)
                out += "METALCPU_KERNEL_USER(" + kernelSelector(k) + ", " + quoteString(k) + "), ";
            out += "};\n";
        }
        rows += "    {" + quoteString(c.name) + ", " + c.helper + "::index, " + c.helper + "::data_type, " +
                (c.required ? "MC_FUNCTION_CONSTANT_REQUIRED" : "0u") + " | (" + c.helper +
                "::defined ? static_cast<mc_u32>(MC_FUNCTION_CONSTANT_DEFINED) : 0u), " + std::to_string(c.kernels.size()) + ", " + users +
                "},\n";
    }
    out += "const ::mc_function_constant __mc_function_constants[] = {\n" + rows + "};\n";
    return out;
}

} // namespace metalcpu::msl
