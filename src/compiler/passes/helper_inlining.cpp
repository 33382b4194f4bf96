#include "compiler/passes/helper_inlining.h"

#include "compiler/call_graph.h"
#include "compiler/passes/collective_hoisting.h"
#include "compiler/passes/inlining_round.h"
#include "compiler/passes/switch_chains.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"
#include "compiler/unit.h"

#include <algorithm>
#include <optional>
#include <set>

namespace metalcpu::msl {

namespace inlining {

std::optional<TokenList> Round::run() {
    for (std::size_t k = 0; k < module_.functions.size(); ++k) {
        const FunctionDecl& f = module_.functions[k];
        if (!f.isKernel || !f.hasBody) continue;
        const std::vector<Statement>* body = unit_.body(k);
        if (!body) continue;
        kernelNames_ = declaredNames(f.parametersOpen, f.bodyClose);
        for (const std::string& n : f.templateTypeParameters) kernelNames_.insert(n);
        for (const std::string& n : f.templateValueParameters) kernelNames_.insert(n);
        unchangedParameters_[k] = unchangedParameters(f);
        kernelBody_ = body;
        findSites(k, *body, /*inBlock=*/true);
    }
    if (sites_.empty()) return std::nullopt;
    std::sort(sites_.begin(), sites_.end(),
              [](const Site& a, const Site& b) { return a.statement.begin < b.statement.begin; });
    TokenList out;
    std::size_t next = 0;
    for (const Site& s : sites_) {
        if (s.statement.begin < next) continue; // nested in one already replaced (cannot happen)
        for (; next < s.statement.begin; ++next) out.push_back(tokens_[next]);
        emit(s, out);
        next = s.statement.end;
    }
    for (; next < tokens_.size(); ++next) out.push_back(tokens_[next]);
    return out;
}

} // namespace inlining

namespace {

/// How many rounds of inlining run at most: a helper nested this deep stays a call.
constexpr int kMaxRounds = 6;
/// How many aliases naming one another are followed at most.
constexpr int kMaxAliasRounds = 4;
/// How many switches nested in one another are rewritten as if chains at most.
constexpr int kMaxSwitchRounds = 4;
/// How many collectives of one statement are hoisted at most.
constexpr int kMaxHoistingRounds = 4;

} // namespace

std::vector<InliningRefusal> inlineSynchronisingHelpers(TokenList& tokens, std::vector<std::size_t>& partner,
                                                        Module& module, const FileTable& files) {
    std::vector<InliningRefusal> refusals;
    std::set<std::string> usedNames;
    for (const Token& t : tokens)
        if (t.isIdentifier()) usedNames.insert(t.spelling);
    // Inlining first, round after round; then, with every helper inlined that can be, the
    // kernels' local aliases are replaced by their types, the switches around barriers become if chains (an outer switch once the inner one is), and
    // the collectives in expressions are hoisted, one per statement a round.
    int inlined = 0, aliased = 0, switched = 0, hoisted = 0;
    for (;;) {
        std::optional<TokenList> next;
        {
            const Unit unit(tokens, partner, module);
            const CallGraph graph = buildCallGraph(tokens, partner, module);
            if (inlined < kMaxRounds) {
                std::vector<InliningRefusal> roundRefusals;
                inlining::Round r(unit, graph, usedNames, roundRefusals);
                next = r.run();
                // The refusals of the last round are those that stand.
                refusals = std::move(roundRefusals);
                inlined = next ? inlined + 1 : kMaxRounds;
            }
            if (!next && aliased < kMaxAliasRounds) {
                next = substituteLocalAliases(unit);
                aliased = next ? aliased + 1 : kMaxAliasRounds;
            }
            if (!next && switched < kMaxSwitchRounds) {
                next = switchesAsIfChains(unit, graph);
                switched = next ? switched + 1 : kMaxSwitchRounds;
            }
            if (!next && hoisted < kMaxHoistingRounds) {
                next = hoistCollectives(unit, graph, usedNames);
                hoisted = next ? hoisted + 1 : kMaxHoistingRounds;
            }
        }
        if (!next) break;
        // The new unit, read as the first was; any problem keeps the unit as it was (the
        // kernels then keep their fibers, nothing else changes).
        Diagnostics scratch(files);
        auto matched = matchBrackets(*next, scratch);
        if (!matched) break;
        markNonTemplateNames(*next, *matched);
        Module scanned = scanModule(*next, *matched, scratch);
        if (scratch.hasErrors()) break;
        tokens = std::move(*next);
        partner = std::move(*matched);
        module = std::move(scanned);
    }
    return refusals;
}

void explainInliningRefusals(const std::vector<InliningRefusal>& inlining, const TokenList& tokens,
                             const Module& module, const FileTable& files, std::vector<WorkItemRefusal>& refusals) {
    for (WorkItemRefusal& r : refusals) {
        if (r.related == kNoToken) continue;
        const Location kernel = tokens[module.functions[r.function].nameToken].location;
        for (const InliningRefusal& i : inlining) {
            if (!(i.kernel == kernel)) continue;
            r.afterRelated += "; the call is not inlined: " + i.reason + " (" + files.reportedName(i.where.file) + ":" +
                              std::to_string(i.where.line) + ":" + std::to_string(i.where.column) + ")";
            break;
        }
    }
}

} // namespace metalcpu::msl
