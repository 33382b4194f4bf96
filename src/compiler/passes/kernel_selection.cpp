#include "compiler/passes/kernel_selection.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace metalcpu::msl {

namespace {

/// A free function whose definition can be guarded: at namespace scope, not a member (nor a
/// member defined out of its class, `void S::f() {}`), and not one C++ calls without its name
/// being written: an operator, the `begin`/`end` of a range-based for, the `get` of a
/// structured binding.
bool isGuardableFunction(const TokenList& tokens, const FunctionDecl& f) {
    if (!f.hasBody || f.isKernel || !f.enclosingClass.empty() || f.classBody != kNoToken) return false;
    if (f.nameToken == kNoToken || f.name.starts_with("operator") || f.name.starts_with("~")) return false;
    if (f.name == "begin" || f.name == "end" || f.name == "get") return false;
    return !(f.nameToken > 0 && tokens[f.nameToken - 1].isPunct("::"));
}

/// The definitions of one name: who mentions it, and the entry points that reach it so far.
struct NameUse {
    bool unknown = false;                ///< mentioned outside the bodies of selected definitions
    std::vector<std::size_t> mentioners; ///< selected definitions whose bodies mention it
    std::vector<char> kernels;           ///< per entry point: reaches the name
};

} // namespace

bool selectsKernels(const TranslateOptions& options, const Findings& findings) {
    return options.validation || !findings.functionConstants.empty() ||
           (options.selectKernelsAbove > 0 && findings.entryPoints.size() > options.selectKernelsAbove);
}

KernelReach findKernelReach(const Unit& unit, const std::vector<EntryPoint>& entryPoints) {
    const TokenList& tokens = unit.tokens();
    const std::vector<FunctionDecl>& functions = unit.module().functions;
    const std::size_t count = functions.size();
    std::vector<std::vector<std::size_t>> own(count); // a kernel's own entry points
    for (std::size_t e = 0; e < entryPoints.size(); ++e)
        if (entryPoints[e].function < count) own[entryPoints[e].function].push_back(e);

    // Kernels cannot be called (MSL forbids it): their reach is their own entry points.
    std::vector<bool> candidate(count, false);
    std::map<std::string, NameUse> names;
    std::vector<bool> declarator(tokens.size(), false);
    // A kernel's own explicit instantiations name it where the glue takes over (they are
    // erased); any other mention needs its definition in every flavour.
    for (const ExplicitInstantiation& inst : unit.module().instantiations)
        if (inst.target != kNoToken)
            for (std::size_t t = inst.tokens.begin; t < inst.tokens.end && t < tokens.size(); ++t) declarator[t] = true;
    std::map<std::string, bool> kernelNamed; // a kernel's name: mentioned elsewhere
    std::vector<const std::string*> inKernel(tokens.size(), nullptr); // within a kernel's definition: its name
    for (std::size_t i = 0; i < count; ++i) {
        const FunctionDecl& f = functions[i];
        if (f.nameToken != kNoToken && f.nameToken < tokens.size()) declarator[f.nameToken] = true;
        if (f.isKernel && f.hasBody) {
            candidate[i] = true;
            kernelNamed.emplace(f.name, false);
            // Its own parameters and body may reuse its name (`kernel void rows(... rows)`).
            for (std::size_t t = f.headerBegin; t < f.declarationEnd && t < tokens.size(); ++t) inKernel[t] = &f.name;
        } else if (isGuardableFunction(tokens, f)) {
            candidate[i] = true;
            names[f.name].kernels.assign(entryPoints.size(), 0);
        }
    }
    // A function named in an instantiation's template arguments (`f<float, dequantize_q4>`,
    // bound to a function-pointer parameter) is reached by that entry point.
    std::vector<std::size_t> argumentOf(tokens.size(), kNoToken);
    for (std::size_t e = 0; e < entryPoints.size(); ++e)
        for (std::size_t t = entryPoints[e].templateArgumentTokens.begin;
             t < entryPoints[e].templateArgumentTokens.end && t < tokens.size(); ++t)
            argumentOf[t] = e;
    // Every mention of a name (a call, an address taken, a template argument, `x.name`):
    // inside a candidate's body it ties the name to that candidate, anywhere else it makes the
    // name's reach unknown.
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        if (tokens[t].isIdentifier() && argumentOf[t] != kNoToken) {
            if (auto use = names.find(tokens[t].spelling); use != names.end()) use->second.kernels[argumentOf[t]] = 1;
            if (declarator[t]) continue;
        }
        if (!tokens[t].isIdentifier() || declarator[t]) continue;
        if (auto kernel = kernelNamed.find(tokens[t].spelling);
            kernel != kernelNamed.end() && !(inKernel[t] && *inKernel[t] == kernel->first))
            kernel->second = true;
        auto use = names.find(tokens[t].spelling);
        if (use == names.end()) continue;
        const std::size_t owner = unit.functionAt(t);
        if (owner != kNoToken && owner < count && candidate[owner]) use->second.mentioners.push_back(owner);
        else use->second.unknown = true;
    }
    for (auto& [name, use] : names) {
        std::sort(use.mentioners.begin(), use.mentioners.end());
        use.mentioners.erase(std::unique(use.mentioners.begin(), use.mentioners.end()), use.mentioners.end());
    }
    // The transitive closure: a name is reached by whatever reaches a definition mentioning it.
    for (bool changed = true; changed;) {
        changed = false;
        for (auto& [name, use] : names) {
            if (use.unknown) continue;
            for (std::size_t m : use.mentioners) {
                if (functions[m].isKernel) {
                    if (kernelNamed.at(functions[m].name)) {
                        use.unknown = changed = true;
                        break;
                    }
                    for (std::size_t e : own[m]) {
                        if (!use.kernels[e]) changed = true;
                        use.kernels[e] = 1;
                    }
                    continue;
                }
                const NameUse& from = names.at(functions[m].name);
                if (from.unknown) {
                    use.unknown = changed = true;
                    break;
                }
                for (std::size_t e = 0; e < entryPoints.size(); ++e) {
                    if (from.kernels[e] && !use.kernels[e]) {
                        use.kernels[e] = 1;
                        changed = true;
                    }
                }
            }
        }
    }

    KernelReach reach;
    reach.selected.assign(count, false);
    reach.kernels.assign(count, {});
    for (std::size_t i = 0; i < count; ++i) {
        if (!candidate[i]) continue;
        if (functions[i].isKernel) {
            if (kernelNamed.at(functions[i].name)) continue;
            reach.selected[i] = true;
            reach.kernels[i] = own[i];
            continue;
        }
        const NameUse& use = names.at(functions[i].name);
        if (use.unknown) continue;
        reach.selected[i] = true;
        for (std::size_t e = 0; e < entryPoints.size(); ++e)
            if (use.kernels[e]) reach.kernels[i].push_back(e);
    }
    return reach;
}

std::string selectionCondition(const std::vector<EntryPoint>& entryPoints, const std::vector<std::size_t>& kernels) {
    if (kernels.empty()) return "METALCPU_SELECTS_EVERY_KERNEL";
    std::string condition;
    for (std::size_t e : kernels) {
        if (!condition.empty()) condition += " || ";
        condition += "METALCPU_SELECTS_KERNEL(" + kernelSelector(entryPoints[e].hostName) + ")";
    }
    return condition;
}

void selectKernelCode(PassContext& c) {
    const std::vector<EntryPoint>& entryPoints = c.findings.entryPoints;
    if (entryPoints.empty() || !selectsKernels(c.options, c.findings)) return;
    const KernelReach reach = findKernelReach(c.unit, entryPoints);
    const std::vector<FunctionDecl>& functions = c.unit.module().functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
        const std::vector<std::size_t>& kernels = reach.kernels[i];
        // Code every kernel reaches is in every kernel's flavour anyway.
        if (!reach.selected[i] || kernels.size() == entryPoints.size() || kernels.size() > kMaxSelectedKernels)
            continue;
        const FunctionDecl& f = functions[i];
        c.edits.insertBefore(f.headerBegin, "\n#if " + selectionCondition(entryPoints, kernels) + "\n");
        c.edits.insertAfter(f.declarationEnd - 1, "\n#endif\n");
    }
}

} // namespace metalcpu::msl
