// The work-item loop planner (work_item_planner.h): loops and ifs that run once per group, and
// SIMD-group function statements.
#include "compiler/passes/work_item_planner.h"

#include "compiler/syntax.h"

#include <algorithm>

namespace metalcpu::msl::work_items {

bool Planner::checkHeaderPart(std::size_t begin, std::size_t end, bool readsAllowed) {
    for (std::size_t i = begin; i < end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const Visible* v = lookUp(tokens_[i].spelling);
        if (v && v->kind == Visible::Kind::PerThread) {
            if (out_->variables[v->variable].perThreadBuiltin != Builtin::None) { // written, with slots
                fail(i, "a loop or if header that runs once per group names per-thread builtin " + quoted(i));
                return false;
            }
            // Under a divergent if, the first live thread need not take the branch, and
            // without a barrier nothing makes the condition uniform.
            if (!readsAllowed || !guards_.empty() || mayWrite(i)) {
                fail(i, !readsAllowed      ? "a loop that runs once per group sets up its variables from per-thread "
                                             "variable " + quoted(i)
                        : !guards_.empty() ? "under an if whose condition differs per thread, a loop or if header "
                                             "reads per-thread variable " + quoted(i)
                                           : "a loop or if header may write per-thread variable " + quoted(i));
                return false;
            }
            out_->headerUses.emplace_back(i, v->variable);
        } else if (!v) {
            const ParamInfo* p = parameter(tokens_[i].spelling);
            if (p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin)) {
                fail(i, "a loop or if header that runs once per group names per-thread builtin " + quoted(i));
                return false;
            }
        }
    }
    return true;
}

bool Planner::readsPerThreadVariable(TokenRange header) {
    for (std::size_t i = header.begin; i < header.end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const Visible* v = lookUp(tokens_[i].spelling);
        if (v && v->kind == Visible::Kind::PerThread && !uniformConstant(v->variable, 0)) {
            fail(i, "a loop with SIMD-group functions or simdgroup_barriers but no threadgroup barrier reads "
                    "per-thread variable " + quoted(i) +
                        " in its header (it need be uniform only across a SIMD-group)");
            return true;
        }
    }
    return false;
}

void Planner::hidingScopes(const Statement& s, std::size_t blockEnd, const std::vector<std::string>& names,
                           std::vector<TokenRange>& scopes) const {
    // The first of `names` that a parsed declaration declares (its declarators only: a
    // lambda's parameter in an initialiser declares nothing here), or kNoToken.
    const auto declared = [&](const std::optional<Declaration>& declaration) {
        if (declaration)
            for (std::size_t name : declaration->names)
                if (std::find(names.begin(), names.end(), tokens_[name].spelling) != names.end()) return name;
        return kNoToken;
    };
    if (s.kind == StatementKind::Simple) {
        if (const std::size_t d = declared(parseDeclaration(tokens_, partner_, s)); d != kNoToken)
            scopes.push_back({d, blockEnd});
        return;
    }
    // A header's declaration (`for (int i = 0; ...)`, `if (int n = f(); n > 0)`, `while (T x = g())`)
    // is in scope to the end of its statement.
    if (s.kind == StatementKind::For || s.kind == StatementKind::If || s.kind == StatementKind::While ||
        s.kind == StatementKind::Switch) {
        const std::size_t end = headerSemicolon(s.header.begin, s.header.end);
        if (const std::size_t d = declared(parseDeclaration(tokens_, partner_, s.header.begin, end)); d != kNoToken) {
            scopes.push_back({d, s.tokens.end});
            return;
        }
    }
    for (const Statement& child : s.children) {
        // A compound's statements are in scope to its end; any other statement is a scope of its own.
        hidingScopes(child, s.kind == StatementKind::Compound ? s.tokens.end : child.tokens.end, names, scopes);
    }
}

std::size_t Planner::headerSemicolon(std::size_t begin, std::size_t end) const {
    for (std::size_t i = begin; i < end; ++i) {
        if (tokens_[i].isPunct(";")) return i;
        if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i];
    }
    return end;
}

bool Planner::declaresVariable(std::size_t begin, std::size_t end) const {
    return parseDeclaration(tokens_, partner_, begin, end).has_value();
}

void Planner::groupStatement(const Statement& s) {
    const bool loop =
        s.kind == StatementKind::For || s.kind == StatementKind::While || s.kind == StatementKind::Do;
    if ((!loop && s.kind != StatementKind::If) || s.children.empty()) {
        fail(s.keyword, "a barrier or SIMD-group function in a " + quoted(s.keyword) + " statement");
        return;
    }
    const std::size_t mark = visible_.size();
    const TokenRange h = s.header;
    // Under a divergent if the header runs once per group even when no thread takes the
    // branch, so it must be harmless there.
    if (!guards_.empty() && mayFault(h)) {
        fail(s.keyword, "under an if whose condition differs per thread, a loop or if header that may fault "
                        "(a division, an index, a dereference, a call) would run when no thread takes the branch");
        return;
    }
    if (loop && !holdsThreadgroupBarrier(s) && !inUniformLoopHeader(s) && readsPerThreadVariable(h)) return;
    if (s.kind == StatementKind::For) {
        // for (init; condition; increment): the init-statement's variables belong to the group.
        const std::size_t first = headerSemicolon(h.begin, h.end);
        const std::size_t second = first < h.end ? headerSemicolon(first + 1, h.end) : h.end;
        if (first == h.end || second == h.end || !checkHeaderPart(h.begin, first, false)) {
            fail(s.keyword, "this loop's header");
            return;
        }
        if (first > h.begin)
            if (auto d = parseDeclaration(tokens_, partner_, h.begin, first))
                for (std::size_t n : d->names)
                    visible_.push_back({tokens_[n].spelling, Visible::Kind::LoopVariable});
        const std::size_t uses = out_->headerUses.size();
        if (!checkHeaderPart(first + 1, second, true) || !checkHeaderPart(second + 1, h.end, false))
            fail(s.keyword, "this loop's header");
        else if (out_->headerUses.size() != uses)
            out_->uniformConditions.push_back({{first + 1, second}, {h.end, s.tokens.end}, s.tokens.end - 1});
    } else {
        // if/while/do-while: a condition, without an init-statement or a declaration.
        if (headerSemicolon(h.begin, h.end) != h.end || declaresVariable(h.begin, h.end))
            fail(s.keyword, "an " + quoted(s.keyword) + " that runs once per group declares a variable in its header");
        else if (const std::size_t uses = out_->headerUses.size(); !checkHeaderPart(h.begin, h.end, true))
            fail(s.keyword, "this header");
        else if (out_->headerUses.size() != uses) // where the threads go: into the body, or past it (an if's else)
            out_->uniformConditions.push_back(
                {h, {s.kind == StatementKind::Do ? s.keyword : h.end, s.children[0].tokens.end},
                 s.kind == StatementKind::If ? s.children[0].tokens.end - 1 : s.tokens.end - 1});
    }
    if (!ok_) return;
    inUniformLoop_ = uniformLoops_.count(s.keyword) != 0;
    // A break in a piece in there would be the loop's own (and leave the piece): not a
    // divergent loop's around it.
    const std::size_t outerLoop = loopGuard_;
    if (loop) loopGuard_ = WorkItemRegion::kNoGuard;
    for (const Statement& body : s.children) {
        if (body.kind == StatementKind::Compound) {
            if (loop) out_->loopBodies.push_back(body.keyword);
            block(body.children, partner_[body.keyword]);
        } else {
            // `for (...) for (...) simdgroup_multiply_accumulate(...);`: the statement gets
            // braces, as the pieces it becomes may be several statements.
            out_->unbracedBodies.push_back({body.tokens, loop});
            block({body}, body.tokens.end);
        }
    }
    inUniformLoop_ = false;
    loopGuard_ = outerLoop;
    visible_.resize(mark);
}

void Planner::divergentIf(const Statement& s) {
    const TokenRange h = s.header;
    if (s.keyword != s.tokens.begin || s.children.empty() || // attributes or pragmas before the `if`
        std::any_of(s.children.begin(), s.children.end(),
                    [](const Statement& c) { return c.kind != StatementKind::Compound; }) ||
        headerSemicolon(h.begin, h.end) != h.end || declaresVariable(h.begin, h.end)) {
        fail(s.keyword, "an if whose condition differs per thread, around SIMD-group functions, needs {} branches, "
                        "no attributes, no init-statement and no declaration");
        return;
    }
    for (std::size_t i = h.begin; i < h.end; ++i) {
        if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment) {
            fail(i, "the condition of an if that differs per thread assigns or increments");
            return;
        }
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const Visible* v = lookUp(tokens_[i].spelling);
        if (v && v->kind != Visible::Kind::Group && mayWrite(i)) {
            fail(i, "the condition of an if that differs per thread may write " + quoted(i));
            return;
        }
    }
    const std::size_t guard = out_->divergentIfs.size();
    DivergentIf d;
    d.keyword = s.keyword;
    d.end = s.tokens.end;
    if (s.children.size() > 1) {
        d.elseKeyword = s.children[0].tokens.end;
        if (!tokens_[d.elseKeyword].isIdentifier("else")) {
            fail(s.keyword, "an if whose condition differs per thread, around SIMD-group functions, needs {} branches");
            return;
        }
    }
    out_->divergentIfs.push_back(d);
    WorkItemRegion condition;
    condition.tokens = h;
    condition.setsGuard = guard;
    if (!scanNames(condition)) return;
    out_->regions.push_back(std::move(condition));
    for (std::size_t branch = 0; branch < s.children.size() && ok_; ++branch) {
        guards_.push_back({guard, branch == 0});
        block(s.children[branch].children, partner_[s.children[branch].keyword]);
        guards_.pop_back();
    }
}

bool Planner::readsThreadState(TokenRange range) const {
    for (std::size_t i = range.begin; i < range.end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        if (const Visible* v = lookUp(tokens_[i].spelling)) {
            if (v->kind == Visible::Kind::PerThread && !uniformConstant(v->variable, 0)) return true;
        } else if (const ParamInfo* p = parameter(tokens_[i].spelling);
                   p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin)) {
            return true;
        }
    }
    return false;
}

std::size_t Planner::nonUniformName(TokenRange range, const std::vector<std::string>& own) const {
    for (std::size_t i = range.begin; i < range.end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const std::string& name = tokens_[i].spelling;
        bool uniform = true;
        if (std::find(own.begin(), own.end(), name) != own.end()) continue;
        if (const Visible* v = lookUp(name)) {
            uniform = v->kind != Visible::Kind::PerThread || uniformConstant(v->variable, 0, true);
        } else if (const ParamInfo* p = parameter(name)) {
            uniform = p->kind != ParamKind::Builtin || isUniformBuiltin(p->builtin) ||
                      p->builtin == Builtin::SimdgroupIndexInThreadgroup;
        }
        if (!uniform) return i;
    }
    return kNoToken;
}

bool Planner::simdUniform(TokenRange range, const std::vector<std::string>& own) {
    const std::size_t i = nonUniformName(range, own);
    if (i == kNoToken) return true;
    fail(i, "a loop with SIMD-group functions or simdgroup_barriers but no threadgroup barrier reads " + quoted(i) +
                " in its header or a condition of its breaks, which may differ within a SIMD-group (Metal asks its "
                "trip count to be uniform across each SIMD-group; only consts set up from the SIMD-group's index "
                "and uniform values are known to be)");
    return false;
}

void Planner::divergentLoop(const Statement& s) {
    const TokenRange h = s.header;
    if (!readsThreadState(h)) { // uniform constants only: the group's loop
        groupStatement(s);
        return;
    }
    if (s.keyword != s.tokens.begin || s.children.size() != 1 || s.children[0].kind != StatementKind::Compound) {
        fail(s.keyword, "a loop whose header differs per thread, around SIMD-group functions, needs a {} body and "
                        "no attributes");
        return;
    }
    DivergentIf d;
    d.keyword = s.keyword;
    d.end = s.tokens.end;
    d.loop = true;
    d.open = h.begin - 1;
    d.close = h.end;
    TokenRange init{h.begin, h.begin}, condition = h, increment{h.end, h.end};
    if (s.kind == StatementKind::For) {
        d.initEnd = headerSemicolon(h.begin, h.end);
        d.conditionEnd = d.initEnd < h.end ? headerSemicolon(d.initEnd + 1, h.end) : h.end;
        if (d.conditionEnd == h.end) {
            fail(s.keyword, "this loop's header");
            return;
        }
        init = {h.begin, d.initEnd};
        condition = {d.initEnd + 1, d.conditionEnd};
        increment = {d.conditionEnd + 1, h.end};
    } else if (declaresVariable(h.begin, h.end)) {
        fail(s.keyword, "a while loop whose condition differs per thread declares a variable in its header");
        return;
    }
    if (condition.empty() && s.kind != StatementKind::For) {
        fail(s.keyword, "a loop whose header differs per thread, around SIMD-group functions, has no condition");
        return;
    }
    // The init-statement declares the loop's own variables, which only the increment writes.
    Statement initStatement;
    initStatement.tokens = {init.begin, d.initEnd == kNoToken ? init.begin : d.initEnd + 1};
    initStatement.keyword = init.begin;
    std::vector<std::string> own;
    if (!init.empty()) {
        const auto declaration = parseDeclaration(tokens_, partner_, initStatement);
        if (!declaration) {
            fail(init.begin, "the init-statement of a loop whose header differs per thread is not a declaration");
            return;
        }
        for (std::size_t n : declaration->names) own.push_back(tokens_[n].spelling);
    }
    for (std::size_t i = condition.begin; i < condition.end; ++i)
        if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment) {
            fail(i, "the condition of a loop that differs per thread assigns or increments");
            return;
        }
    // In the body, a name that a declaration of its own hides is not the loop's.
    std::vector<TokenRange> hidden;
    hidingScopes(s.children[0], s.tokens.end, own, hidden);
    const auto isHidden = [&](std::size_t i) {
        return std::any_of(hidden.begin(), hidden.end(), [&](TokenRange r) { return i >= r.begin && i < r.end; });
    };
    for (TokenRange part : {increment, TokenRange{h.end, s.tokens.end}}) {
        for (std::size_t i = part.begin; i < part.end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling) || isHidden(i)) continue;
            const bool mine = std::find(own.begin(), own.end(), tokens_[i].spelling) != own.end();
            if (mine != (part.begin == h.end) || !mayWrite(i)) continue;
            fail(i, mine ? "the body of a loop whose header differs per thread may write its variable " + quoted(i)
                         : "the increment of a loop whose header differs per thread may write " + quoted(i) +
                               ", not a variable of the loop");
            return;
        }
    }
    if (!simdUniform(init, {}) || !simdUniform(condition, own) || !simdUniform(increment, own)) return;
    const std::size_t mark = visible_.size();
    if (!init.empty()) region({&initStatement}, s.tokens.end);
    if (!ok_) return;
    const std::size_t guard = out_->divergentIfs.size();
    out_->divergentIfs.push_back(d);
    WorkItemRegion header;
    header.tokens = {condition.begin, h.end}; // the condition and the increment
    header.setsGuard = guard;
    if (!scanNames(header)) return;
    out_->regions.push_back(std::move(header));
    guards_.push_back({guard, true});
    const std::size_t outerGuard = loopGuard_;
    std::vector<std::string> outerVariables = std::move(loopVariables_);
    loopGuard_ = guard;
    loopVariables_ = own;
    block(s.children[0].children, partner_[s.children[0].keyword]);
    loopGuard_ = outerGuard;
    loopVariables_ = std::move(outerVariables);
    guards_.pop_back();
    visible_.resize(mark);
}

namespace {

// The `break`s of `s` that leave it (not one of a loop or switch inside it), and the headers
// of the `if`s around each, outermost first.
void directBreaks(const Statement& s, std::vector<TokenRange>& ifs, std::vector<std::size_t>& breaks,
                  std::vector<TokenRange>& conditions) {
    switch (s.kind) {
    case StatementKind::Break:
        breaks.push_back(s.keyword);
        conditions.insert(conditions.end(), ifs.begin(), ifs.end());
        return;
    case StatementKind::For:
    case StatementKind::While:
    case StatementKind::Do:
    case StatementKind::Switch:
        return;
    default:
        break;
    }
    if (s.kind == StatementKind::If) ifs.push_back(s.header);
    for (const Statement& c : s.children) directBreaks(c, ifs, breaks, conditions);
    if (s.kind == StatementKind::If) ifs.pop_back();
}

} // namespace

bool Planner::loopBreaks(const Statement& s, const std::vector<const Statement*>& before, WorkItemRegion& r) {
    std::vector<TokenRange> ifs, conditions;
    std::vector<std::size_t> breaks;
    directBreaks(s, ifs, breaks, conditions);
    // The variables the piece declared before `s` from values uniform across each SIMD-group,
    // and never writes.
    std::vector<std::string> uniform = loopVariables_;
    const TokenRange piece{before.empty() ? s.tokens.begin : before.front()->tokens.begin, s.tokens.end};
    for (const Statement* b : before) {
        const auto d = parseDeclaration(tokens_, partner_, *b);
        if (!d) continue;
        for (std::size_t k = 0; k < d->names.size(); ++k) {
            const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, b->tokens.end - 1);
            const std::string& name = tokens_[d->names[k]].spelling;
            bool written = false;
            for (std::size_t i = d->names[k] + 1; i < piece.end && !written; ++i)
                written = tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i) && mayWrite(i);
            if (!written && !parts.initializer.empty() && nonUniformName(parts.initializer, uniform) == kNoToken)
                uniform.push_back(name);
        }
    }
    for (const TokenRange& c : conditions) {
        // A name the piece declares that is not among those is the thread's own.
        for (std::size_t i = c.begin; i < c.end; ++i) {
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const std::string& name = tokens_[i].spelling;
            if (std::find(uniform.begin(), uniform.end(), name) != uniform.end()) continue;
            for (std::size_t k = piece.begin; k < piece.end; ++k)
                if (tokens_[k].isIdentifier(name) && unit_.role(k) == TokenRole::Declarator) {
                    fail(i, "a break out of a loop with SIMD-group functions or simdgroup_barriers but no threadgroup "
                            "barrier is under a condition that reads " + quoted(i) + ", which may differ within a "
                            "SIMD-group");
                    return false;
                }
        }
        if (!simdUniform(c, uniform)) return false;
    }
    r.breaks.insert(r.breaks.end(), breaks.begin(), breaks.end());
    r.leavesGuard = loopGuard_;
    return true;
}

void Planner::collective(const Statement& s, std::size_t close) {
    const std::size_t index = collectiveAt(s);
    const CollectiveStatement& c = coroutine_.collectives[index];
    for (std::size_t i = c.open + 1; i < partner_[c.open]; ++i) {
        if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment) {
            fail(i, "the arguments of a SIMD-group function statement assign or increment");
            return;
        }
    }
    // A product's result (its first argument) is written, which scanNames must see.
    collectiveArguments_ = {c.resultComma != kNoToken ? c.resultComma + 1 : c.open + 1, partner_[c.open]};
    region({&s}, close);
    collectiveArguments_ = {};
    if (ok_) {
        out_->regions.back().collective = out_->collectives.size();
        out_->collectives.push_back(c);
    }
}

} // namespace metalcpu::msl::work_items
