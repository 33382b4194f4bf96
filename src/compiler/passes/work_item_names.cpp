// The work-item loop planner (work_item_planner.h): what names refer to, and whether a piece
// may write them.
#include "compiler/passes/work_item_planner.h"

#include "compiler/call_arguments.h"
#include "compiler/passes/written_parameters.h"
#include "compiler/syntax.h"

#include <algorithm>

namespace metalcpu::msl::work_items {

const Planner::Visible* Planner::lookUp(const std::string& name) const {
    for (auto it = visible_.rbegin(); it != visible_.rend(); ++it)
        if (it->name == name) return &*it;
    return nullptr;
}

const ParamInfo* Planner::parameter(const std::string& name, std::size_t* index) const {
    for (std::size_t i = 0; i < params_.size(); ++i)
        if (params_[i].name == name) {
            if (index) *index = i;
            return &params_[i];
        }
    return nullptr;
}

bool Planner::checkParameters() {
    std::vector<std::size_t> written; // parameter indices, in order of their first write
    for (std::size_t i = f_.bodyOpen + 1; i < f_.bodyClose; ++i) {
        if (!unit_.isUnqualifiedName(i)) continue;
        std::size_t index = 0;
        const ParamInfo* p = parameter(tokens_[i].spelling, &index);
        if (!p || std::find(written.begin(), written.end(), index) != written.end()) continue;
        const ParameterWrite write = parameterWrite(*p);
        // A texture or sampler handed to a helper is not judged as written (a handle is
        // passed by value); assigned or incremented, it cannot have slots.
        if (write == ParameterWrite::Refused && modified(i, ObjectParts::None)) {
            fail(i, "parameter " + quoted(i) + " is written (the group's threads share one copy, and only "
                    "pointers and builtins get one per thread)");
            return false;
        }
        if (write == ParameterWrite::PerThread && writesParameter(i, *p)) written.push_back(index);
    }
    for (std::size_t index : written) {
        const ParamInfo& p = params_[index];
        WorkItemVariable v;
        v.name = p.name;
        v.inPlace = addressTaken(p.name, f_.bodyOpen + 1); // an address stays the same across barriers
        v.parameter = index;
        if (p.kind == ParamKind::Builtin && !isUniformBuiltin(p.builtin)) v.perThreadBuiltin = p.builtin;
        visible_.push_back({p.name, Visible::Kind::PerThread, out_->variables.size()});
        out_->variables.push_back(std::move(v));
    }
    return true;
}

bool Planner::writesParameter(std::size_t i, const ParamInfo& p) const {
    if (modified(i, p.kind == ParamKind::Builtin ? ObjectParts::All : ObjectParts::None)) return true;
    const Token& after = tokens_[i + 1];
    return !after.isPunct(".") && !after.isPunct("[") && !after.isPunct("->") && mayWrite(i);
}

bool Planner::namesThreadState(std::size_t begin, std::size_t end, const std::vector<std::string>& pieceNames,
                               bool uniformParameters) const {
    for (std::size_t i = begin; i < end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const std::string& name = tokens_[i].spelling;
        if (const Visible* v = lookUp(name)) {
            if (v->kind == Visible::Kind::PerThread) return true;
            continue;
        }
        const ParamInfo* p = parameter(name);
        if (p && (!uniformParameters || (p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin))))
            return true;
        if (std::find(pieceNames.begin(), pieceNames.end(), name) != pieceNames.end())
            return true;
    }
    return false;
}

bool Planner::mayFault(TokenRange range) const {
    for (std::size_t i = range.begin; i < range.end; ++i) {
        const Token& t = tokens_[i];
        const TokenRole r = unit_.role(i);
        if (t.isPunct("/") || t.isPunct("%") || t.isPunct("->") || r == TokenRole::Subscript ||
            r == TokenRole::Dereference || r == TokenRole::CallOpen)
            return true;
    }
    return false;
}

bool Planner::isConstantInitializer(std::size_t begin, std::size_t end) const {
    if (begin < end && tokens_[begin].isPunct("=")) ++begin;
    for (std::size_t i = begin; i < end; ++i) {
        const Token& t = tokens_[i];
        if (t.kind == TokenKind::Number || t.kind == TokenKind::Character) continue;
        if (t.isIdentifier()) {
            if (isCppKeyword(t.spelling)) continue;
            const Visible* v = lookUp(t.spelling);
            if (!(v ? v->kind == Visible::Kind::Group : namespaceVariables_.count(t.spelling) != 0)) return false;
            continue;
        }
        if (unit_.role(i) == TokenRole::CallOpen) return false; // a call or a functional cast
        if (unit_.isAssignmentOperator(i) || unit_.role(i) == TokenRole::Increment || t.isPunct("&") ||
            t.isPunct(",") || t.kind == TokenKind::String)
            return false;
    }
    return true;
}

bool Planner::callsIn(TokenRange range) const {
    for (std::size_t i = range.begin; i < range.end; ++i)
        if (unit_.role(i) == TokenRole::CallOpen) return true;
    return false;
}

bool Planner::uniformConstant(std::size_t variable, int depth, bool perSimdgroup) const {
    const WorkItemVariable& w = out_->variables[variable];
    if (!w.isConst || w.parameter != WorkItemVariable::kNotParameter || w.initializer.empty() || depth > 8)
        return false;
    for (std::size_t i = w.initializer.begin; i < w.initializer.end; ++i) {
        if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        if (const Visible* v = lookUp(tokens_[i].spelling)) {
            if (v->kind == Visible::Kind::PerThread && !uniformConstant(v->variable, depth + 1, perSimdgroup))
                return false;
        } else if (const ParamInfo* p = parameter(tokens_[i].spelling);
                   p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin) &&
                   !(perSimdgroup && p->builtin == Builtin::SimdgroupIndexInThreadgroup)) {
            return false;
        }
    }
    return true;
}

bool Planner::addressTaken(const std::string& name, std::size_t from) const {
    for (std::size_t i = from; i < f_.bodyClose; ++i)
        if (tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i) &&
            (unit_.role(i - 1) == TokenRole::AddressOf ||
             unit_.useOf(i, i, ObjectParts::All).kind == UseKind::AddressTaken))
            return true;
    return false;
}

bool Planner::mayWrite(std::size_t i) const {
    if (modified(i, ObjectParts::All)) return true;
    const Token& before = tokens_[i - 1];
    const Token& after = tokens_[i + 1];
    const bool argumentStart =
        before.isPunct(",") || before.isPunct("{") ||
        (before.isPunct("(") && !(tokens_[i - 2].isIdentifier() && isCppKeyword(tokens_[i - 2].spelling)));
    if (argumentStart && (after.isPunct(")") || after.isPunct(",") || after.isPunct("}")))
        return mayBindWritableReference(i);
    if (after.isPunct(".") || after.isPunct("[")) return true;
    if (before.isPunct("=") || before.isPunct(":")) {
        // `T& r = name;`, `for (T& r : name)`: look back to the statement's start for a `&`.
        for (std::size_t k = i - 1; k > f_.bodyOpen; --k) {
            const Token& t = tokens_[k];
            if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
            if (t.isPunct("&") || t.isPunct("&&")) return true;
        }
    }
    return false;
}

bool Planner::mayBindWritableReference(std::size_t i) const {
    const CallArgument call = callArgumentAt(unit_, i);
    if (call.callee != kNoToken && unit_.role(call.callee) == TokenRole::Callee) {
        const std::string& name = tokens_[call.callee].spelling;
        if (parameter(name) || localTypes_.count(name)) return true;
        for (std::size_t k = f_.bodyOpen + 1; k < f_.bodyClose; ++k)
            if (unit_.role(k) == TokenRole::Declarator && tokens_[k].spelling == name) return true;
    }
    return msl::mayBindWritableReference(unit_, call, fileTypes_);
}

bool Planner::namedIn(const std::string& name, std::size_t begin, std::size_t end) const {
    for (std::size_t i = begin; i < end; ++i)
        if (tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i)) return true;
    return false;
}

bool Planner::scanNames(WorkItemRegion& r) {
    r.guards = guards_;
    r.learnsLanes = std::any_of(coroutine_.laneUsers.begin(), coroutine_.laneUsers.end(),
                                [&](std::size_t u) { return contains(r.tokens, u); });
    for (std::size_t i = r.tokens.begin; i < r.tokens.end; ++i) {
        if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
        const std::string& name = tokens_[i].spelling;
        if (const Visible* v = lookUp(name)) {
            if (v->kind == Visible::Kind::PerThread) {
                if (std::find(r.loads.begin(), r.loads.end(), v->variable) == r.loads.end())
                    r.loads.push_back(v->variable);
            } else if (v->kind == Visible::Kind::LoopVariable &&
                       (contains(collectiveArguments_, i) ? modified(i, ObjectParts::All)
                                                          : mayWrite(i))) {
                // A SIMD-group function takes its arguments by value.
                fail(i, "writes " + quoted(i) + ", a variable of a loop that runs once per group (assigned, "
                        "incremented, passed where a non-const reference may bind it, bound to a reference, or "
                        "a member function called)");
                return false;
            }
            continue;
        }
        std::size_t index = 0;
        const ParamInfo* p = parameter(name, &index);
        if (p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin) &&
            std::find(r.builtins.begin(), r.builtins.end(), index) == r.builtins.end())
            r.builtins.push_back(index);
    }
    return true;
}

} // namespace metalcpu::msl::work_items
