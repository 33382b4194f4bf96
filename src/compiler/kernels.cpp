#include "compiler/kernels.h"

#include "compiler/signature.h"
#include "compiler/syntax.h"

#include <algorithm>
#include <map>

namespace metalcpu::msl {

namespace {

std::vector<std::string> splitQualified(const std::string& name) {
    std::vector<std::string> parts;
    std::size_t begin = 0;
    while (begin <= name.size()) {
        std::size_t end = name.find("::", begin);
        if (end == std::string::npos) end = name.size();
        if (end > begin) parts.push_back(name.substr(begin, end - begin));
        begin = end + 2;
    }
    return parts;
}

bool matches(const FunctionDecl& f, const std::vector<std::string>& path) {
    if (path.empty() || f.name != path.back() || f.namespaces.size() + 1 != path.size()) return false;
    for (std::size_t i = 0; i < f.namespaces.size(); ++i)
        if (f.namespaces[i] != path[i]) return false;
    return true;
}

// The function template an explicit instantiation names, looked up from where it is written
// as C++ does: innermost enclosing namespace first. Returns kNoToken when there is none.
std::size_t resolveTemplate(const Module& module, const ExplicitInstantiation& inst) {
    std::vector<std::string> written = splitQualified(inst.qualifiedName);
    bool global = inst.qualifiedName.starts_with("::");
    // The namespace prefixes to try, innermost first; only the global one for "::a::f".
    std::vector<std::size_t> prefixLengths;
    if (global) {
        prefixLengths.push_back(0);
    } else {
        for (std::size_t n = inst.namespaces.size() + 1; n-- > 0;) prefixLengths.push_back(n);
    }
    for (std::size_t length : prefixLengths) {
        std::vector<std::string> path(inst.namespaces.begin(),
                                      inst.namespaces.begin() + static_cast<std::ptrdiff_t>(length));
        path.insert(path.end(), written.begin(), written.end());
        std::size_t found = kNoToken;
        for (std::size_t i = 0; i < module.functions.size(); ++i) {
            const FunctionDecl& f = module.functions[i];
            if (!f.isTemplate || !f.hasBody || !f.enclosingClass.empty() || !matches(f, path)) continue;
            // Prefer a definition already marked as a kernel.
            if (found == kNoToken || (f.isKernel && !module.functions[found].isKernel)) found = i;
        }
        if (found != kNoToken) return found;
    }
    return kNoToken;
}

} // namespace

/// `::ns::name`, fully qualified: the glue names the kernel from inside an unnamed namespace,
/// where an unqualified `dot` would also find `metal::dot` through `using namespace metal`.
std::string qualifiedName(const std::vector<std::string>& namespaces, const std::string& name) {
    std::string out;
    for (const std::string& n : namespaces) out += "::" + n;
    return out + "::" + name;
}

std::vector<EntryPoint> findEntryPoints(const TokenList& tokens, Module& module, Diagnostics& diagnostics) {
    std::vector<EntryPoint> out;

    // Explicit instantiations first: they may turn templates into kernels.
    std::vector<std::pair<const ExplicitInstantiation*, std::size_t>> instantiated;
    for (ExplicitInstantiation& inst : module.instantiations) {
        if (inst.nameToken == kNoToken) continue;
        std::size_t target = resolveTemplate(module, inst);
        if (target == kNoToken) {
            if (inst.marksKernel) {
                diagnostics.error(tokens[inst.nameToken].location,
                                  "explicit instantiation names '" + inst.qualifiedName +
                                      "', which is not a kernel template defined in this file");
            }
            continue;
        }
        FunctionDecl& f = module.functions[target];
        if (!inst.marksKernel && !f.isKernel) continue; // an ordinary explicit instantiation
        f.isKernel = true;
        inst.target = target;
        instantiated.emplace_back(&inst, target);
    }

    for (std::size_t i = 0; i < module.functions.size(); ++i) {
        const FunctionDecl& f = module.functions[i];
        if (!f.isKernel) continue;
        Location where = tokens[f.nameToken].location;
        if (!f.enclosingClass.empty()) {
            diagnostics.error(where, "kernel '" + f.name + "' must be declared at namespace scope");
            continue;
        }
        bool returnsVoid = false;
        for (std::size_t k = f.declarationBegin; k < f.nameToken; ++k)
            if (tokens[k].isIdentifier("void")) returnsVoid = true;
        if (!returnsVoid) diagnostics.error(where, "kernel '" + f.name + "' must return void");
        if (f.isTemplate || !f.hasBody) continue;
        EntryPoint e;
        e.function = i;
        e.hostName = f.name;
        e.nameLocation = where;
        e.sourceOrder = f.nameToken;
        for (const AttributeSpec& spec : f.attributes) {
            if (const Attribute* a = spec.find("host_name"); a && a->hasArguments) {
                if (auto name = stringLiteralValue(tokens, a->arguments.begin, a->arguments.end)) {
                    e.hostName = *name;
                    e.nameLocation = tokens[a->nameToken].location;
                }
            }
        }
        e.functionExpression = qualifiedName(f.namespaces, f.name);
        e.glueNamespaces = f.namespaces;
        out.push_back(std::move(e));
    }

    for (auto [inst, target] : instantiated) {
        const FunctionDecl& f = module.functions[target];
        const Attribute* host = nullptr;
        for (const AttributeSpec& spec : inst->attributes)
            if (const Attribute* a = spec.find("host_name")) host = a;
        Location where = tokens[inst->nameToken].location;
        if (!host) {
            diagnostics.warning(where, "explicit instantiation of kernel '" + f.name +
                                           "' has no [[host_name]]; it is not an entry point");
            continue;
        }
        auto name = host->hasArguments
                        ? stringLiteralValue(tokens, host->arguments.begin, host->arguments.end)
                        : std::nullopt;
        if (!name || name->empty()) {
            diagnostics.error(tokens[host->nameToken].location, "[[host_name]] needs a string literal");
            continue;
        }
        if (!inst->hasTemplateArguments) {
            diagnostics.error(where, "explicit instantiation of kernel '" + f.name +
                                         "' must name its template arguments, as in '" + f.name + "<...>'");
            continue;
        }
        EntryPoint e;
        e.function = target;
        e.sourceOrder = inst->tokens.begin;
        e.hostName = *name;
        e.nameLocation = tokens[host->nameToken].location;
        e.templateArguments = typeText(tokens, inst->templateArguments.begin, inst->templateArguments.end);
        e.templateArgumentTokens = inst->templateArguments;
        e.functionExpression = qualifiedName(f.namespaces, f.name) + "<" + e.templateArguments + ">";
        e.glueNamespaces = inst->namespaces;
        for (const AttributeSpec& spec : inst->attributes)
            if (const Attribute* a = spec.find("user_annotation")) e.userAnnotation = userAnnotationOf(tokens, *a, diagnostics);
        out.push_back(std::move(e));
    }

    std::stable_sort(out.begin(), out.end(),
                     [](const EntryPoint& a, const EntryPoint& b) { return a.sourceOrder < b.sourceOrder; });
    std::map<std::string, const EntryPoint*> names;
    for (const EntryPoint& e : out) {
        auto [it, fresh] = names.emplace(e.hostName, &e);
        if (!fresh) {
            diagnostics.error(e.nameLocation, "there is more than one kernel named '" + e.hostName + "'");
            diagnostics.note(it->second->nameLocation, "'" + e.hostName + "' is first defined here");
        }
    }
    return out;
}

} // namespace metalcpu::msl
