#include "compiler/passes/collective_calls.h"

#include "compiler/call_graph.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

namespace {

constexpr std::string_view kCallSite = "(::metalcpu_kernel::simd_call_site(), ";

/// Whether calling `name` is itself a SIMD-group rendezvous (a collective, not the
/// threadgroup barrier, which needs no site).
bool isCollectiveName(std::string_view name) { return isBarrierFunction(name) && name != "threadgroup_barrier"; }

/// Per function of the module: whether it can reach a collective, directly or through the
/// functions it calls (by name, as the call graph resolves them).
std::vector<bool> functionsReachingCollectives(const Unit& unit, const CallGraph& graph) {
    const Module& module = unit.module();
    const std::size_t n = module.functions.size();
    std::vector<bool> reaches(n, false);
    bool any = false;
    for (std::size_t f = 0; f < n; ++f) {
        const FunctionDecl& fn = module.functions[f];
        if (!fn.hasBody) continue;
        for (std::size_t i = fn.bodyOpen + 1; i < fn.bodyClose && !reaches[f]; ++i)
            if ((unit.role(i) == TokenRole::Callee || unit.role(i) == TokenRole::QualifiedPart) &&
                isCollectiveName(unit[i].spelling))
                reaches[f] = true;
        any = any || reaches[f];
    }
    if (!any) return reaches;
    // A call through a function pointer may reach any function the file names as a value.
    for (bool changed = true; changed;) {
        changed = false;
        bool valueReaches = false;
        for (std::size_t v : graph.namedAsValue) valueReaches = valueReaches || reaches[v];
        for (std::size_t f = 0; f < n && f < graph.callees.size(); ++f) {
            if (reaches[f]) continue;
            bool now = graph.callsOpaque[f] && valueReaches;
            for (std::size_t c : graph.callees[f]) now = now || reaches[c];
            if (now) reaches[f] = changed = true;
        }
    }
    return reaches;
}

/// Marks the tokens inside the operands of decltype, sizeof, alignof and noexcept, which are
/// never evaluated: a call there makes no rendezvous.
std::vector<bool> unevaluatedTokens(const Unit& unit) {
    std::vector<bool> unevaluated(unit.size(), false);
    for (std::size_t i = 0; i + 1 < unit.size(); ++i) {
        const Token& t = unit[i];
        if (!(t.isIdentifier("decltype") || t.isIdentifier("__decltype") || t.isIdentifier("sizeof") ||
              t.isIdentifier("alignof") || t.isIdentifier("__alignof__") || t.isIdentifier("noexcept") ||
              t.isIdentifier("typeof") || t.isIdentifier("__typeof__")))
            continue;
        const std::size_t open = i + 1;
        if (!unit[open].isPunct("(") || unit.partner()[open] == kNoToken) continue;
        for (std::size_t k = open; k <= unit.partner()[open]; ++k) unevaluated[k] = true;
    }
    return unevaluated;
}

} // namespace

void markCollectiveCalls(PassContext& c) {
    const Unit& unit = c.unit;
    const Module& module = unit.module();
    const std::vector<bool> reaches = functionsReachingCollectives(unit, c.findings.graph);
    std::map<std::string_view, bool> reachingNames;
    for (std::size_t f = 0; f < module.functions.size(); ++f)
        if (reaches[f]) reachingNames[module.functions[f].name] = true;
    if (reachingNames.empty()) return;
    const std::vector<bool> unevaluated = unevaluatedTokens(unit);
    const std::vector<std::size_t>& partner = unit.partner();
    // A collective helper's call that a kernel split into work-item loops splits at is not a
    // call any more: the statement's two loops record and replay it, with no fiber to order.
    std::set<std::size_t> splitHelperCalls;
    for (const WorkItemKernel& k : c.findings.workItemKernels)
        for (const CollectiveStatement& s : k.collectives)
            if (s.helper) splitHelperCalls.insert(s.callee.end - 1);

    std::vector<bool> seen(unit.size(), false); // a local class's member bodies lie inside another body
    for (const FunctionDecl& f : module.functions) {
        if (!f.hasBody) continue;
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            if (seen[i]) continue;
            seen[i] = true;
            const TokenRole role = unit.role(i);
            if (role != TokenRole::Callee && role != TokenRole::Member && role != TokenRole::QualifiedPart) continue;
            if (!reachingNames.count(unit[i].spelling) || isCollectiveName(unit[i].spelling) ||
                splitHelperCalls.count(i))
                continue;
            // Its argument list: `f(`, or `f<...>(`.
            const std::size_t open = unit.callOpen(i);
            if (open == kNoToken || partner[open] == kNoToken || unevaluated[i]) continue;
            // Code an earlier pass took away (a collapsed overload) prints nothing of its own,
            // but would print what is inserted around it.
            if (c.edits.isRewritten(i)) continue;
            // The callee with its qualification or the object it is called on, template calls
            // included (`a.template f<T>(x).g()`): the `(` after them is a call.
            const std::size_t start = unit.postfixStart(i, TemplateArguments::Follow);
            if (start == kNoToken || c.edits.isRewritten(start)) continue;
            c.edits.insertBefore(start, std::string(kCallSite));
            c.edits.insertAfter(partner[open], ")");
            c.findings.collectiveCallSites.push_back(TokenRange{start, partner[open] + 1});
        }
    }
}

} // namespace metalcpu::msl
