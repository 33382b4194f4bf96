#include "compiler/passes/threadgroup_nulls.h"

#include "compiler/passes/barrier_coroutines.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"

namespace metalcpu::msl {

namespace {

// Whether tokens [begin, end) name the threadgroup address space.
bool namesThreadgroup(const TokenList& tokens, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
        if (tokens[i].isIdentifier("threadgroup")) return true;
    return false;
}

// Whether the `nullptr` at `at`, an argument of the call whose `(` is `open`, is given for a
// `threadgroup ... *` parameter of some function of the callee's name.
bool passedAsThreadgroupPointer(const Unit& unit, const CallGraph& graph, std::size_t open, std::size_t at) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    std::size_t callee = open - 1;
    if (tokens[callee].isPunct(">")) {
        const std::size_t angle = openingAngle(tokens, partner, callee, 0);
        if (angle == kNoToken || angle == 0) return false;
        callee = angle - 1;
    }
    if (!tokens[callee].isIdentifier()) return false;
    const auto named = graph.byName.find(tokens[callee].spelling);
    if (named == graph.byName.end()) return false;
    std::size_t position = 0;
    for (std::size_t i = open + 1; i < at; ++i) {
        if (partner[i] != kNoToken && partner[i] > i && !tokens[i].isPunct("<")) i = partner[i];
        else if (tokens[i].isPunct(",")) ++position;
    }
    for (std::size_t f : named->second) {
        const FunctionDecl& d = unit.module().functions[f];
        const std::vector<TokenRange> params = splitParameters(tokens, partner, d.parametersOpen, d.parametersClose);
        if (position >= params.size()) continue;
        const TokenRange p = params[position];
        bool pointer = false;
        for (std::size_t i = p.begin; i < p.end; ++i) pointer = pointer || tokens[i].isPunct("*");
        if (pointer && namesThreadgroup(tokens, p.begin, p.end)) return true;
    }
    return false;
}

} // namespace

std::size_t nullThreadgroupPointer(const Unit& unit, const CallGraph& graph, const std::vector<EntryPoint>& entryPoints,
                                   std::size_t kernel) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t fi : reachableFromKernel(unit, graph, entryPoints, kernel)) {
        const FunctionDecl& f = unit.module().functions[fi];
        if (!f.hasBody) continue;
        for (std::size_t at = f.bodyOpen + 1; at < f.bodyClose; ++at) {
            if (!tokens[at].isIdentifier("nullptr")) continue;
            // Outwards to the statement's start; the innermost `(` on the way may be a call's.
            std::size_t i = at, open = kNoToken;
            while (i > f.bodyOpen) {
                const Token& t = tokens[--i];
                if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
                if ((t.isPunct(")") || t.isPunct("]")) && partner[i] != kNoToken && partner[i] < i) i = partner[i];
                else if (t.isPunct("(") && open == kNoToken) open = i;
            }
            if ((open != kNoToken && passedAsThreadgroupPointer(unit, graph, open, at)) ||
                namesThreadgroup(tokens, i, at))
                return at;
        }
    }
    return kNoToken;
}

} // namespace metalcpu::msl
