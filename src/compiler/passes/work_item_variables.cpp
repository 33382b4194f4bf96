// The work-item loop planner (work_item_planner.h): per-thread variables, and declarations that
// run once per group.
#include "compiler/passes/work_item_planner.h"

#include "compiler/syntax.h"

#include <algorithm>

namespace metalcpu::msl::work_items {

bool Planner::isGroupDeclaration(const Statement& s, const std::vector<std::string>& pieceNames) const {
    if (s.kind != StatementKind::Simple) return false;
    if (threadgroupDeclaration(s)) return true;
    const Token& k = tokens_[s.keyword];
    if (k.isIdentifier("typedef") || k.isIdentifier("using") || k.isIdentifier("static_assert")) return true;
    auto d = parseDeclaration(tokens_, partner_, s);
    if (!d) return false;
    bool isConst = false;
    for (std::size_t i = d->type.begin; i < d->type.end; ++i) {
        if (tokens_[i].isIdentifier("constexpr")) return true;
        if (tokens_[i].isIdentifier("const")) isConst = true;
        if (tokens_[i].isPunct("*") || tokens_[i].isPunct("&") || tokens_[i].isPunct("&&")) return false;
    }
    if (!isConst || namesThreadState(s.keyword, s.tokens.end, pieceNames)) return false;
    // Every declarator's initializer (`const uint a = f(), b = 2;` runs f per thread).
    for (std::size_t k = 0; k < d->names.size(); ++k) {
        const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, s.tokens.end - 1);
        const TokenRange initializer{parts.bounds.begin, parts.initializer.end};
        // Under a divergent if, what runs once per group runs even when no thread takes the
        // branch: an initializer that can fault there (a division, an index) runs per thread.
        if (parts.initializer.empty() || !isConstantInitializer(initializer.begin, initializer.end) ||
            (!guards_.empty() && mayFault(initializer)))
            return false;
    }
    return true;
}

void Planner::groupDeclaration(const Statement& s) {
    if (namesThreadState(s.keyword, s.tokens.end, {})) {
        fail(s.keyword, "a declaration that runs once per group names per-thread state");
        return;
    }
    if (const ThreadgroupDeclaration* d = threadgroupDeclaration(s)) {
        for (const ThreadgroupDeclarator& v : d->declarators) visible_.push_back({v.name, Visible::Kind::Group});
    } else if (auto d = parseDeclaration(tokens_, partner_, s)) {
        for (std::size_t n : d->names) visible_.push_back({tokens_[n].spelling, Visible::Kind::Group});
    } else if (tokens_[s.keyword].isIdentifier("typedef") && tokens_[s.tokens.end - 2].isIdentifier()) {
        // `typedef float U;` (MLX's sdpa_vector): a per-thread variable of type U declared in
        // the body's block after it gets its slots there (canHaveSlots()).
        visible_.push_back({tokens_[s.tokens.end - 2].spelling, Visible::Kind::Group});
    } else if (tokens_[s.keyword].isIdentifier("using") && tokens_[s.keyword + 2].isPunct("=")) {
        visible_.push_back({tokens_[s.keyword + 1].spelling, Visible::Kind::Group});
    }
}

bool Planner::mayDeclareUnknown(const Statement& s) const {
    if (s.kind != StatementKind::Simple) return false;
    // A local type (`struct S { ... };` parses as a variable named S).
    for (std::string_view word : {"struct", "class", "union", "enum"})
        if (tokens_[s.keyword].isIdentifier(word)) return true;
    if (parseDeclaration(tokens_, partner_, s)) return false;
    static constexpr std::string_view kStarts[] = {
        "decltype", "alignas", "__attribute__", "__attribute", "typeof", "__typeof__", "__typeof",
        "static", "extern", "thread_local", "register", "const", "volatile"};
    for (std::string_view word : kStarts)
        if (tokens_[s.keyword].isIdentifier(word)) return true;
    // Structured bindings: `auto [a, b] = ...`.
    for (std::size_t i = s.keyword; i + 1 < s.tokens.end; ++i) {
        if (tokens_[i].isPunct("=")) break;
        if (tokens_[i].isIdentifier("auto")) return true;
    }
    return false;
}

bool Planner::canHaveSlots(const DeclaratorParts& parts, bool bodyLevel, bool& late) const {
    late = false;
    if (parts.initializer.size() == 2 && tokens_[parts.initializer.begin].isPunct("(")) return false;
    bool pointer = false, threadSpace = false;
    for (TokenRange range : {parts.specifiers, parts.pointer, parts.bounds}) {
        for (std::size_t i = range.begin; i < range.end; ++i) {
            const Token& t = tokens_[i];
            if (const Visible* v = t.isIdentifier() ? lookUp(t.spelling) : nullptr;
                v && v->kind == Visible::Kind::Group && bodyLevel) {
                late = true;
                continue;
            }
            if (t.isPunct("&") || t.isPunct("&&") || t.isIdentifier("auto") || t.isIdentifier("static") ||
                t.isIdentifier("extern") || t.isIdentifier("thread_local") || t.isIdentifier("register") ||
                t.isIdentifier("decltype") ||
                (t.isIdentifier() && (localTypes_.count(t.spelling) || lookUp(t.spelling))))
                return false;
            if (t.isPunct("*")) pointer = true;
            if (t.isIdentifier("thread")) threadSpace = true;
        }
    }
    // `float v[] = {...}` takes its bound from its initializer: the slot's type needs it
    // counted (only the first bound may be left out).
    for (std::size_t i = parts.bounds.begin; i < parts.bounds.end; ++i)
        if (tokens_[i].isPunct("[") && tokens_[i + 1].isPunct("]") &&
            (i != parts.bounds.begin || initializerElements(parts) == 0))
            return false;
    // A pointer into thread memory would point into the region that declared the memory.
    return !(pointer && threadSpace);
}

std::size_t Planner::initializerElements(const DeclaratorParts& parts) const {
    std::size_t open = parts.initializer.begin;
    if (open < parts.initializer.end && tokens_[open].isPunct("=")) ++open;
    if (open >= parts.initializer.end || !tokens_[open].isPunct("{") || partner_[open] == kNoToken) return 0;
    const std::size_t close = partner_[open];
    const bool ofArrays = parts.bounds.size() > 2 && partner_[parts.bounds.begin] + 1 < parts.bounds.end;
    std::vector<TokenRange> elements = splitParameters(tokens_, partner_, open, close);
    if (!elements.empty() && elements.back().empty()) elements.pop_back(); // a trailing comma
    std::size_t count = 0;
    for (const TokenRange& e : elements) {
        if (e.empty()) return 0;
        const Token& first = tokens_[e.begin];
        if (first.isPunct("[") || first.isPunct(".") || (ofArrays && !first.isPunct("{"))) return 0;
        ++count;
    }
    return count;
}

bool Planner::isTopLevelConst(const DeclaratorParts& parts) const {
    bool topConst = false;
    for (TokenRange range : {parts.specifiers, parts.pointer}) {
        for (std::size_t i = range.begin; i < range.end; ++i) {
            if (tokens_[i].isPunct("*")) {
                topConst = false;
            } else if (tokens_[i].isIdentifier("const")) {
                topConst = true;
            }
        }
    }
    return topConst;
}

void Planner::region(const std::vector<const Statement*>& run, std::size_t close) {
    if (run.empty() || !ok_) return;
    WorkItemRegion r;
    r.tokens = {run.front()->tokens.begin, run.back()->tokens.end};
    std::vector<const Statement*> before;
    for (const Statement* s : run) {
        // A break out of a divergent loop's body leaves the loop for that thread.
        const bool breaks = loopGuard_ != WorkItemRegion::kNoGuard && !inUniformLoop_ && !jumpsOut(*s, true, false);
        if (jumpsOut(*s, false, inUniformLoop_) && (!breaks || !loopBreaks(*s, before, r))) {
            fail(s->keyword, inUniformLoop_ ? "a break, goto or label in a loop whose threads would be interleaved"
                                            : "a break, continue, goto or label leaves the code between barriers");
            return;
        }
        before.push_back(s);
        // A `continue` of the uniform loop leaves the piece's `do { } while (false)`.
        if (inUniformLoop_ && jumpsOut(*s, false, false)) r.continues = true;
        if (mayDeclareUnknown(*s)) {
            fail(s->keyword, "a declaration the pass cannot follow across barriers (decltype, alignas, a "
                             "structured binding, a local type, a storage class)");
            return;
        }
    }
    if (!scanNames(r)) return;
    // Its declarations that are used after it.
    std::vector<Visible> declared;
    for (const Statement* s : run) {
        auto d = parseDeclaration(tokens_, partner_, *s);
        if (!d) continue;
        for (std::size_t k = 0; k < d->names.size(); ++k) {
            const std::size_t n = d->names[k];
            const std::string& name = tokens_[n].spelling;
            if (!namedIn(name, r.tokens.end, close)) continue;
            const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, s->tokens.end - 1);
            bool late = false;
            if (!canHaveSlots(parts, close == f_.bodyClose, late)) {
                fail(n, quoted(n) + " lives across a barrier but cannot have a slot per thread (auto, a "
                        "reference, static, a thread pointer, an array whose bound its initializer does not "
                        "plainly give, or a type or bound declared in a nested block or a local type)");
                return;
            }
            const std::size_t id = out_->variables.size();
            out_->variables.push_back({name, parts.specifiers, parts.pointer, parts.bounds, isTopLevelConst(parts),
                                       !parts.bounds.empty() || addressTaken(name, n), n, parts.initializer,
                                       late ? r.tokens.begin : kNoToken});
            if (!parts.bounds.empty() && tokens_[parts.bounds.begin + 1].isPunct("]"))
                out_->variables.back().countedBound = initializerElements(parts);
            r.stores.push_back(id);
            declared.push_back({name, Visible::Kind::PerThread, id});
        }
    }
    for (Visible& v : declared) visible_.push_back(std::move(v));
    out_->regions.push_back(std::move(r));
}

} // namespace metalcpu::msl::work_items
