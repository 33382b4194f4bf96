#include "compiler/passes/lane_vectors.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/passes/loop_ranges.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace metalcpu::msl {

namespace {

constexpr std::string_view kLane = "::metalcpu_kernel::";

const char* builtinMacro(Builtin b) {
    switch (b) {
#define METALCPU_LANE_BUILTIN_MACRO(enumerator, attribute, name, uniform)                                              \
    case Builtin::name: return "MC_BUILTIN_" #enumerator;
        METALCPU_BUILTINS(METALCPU_LANE_BUILTIN_MACRO)
#undef METALCPU_LANE_BUILTIN_MACRO
    default: return "";
    }
}

// The per-thread builtins a row of threads has as lane values: x steps by one from lane to lane.
bool isRowBuiltin(Builtin b) {
    return b == Builtin::ThreadPositionInGrid || b == Builtin::ThreadPositionInThreadgroup ||
           b == Builtin::ThreadIndexInThreadgroup;
}

// Types a per-thread local may have: lane_vectors.h's varying<T, N> holds them.
bool isLaneType(const std::string& name) {
    static const std::regex scalarOrVector("(u?int|u?short|u?char|u?long|float)[234]?|unsigned|signed");
    static const std::regex matrix("float[234]x[234]");
    return std::regex_match(name, scalarOrVector) || std::regex_match(name, matrix);
}
bool isMatrixType(const std::string& name) {
    static const std::regex matrix("float[234]x[234]");
    return std::regex_match(name, matrix);
}
// Functions of the standard library without effects: the lane form calls them once for a
// block on uniform values and once for each lane (lane_call) on per-thread ones.
bool isPureLibraryFunction(const std::string& name) {
    static const std::set<std::string> names = {
        "min",   "max",    "abs",   "fabs",  "fma",   "sqrt",     "rsqrt",      "floor", "ceil",  "clamp", "exp",
        "exp2",  "exp10",  "log",   "log2",  "log10", "sin",      "cos",        "tan",   "asin",  "acos",  "atan",
        "atan2", "sinh",   "cosh",  "tanh",  "pow",   "powr",     "round",      "rint",  "trunc", "fract", "sign",
        "step",  "mix",    "fmin",  "fmax",  "fdim",  "fmod",     "copysign",   "saturate", "smoothstep", "dot",
        "length", "distance", "normalize", "cross", "select", "popcount", "clz", "ctz", "reverse_bits", "mad",
        "isnan", "isinf",  "isfinite", "signbit", "min3", "max3", "median3", "absdiff", "hadd", "rhadd", "mul24",
        "mad24", "mulhi",  "rotate", "erf",   "erfc",  "divide",   "recip",      "cbrt",  "hypot", "logb",  "ilogb"};
    return names.count(name) != 0;
}

class LanePlanner {
public:
    LanePlanner(const Unit& unit, std::size_t function, const std::vector<ParamInfo>& params, unsigned lanes,
                bool validated)
        : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), f_(unit.module().functions[function]),
          params_(params), lanes_(std::to_string(lanes)), validated_(validated) {
        body_.function = function;
        body_.validated = validated;
    }

    bool plan(const std::vector<Statement>& body, LaneBody& out, WorkItemRefusal& refusal) {
        for (const FunctionDecl& g : unit_.module().functions)
            if (!g.isKernel && g.parametersOpen != kNoToken) programFunctions_[g.name].push_back(&g);
        collect(body);
        if (!failed_) settleKinds();
        if (!failed_) emitBuiltins();
        for (std::size_t s = 0; s < body.size() && !failed_; ++s) statement(body[s], s == leadingTest_);
        if (validated_ && !failed_) uniformAccesses();
        if (failed_) {
            refusal = {body_.function, where_, why_};
            return false;
        }
        text("continue; } ");
        if (jumpsToScalar_) text("__mc_lanes_scalar: ; ");
        out = std::move(body_);
        return true;
    }

private:
    struct Local {
        TokenRange type;             ///< as declared, `const` included
        std::string typeName;        ///< the type's one name, `const` left out
        bool perThread = false;
        bool assignedLater = false;  ///< assigned after its declaration (so never linear)
        std::vector<TokenRange> values; ///< initializer and right-hand sides assigned to it
    };

    // --- collecting the locals and what is assigned to them ---

    void collect(const std::vector<Statement>& statements) {
        bool declarationsOnly = true, loopSeen = false;
        for (std::size_t s = 0; s < statements.size() && !failed_; ++s) {
            const Statement& st = statements[s];
            if (st.kind == StatementKind::If && declarationsOnly && !loopSeen && isBoundsTest(st)) {
                leadingTest_ = s;
                declarationsOnly = false;
                continue;
            }
            if (st.kind != StatementKind::Simple || !parseDeclaration(tokens_, partner_, st)) declarationsOnly = false;
            if (st.kind == StatementKind::For || st.kind == StatementKind::While || st.kind == StatementKind::Do) loopSeen = true;
            collectIn(st);
        }
    }

    void collectIn(const Statement& st) {
        switch (st.kind) {
        case StatementKind::Simple: collectSimple(st); break;
        case StatementKind::If:
            // What a branch assigns differs between threads when its condition does.
            conditions_.push_back(st.header);
            for (const Statement& c : st.children) collectIn(c);
            conditions_.pop_back();
            break;
        case StatementKind::For:
            if (auto d = parseDeclaration(tokens_, partner_, st.header.begin, semicolonIn(st.header)))
                for (std::size_t n : d->names) uniformLocals_.insert(tokens_[n].spelling);
            [[fallthrough]];
        default:
            for (const Statement& c : st.children) collectIn(c);
        }
    }

    std::size_t semicolonIn(TokenRange r) const {
        for (std::size_t i = r.begin; i < r.end; ++i) {
            if (tokens_[i].isPunct(";")) return i;
            if (isOpenBracket(i)) i = partner_[i];
        }
        return r.end;
    }
    bool isOpenBracket(std::size_t i) const {
        return tokens_[i].isPunct("(") || tokens_[i].isPunct("[") || tokens_[i].isPunct("{");
    }

    void collectSimple(const Statement& st) {
        const std::size_t end = st.tokens.end - 1; // the `;`
        if (auto d = parseDeclaration(tokens_, partner_, st)) {
            for (std::size_t k = 0; k < d->names.size(); ++k) {
                const DeclaratorParts parts = declaratorParts(tokens_, partner_, *d, k, end);
                Local local;
                local.type = parts.specifiers;
                for (std::size_t i = parts.specifiers.begin; i < parts.specifiers.end; ++i)
                    if (!tokens_[i].isIdentifier("const")) local.typeName += (local.typeName.empty() ? "" : " ") + tokens_[i].spelling;
                if (!parts.pointer.empty() || !parts.bounds.empty()) local.typeName += " (pointer or array)";
                if (!parts.initializer.empty()) local.values.push_back(initializerValue(parts.initializer));
                if (!locals_.emplace(tokens_[parts.name].spelling, local).second)
                    fail(parts.name, "it declares '" + tokens_[parts.name].spelling + "' twice");
            }
            return;
        }
        const std::size_t op = assignmentIn(st.tokens.begin, end);
        if (op == kNoToken) return;
        if (op == st.tokens.begin + 1 && tokens_[st.tokens.begin].isIdentifier()) {
            auto local = locals_.find(tokens_[st.tokens.begin].spelling);
            if (local != locals_.end()) {
                local->second.assignedLater = true;
                local->second.values.push_back({op + 1, end});
                local->second.values.insert(local->second.values.end(), conditions_.begin(), conditions_.end());
            }
        }
    }

    // `= x` gives x, `(a, b)` and `{a, b}` their insides.
    TokenRange initializerValue(TokenRange init) const {
        if (tokens_[init.begin].isPunct("=")) return {init.begin + 1, init.end};
        return {init.begin + 1, init.end - 1};
    }

    // The statement's top-level `=` or compound assignment, or kNoToken.
    std::size_t assignmentIn(std::size_t begin, std::size_t end) const {
        for (std::size_t i = begin; i < end; ++i) {
            if (isOpenBracket(i)) {
                i = partner_[i];
                continue;
            }
            const TokenRole r = unit_.role(i);
            if (r == TokenRole::Assignment || r == TokenRole::CompoundAssignment) return i;
        }
        return kNoToken;
    }

    // Kinds to a fixed point: a local is per-thread when a value assigned to it is.
    void settleKinds() {
        for (bool changed = true; changed;) {
            changed = false;
            for (auto& [name, local] : locals_) {
                if (local.perThread) continue;
                for (const TokenRange& v : local.values)
                    if (perThread(v)) {
                        local.perThread = changed = true;
                        break;
                    }
            }
        }
    }

    const ParamInfo* rowBuiltin(std::size_t i) const {
        if (!unit_.isUnqualifiedName(i) || locals_.count(tokens_[i].spelling) || uniformLocals_.count(tokens_[i].spelling))
            return nullptr;
        const ParamInfo* p = parameterNamed(params_, tokens_[i].spelling);
        return p && p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin) ? p : nullptr;
    }
    // Whether the builtin's use at `i` differs from lane to lane: its x, or the whole of a scalar one.
    bool builtinUsePerThread(std::size_t i) const {
        if (i + 2 < tokens_.size() && tokens_[i + 1].isPunct(".")) return tokens_[i + 2].isIdentifier("x");
        return true;
    }

    bool perThread(TokenRange r) const {
        for (std::size_t i = r.begin; i < r.end; ++i) {
            if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i)) continue;
            if (auto l = locals_.find(tokens_[i].spelling); l != locals_.end() && l->second.perThread) return true;
            if (rowBuiltin(i) && builtinUsePerThread(i)) return true;
        }
        return false;
    }

    bool isBoundsTest(const Statement& st) const {
        if (st.children.size() != 1) return false;
        const Statement* then = &st.children[0];
        if (then->kind == StatementKind::Compound && then->children.size() == 1) then = &then->children[0];
        return then->kind == StatementKind::Return && tokens_[then->keyword + 1].isPunct(";");
    }

    // --- writing the lane form ---

    void text(const std::string& t) { body_.segments.push_back({t, {}}); }
    void copy(std::size_t begin, std::size_t end) {
        if (begin < end) body_.segments.push_back({"", {begin, end}});
    }
    bool fail(std::size_t where, std::string why) {
        if (!failed_) {
            failed_ = true;
            where_ = where;
            why_ = std::move(why);
        }
        return false;
    }

    void emitBuiltins() {
        for (std::size_t i = f_.bodyOpen + 1; i < f_.bodyClose; ++i) {
            const ParamInfo* p = tokens_[i].isIdentifier() ? rowBuiltin(i) : nullptr;
            if (!p || declared_.count(p->name)) continue;
            if (!isRowBuiltin(p->builtin)) {
                fail(i, "it names per-thread builtin '" + p->name + "', which a row of threads has no lane value of");
                return;
            }
            declared_.insert(p->name);
            const std::string alias = "__mc_lb_" + p->name;
            text("using " + alias + " = decltype(" + p->name + "); const auto " + p->name + " = " + std::string(kLane) +
                 "lane_builtin<" + lanes_ + ">(" + std::string(kLane) + "builtin<" + alias + ", " +
                 builtinMacro(p->builtin) + ">(__mc_group, __mc_wi.ids(0))); ");
        }
    }

    void statement(const Statement& st, bool leadingTest) {
        switch (st.kind) {
        case StatementKind::Compound:
            text("{ ");
            for (const Statement& c : st.children) statement(c, false);
            text("} ");
            return;
        case StatementKind::Simple: simple(st); return;
        case StatementKind::Empty: text("; "); return;
        case StatementKind::Break:
        case StatementKind::Continue:
            if (loopMasks_.empty() || loopMasks_.back() != mask_)
                return void(fail(st.keyword, "a break or continue under a condition that differs between threads"));
            copy(st.keyword, st.tokens.end);
            text(" ");
            return;
        case StatementKind::If:
            if (leadingTest) {
                text("if (" + std::string(kLane) + "lane_any(");
                expression(st.header.begin, st.header.end, true);
                text(")) goto __mc_lanes_scalar; ");
                jumpsToScalar_ = true;
                return;
            }
            if (perThread(st.header)) return maskedIf(st);
            uniformHeader(st);
            text("if (");
            copy(st.header.begin, st.header.end);
            text(") ");
            statement(st.children[0], false);
            if (st.children.size() > 1) {
                text("else ");
                statement(st.children[1], false);
            }
            return;
        case StatementKind::For:
        case StatementKind::While: {
            if (perThread(st.header)) return void(fail(st.keyword, "a loop whose header differs between threads"));
            uniformHeader(st);
            // Validated: a loop whose accesses range_inside() can check once for the block runs
            // in two copies, one whose flag says they are all inside (the host compiler drops
            // their checks), the other checking each as before. Not left to -funswitch-loops:
            // the lanes' inline fallbacks make the loop too big for it. The flag is named after
            // the loop, so that both copies of a loop nested in it name their own.
            const std::optional<RangedLoop> ranged =
                validated_ ? rangedLoop(unit_, f_, params_, st) : std::nullopt;
            if (!ranged) return loop(st);
            const std::string flag = "__mc_range_" + std::to_string(st.keyword);
            for (std::size_t access : ranged->accesses) rangedAccesses_[access] = flag;
            text("{ if (");
            rangePrecheck(*ranged);
            text(") { constexpr bool " + flag + " = true; ");
            loop(st);
            text("} else { constexpr bool " + flag + " = false; ");
            loop(st);
            text("} } ");
            return;
        }
        case StatementKind::Do:
            if (perThread(st.header)) return void(fail(st.keyword, "a loop whose condition differs between threads"));
            uniformHeader(st);
            text("do ");
            loopMasks_.push_back(mask_);
            statement(st.children[0], false);
            loopMasks_.pop_back();
            text("while (");
            copy(st.header.begin, st.header.end);
            text("); ");
            return;
        case StatementKind::Return:
            return void(fail(st.keyword, "it returns elsewhere than in a leading bounds test `if (cond) return;`"));
        default: return void(fail(st.keyword, "a switch, goto or label"));
        }
    }

    // `for (...) body` or `while (...) body` with a uniform header.
    void loop(const Statement& st) {
        copy(st.keyword, st.header.end + 1);
        text(" ");
        loopMasks_.push_back(mask_);
        statement(st.children[0], false);
        loopMasks_.pop_back();
    }

    // `if (c) a else b` with a per-thread c: each branch for the block when any lane takes it,
    // under the mask of the lanes that do (lane_statements.h, "per-thread conditions").
    void maskedIf(const Statement& st) {
        // The checked accesses (lane_checked.h) take no mask: a lane outside it could report.
        if (validated_)
            return void(fail(st.keyword, "a condition that differs between threads (the checked lane form has no masks)"));
        if (accessesAfterShortCircuit(st.header.begin, st.header.end))
            return void(fail(st.keyword, "a per-thread condition loads, divides or calls after && or || (every lane "
                                         "evaluates both sides)"));
        const std::string within = mask_.empty() ? std::string(kLane) + "lane_every{}" : mask_;
        const std::string taken = "__mc_lm" + std::to_string(masks_++);
        text("{ const auto " + taken + " = " + std::string(kLane) + "lane_when<" + lanes_ + ">(" + within + ", ");
        expression(st.header.begin, st.header.end, true);
        text("); ");
        const std::string outer = mask_;
        mask_ = taken;
        text("if (" + std::string(kLane) + "any(" + taken + ")) { ");
        statement(st.children[0], false);
        text("} ");
        if (st.children.size() > 1) {
            const std::string other = taken + "e";
            text("const auto " + other + " = " + std::string(kLane) + "lane_unless<" + lanes_ + ">(" + within + ", " +
                 taken + "); ");
            mask_ = other;
            text("if (" + std::string(kLane) + "any(" + other + ")) { ");
            statement(st.children[1], false);
            text("} ");
        }
        mask_ = outer;
        text("} ");
    }

    // Whether a per-thread load, division or call follows a `&&` or `||` of [begin, end):
    // the lanes evaluate both sides, and a lane whose left side decides must not load.
    bool accessesAfterShortCircuit(std::size_t begin, std::size_t end) const {
        bool after = false;
        for (std::size_t i = begin; i < end; ++i) {
            if (tokens_[i].isPunct("&&") || tokens_[i].isPunct("||")) after = true;
            if (!after) continue;
            const TokenRole r = unit_.role(i);
            if ((r == TokenRole::Dereference || r == TokenRole::Subscript || r == TokenRole::CallOpen ||
                 tokens_[i].isPunct("/") || tokens_[i].isPunct("%")) &&
                perThread({i, end}))
                return true;
        }
        return false;
    }

    // The load of a lane pointer, in the lanes of the current mask.
    std::string loadClose() const { return mask_.empty() ? ")" : ", " + mask_ + ")"; }

    // A uniform header is copied as written; what it calls still has to be a known function.
    void uniformHeader(const Statement& st) {
        for (std::size_t i = st.header.begin; i < st.header.end; ++i) checkUniformToken(i);
    }
    void checkUniformToken(std::size_t i) {
        const TokenRole r = unit_.role(i);
        if (r == TokenRole::CallOpen && unit_.role(i - 1) != TokenRole::Declarator) {
            const std::string callee = i > 0 ? tokens_[i - 1].spelling : "";
            const bool perThreadArguments = perThread({i + 1, partner_[i]});
            if (isLaneType(callee) || isPureLibraryFunction(callee)) return;
            const std::string why = programFunctionProblem(callee, perThreadArguments);
            if (!why.empty()) fail(i - 1, "it calls '" + callee + "', " + why);
        } else if (r == TokenRole::AddressOf) {
            fail(i, "it takes an address");
        } else if (r == TokenRole::LambdaIntroducer) {
            fail(i, "it has a lambda");
        } else if (tokens_[i].isIdentifier() && tokens_[i].spelling.compare(0, 6, "atomic") == 0) {
            fail(i, "it uses atomics");
        }
    }

    // Why a call of `name` (the program's function) cannot be in the lane form, or "": per
    // lane (lane_call), a function may take pointers (each lane's call stores what its thread's
    // would, in lane order) but no reference it could assign through (the lane's argument is a
    // copy); called once for a block, with uniform arguments, only values.
    std::string programFunctionProblem(const std::string& name, bool perLane) const {
        auto found = programFunctions_.find(name);
        if (found == programFunctions_.end()) return "which may act for each thread";
        // Its checked accesses would report as the block's current thread, not the lane's.
        if (validated_) return "a function of the program, whose accesses shader validation checks per thread";
        for (const FunctionDecl* g : found->second) {
            for (std::size_t i = g->parametersOpen + 1; i < g->parametersClose; ++i) {
                if (tokens_[i].isPunct("&") || tokens_[i].isPunct("&&")) {
                    bool isConst = false;
                    for (std::size_t j = i; j > g->parametersOpen && !tokens_[j - 1].isPunct(","); --j)
                        if (tokens_[j - 1].isIdentifier("const")) isConst = true;
                    if (!isConst) return "which takes a reference it may assign through";
                }
                if (!perLane && tokens_[i].isPunct("*"))
                    return "which takes a pointer, with the same arguments in every thread (it would act once, not "
                           "for each thread)";
            }
        }
        return "";
    }

    void simple(const Statement& st) {
        const std::size_t begin = st.keyword, end = st.tokens.end - 1;
        if (auto d = parseDeclaration(tokens_, partner_, st)) return declaration(st, *d, end);
        const std::size_t op = assignmentIn(begin, end);
        if (op == kNoToken) {
            if (perThread({begin, end})) return void(fail(begin, "an expression statement of per-thread values that stores nothing"));
            for (std::size_t i = begin; i < end; ++i) checkUniformToken(i);
            copy(begin, st.tokens.end);
            text(" ");
            return;
        }
        // A local: assigned as its kind says.
        if (op == begin + 1 && tokens_[begin].isIdentifier()) {
            auto local = locals_.find(tokens_[begin].spelling);
            if (local == locals_.end()) return void(fail(begin, "it assigns '" + tokens_[begin].spelling + "', which its body does not declare"));
            if (!local->second.perThread) {
                for (std::size_t i = begin; i < end; ++i) checkUniformToken(i);
                copy(begin, st.tokens.end);
                text(" ");
                return;
            }
            if (!mask_.empty()) {
                // In the lanes of the mask: `v op= e` as `v = v op (e)`, blended.
                const std::string& name = tokens_[begin].spelling;
                const std::string spelled = tokens_[op].spelling;
                text(std::string(kLane) + "lane_set(" + name + ", ");
                if (!tokens_[op].isPunct("=")) text(name + " " + spelled.substr(0, spelled.size() - 1) + " (");
                expression(op + 1, end, false);
                if (!tokens_[op].isPunct("=")) text(")");
                text(", " + mask_ + "); ");
            } else if (tokens_[op].isPunct("=")) {
                text(std::string(kLane) + "lane_set(" + tokens_[begin].spelling + ", ");
                expression(op + 1, end, false);
                text("); ");
            } else {
                copy(begin, op + 1);
                text(" ");
                expression(op + 1, end, false);
                text("; ");
            }
            return;
        }
        // A column of a per-thread matrix, `m[c] = v` with a uniform c.
        if (tokens_[begin].isIdentifier() && tokens_[begin + 1].isPunct("[") && partner_[begin + 1] + 1 == op) {
            auto local = locals_.find(tokens_[begin].spelling);
            if (local != locals_.end()) {
                if (!isMatrixType(local->second.typeName) || perThread({begin + 2, op - 1}) || !mask_.empty())
                    return void(fail(begin, "it assigns an element of per-thread '" + tokens_[begin].spelling + "'" +
                                                (mask_.empty() ? "" : " under a per-thread condition")));
                copy(begin, op + 1);
                text(" ");
                expression(op + 1, end, false);
                text("; ");
                return;
            }
        }
        store(begin, op, end);
    }

    // `*address = v`, `p[i] = v` and their compound forms: a lane store.
    void store(std::size_t begin, std::size_t op, std::size_t end) {
        if (!perThread({begin, op}))
            return void(fail(begin, "it stores through an address every thread shares"));
        if (validated_ && !tokens_[op].isPunct("="))
            return void(fail(op, "a compound assignment through a pointer, which shader validation checks as one access"));
        std::vector<LaneSegment> address;
        std::swap(address, body_.segments);
        if (!addressOf(begin, op)) return;
        std::swap(address, body_.segments);
        const auto addressText = [&] { body_.segments.insert(body_.segments.end(), address.begin(), address.end()); };
        if (validated_) {
            // `*x = v` and `p[i] = v`: the site is in the lvalue's last token (the operand's
            // or the `]`), the pointer's own edit in `x`'s last token or in `p`.
            const bool dereference = unit_.role(begin) == TokenRole::Dereference;
            checkedAccess(dereference ? begin : begin + 1, dereference ? op - 1 : begin, op - 1);
            text(std::string(kLane) + rangedCall("lane_checked_store", dereference ? kNoToken : begin + 1));
            addressText();
            text(", ");
            siteOf(op - 1);
            text(", ");
            expression(op + 1, end, false);
            text("); ");
            return;
        }
        text(std::string(kLane) + "lane_store(");
        addressText();
        text(", ");
        if (!tokens_[op].isPunct("=")) {
            const std::string spelled = tokens_[op].spelling;
            text(std::string(kLane) + "lane_load(");
            addressText();
            text(loadClose() + " " + spelled.substr(0, spelled.size() - 1) + " (");
            expression(op + 1, end, false);
            text(")");
        } else {
            expression(op + 1, end, false);
        }
        text(mask_.empty() ? "); " : ", " + mask_ + "); ");
    }

    // The address a stored-to lvalue `[begin, end)` names: `*x` gives x, `p[i]` gives (p) + (i).
    bool addressOf(std::size_t begin, std::size_t end) {
        if (unit_.role(begin) == TokenRole::Dereference) {
            expression(begin + 1, end, false);
            return !failed_;
        }
        if (tokens_[begin].isIdentifier() && tokens_[begin + 1].isPunct("[") && partner_[begin + 1] + 1 == end &&
            isPointerParameter(begin)) {
            text("(");
            copy(begin, begin + 1);
            text(") + (");
            expression(begin + 2, end - 1, false);
            text(")");
            return !failed_;
        }
        return fail(begin, "it stores to a place the lane form cannot address");
    }

    bool isPointerParameter(std::size_t i) const {
        if (locals_.count(tokens_[i].spelling) || uniformLocals_.count(tokens_[i].spelling)) return false;
        const ParamInfo* p = parameterNamed(params_, tokens_[i].spelling);
        return p && p->kind == ParamKind::Buffer && !p->isReference;
    }

    void declaration(const Statement& st, const Declaration& d, std::size_t end) {
        const std::string& name = tokens_[d.names.front()].spelling;
        const Local& local = locals_.at(name);
        if (!local.perThread) {
            for (std::size_t i = st.keyword; i < end; ++i) checkUniformToken(i);
            copy(st.keyword, st.tokens.end);
            text(" ");
            return;
        }
        for (std::size_t i = st.keyword; i < end && !failed_; ++i) checkUniformToken(i);
        if (failed_) return;
        if (d.names.size() != 1) return void(fail(d.names.front(), "it declares per-thread '" + name + "' beside others"));
        if (!isLaneType(local.typeName))
            return void(fail(d.names.front(), "per-thread '" + name + "' has a type lanes do not hold (" + local.typeName + ")"));
        const DeclaratorParts parts = declaratorParts(tokens_, partner_, d, 0, end);
        const bool isConst = tokens_[local.type.begin].isIdentifier("const");
        std::size_t typeBegin = local.type.begin + (isConst ? 1 : 0);
        const std::string varying = std::string(kLane) + "varying<" + local.typeName + ", " + lanes_ + ">";
        if (parts.initializer.empty()) {
            text(varying + " " + name + "; ");
            return;
        }
        const TokenRange value = initializerValue(parts.initializer);
        if (tokens_[parts.initializer.begin].isPunct("{"))
            return void(fail(parts.initializer.begin, "per-thread '" + name + "' has a braced initializer"));
        const bool constructed = tokens_[parts.initializer.begin].isPunct("(");
        if (constructed && perThread(value)) {
            // `float4x4 m(c0, c1, c2, c3)` with per-thread columns: the lane matrix's columns.
            if (!isMatrixType(local.typeName) || commas(value) + 1 != std::size_t(local.typeName[5] - '0'))
                return void(fail(parts.initializer.begin, "per-thread '" + name + "' is constructed from other than its columns"));
            text(varying + " " + name + "(");
            expression(value.begin, value.end, false);
            text("); ");
            return;
        }
        const auto valueText = [&] {
            if (constructed) {
                copy(typeBegin, local.type.end);
                text("(");
            }
            expression(value.begin, value.end, false);
            if (constructed) text(")");
        };
        const std::string type = "__mc_lt_" + name;
        if (local.assignedLater) {
            text("using " + type + " = " + varying + "; ");
        } else {
            text("using " + type + " = " + std::string(kLane) + "lane_local<" + local.typeName + ", " + lanes_ + ", decltype((");
            valueText();
            text("))>; ");
        }
        text(std::string(isConst ? "const " : "") + type + " " + name + " = " + std::string(kLane) + "lane_as<" + type + ">(");
        valueText();
        text("); ");
    }

    // --- the validated flavour: the checked lane form (metalcpu/lane_checked.h) ---

    /// A per-thread access the lane form checks itself: the access's operator token
    /// (`*` or `[`), the token holding the checked-accesses pass's edit of the pointer (left
    /// out), and the token holding its site.
    void checkedAccess(std::size_t access, std::size_t bare, std::size_t site) {
        checkedAccesses_.insert(access);
        body_.bareTokens.insert(bare);
        body_.bareTokens.insert(site);
    }
    void siteOf(std::size_t token) { body_.segments.push_back({"", {token, token + 1}, true}); }
    /// loop_ranges.h's rangePrecheck() in the lane form: each index as the loop's body writes it,
    /// of rows of lanes where it differs between threads (`v.x` of a per-thread vector is
    /// `v.component(0)`), for checked.h's range_inside() to check every lane.
    void rangePrecheck(const RangedLoop& loop) {
        for (std::size_t open : loop.accesses) {
            if (open != loop.accesses.front()) text(" & ");
            text(std::string(kLane) + "range_inside<" + loop.type + ">((");
            copy(loop.first.begin, loop.first.end);
            text("), (");
            copy(loop.bound.begin, loop.bound.end);
            text("), " + tokens_[open - 1].spelling + ", [&](" + loop.type + " " + loop.counter + ") { return (");
            expression(open + 1, partner_[open], false);
            text("); })");
        }
    }
    /// The opening of checked call `name` for the access whose `[` is `open`: `name(__mc_wi, `,
    /// or `name_in(flag, __mc_wi, ` in a loop whose range was checked before it.
    std::string rangedCall(const std::string& name, std::size_t open) const {
        auto ranged = rangedAccesses_.find(open);
        return ranged == rangedAccesses_.end() ? name + "(__mc_wi, " : name + "_in(" + ranged->second + ", __mc_wi, ";
    }

    /// Every other access of the body is uniform, copied as the validated flavour wrote it:
    /// `p[i]` and `*p` become accesses the block's lanes share; what the lane form does not
    /// check as the scalar form does is refused.
    void uniformAccesses() {
        for (std::size_t i = f_.bodyOpen + 1; i < f_.bodyClose && !failed_; ++i) {
            if (tokens_[i].isPunct("->")) return void(fail(i, "it accesses a member through '->' under shader validation"));
            const TokenRole r = unit_.role(i);
            if (checkedAccesses_.count(i)) continue;
            if (r == TokenRole::Dereference) {
                body_.uniformAccesses.insert(i);
            } else if (r == TokenRole::Subscript) {
                if (tokens_[partner_[i] + 1].isPunct("."))
                    return void(fail(i, "it accesses a member of an element under shader validation"));
                if (!tokens_[i - 1].isIdentifier())
                    return void(fail(i, "it indexes what the checked lane form cannot name"));
                auto local = locals_.find(tokens_[i - 1].spelling);
                if (local == locals_.end() || !local->second.perThread) {
                    body_.uniformAccesses.insert(i - 1);
                    if (auto ranged = rangedAccesses_.find(i); ranged != rangedAccesses_.end())
                        body_.rangedUniformAccesses[i - 1] = ranged->second;
                }
            }
        }
    }

    std::size_t commas(TokenRange r) const {
        std::size_t n = 0;
        for (std::size_t i = r.begin; i < r.end; ++i) {
            if (isOpenBracket(i)) i = partner_[i];
            else if (tokens_[i].isPunct(",")) ++n;
        }
        return n;
    }

    // An expression, per-thread parts written through lane_statements.h. `conditions`: the
    // bounds test, whose comparisons and logical operators per-thread values may meet.
    void expression(std::size_t begin, std::size_t end, bool conditions) {
        if (!perThread({begin, end})) {
            for (std::size_t i = begin; i < end; ++i) checkUniformToken(i);
            copy(begin, end);
            return;
        }
        std::size_t run = begin; // start of tokens copied as they are
        const auto flush = [&](std::size_t to) {
            copy(run, to);
            if (run < to) text(" ");
        };
        for (std::size_t i = begin; i < end && !failed_; ++i) {
            const Token& t = tokens_[i];
            const TokenRole r = unit_.role(i);
            checkUniformToken(i);
            if (failed_) return;
            if (t.isPunct("?")) return void(fail(i, "a conditional expression of per-thread values"));
            if (t.isPunct(">") && tokens_[i + 1].isPunct(">")) { // a shift, lexed as two `>`
                ++i;
                continue;
            }
            if (!conditions && (t.isPunct("<") || t.isPunct(">") || t.isPunct("<=") || t.isPunct(">=") || t.isPunct("==") ||
                                t.isPunct("!=") || t.isPunct("&&") || t.isPunct("||") || t.isPunct("!")))
                return void(fail(i, "it compares per-thread values outside a leading bounds test"));
            if (r == TokenRole::Increment) return void(fail(i, "it increments a value in a per-thread expression"));
            if (r == TokenRole::Assignment || r == TokenRole::CompoundAssignment)
                return void(fail(i, "an assignment inside a per-thread expression"));
            // A component of a per-thread vector: `v.x` is v.component(0), and so is that of a
            // load or call the lane form just wrote (`x[gid].y`: `run` is at the `.`).
            const bool laneOperand = i > begin && (isPerThreadVectorLocal(i - 1) ||
                                                   (run == i && (tokens_[i - 1].isPunct("]") || tokens_[i - 1].isPunct(")"))));
            if (t.isPunct(".") && laneOperand && i + 1 < end && !tokens_[i + 2].isPunct("(")) {
                const int k = componentIndex(tokens_[i + 1].spelling);
                if (k < 0) return void(fail(i, "it takes a member of a per-thread value other than one component"));
                flush(i);
                text(".component(" + std::to_string(k) + ")");
                run = i + 2;
                ++i;
                continue;
            }
            // A call, or a functional conversion `float(x)` (whose `(` is not a call's).
            if ((r == TokenRole::CallOpen || (t.isPunct("(") && i > begin && isLaneType(tokens_[i - 1].spelling))) &&
                i > begin && perThread({i + 1, partner_[i]})) {
                if (!laneCall(i, end, run)) return;
                i = partner_[i];
                continue;
            }
            if ((t.isPunct(".") || t.isPunct("->")) && !(i > begin && rowBuiltin(i - 1)) &&
                !(i > begin && tokens_[i - 1].isIdentifier() && !perThread({i - 1, i})))
                return void(fail(i, "it takes a member of a per-thread value"));
            if (r == TokenRole::CastOpen) {
                const std::size_t close = partner_[i];
                const std::size_t operandEnd = operandAfter(close + 1, end);
                if (!perThread({close + 1, operandEnd})) continue;
                if (!tokens_[close - 1].isPunct("*")) return void(fail(i, "it converts a per-thread value with a cast"));
                flush(i);
                text(std::string(kLane) + "lane_cast<");
                copy(i + 1, close);
                text(">(");
                expression(close + 1, operandEnd, false);
                text(")");
                run = operandEnd;
                i = operandEnd - 1;
                continue;
            }
            if (r == TokenRole::Dereference) {
                const std::size_t operandEnd = operandAfter(i + 1, end);
                if (!perThread({i + 1, operandEnd})) {
                    i = operandEnd - 1;
                    continue;
                }
                flush(i);
                if (validated_) {
                    checkedAccess(i, operandEnd - 1, operandEnd - 1);
                    text(std::string(kLane) + "lane_checked_load(__mc_wi, ");
                    expression(i + 1, operandEnd, false);
                    text(", ");
                    siteOf(operandEnd - 1);
                    text(")");
                } else {
                    text(std::string(kLane) + "lane_load(");
                    expression(i + 1, operandEnd, false);
                    text(loadClose());
                }
                run = operandEnd;
                i = operandEnd - 1;
                continue;
            }
            if (r == TokenRole::Subscript) {
                const std::size_t close = partner_[i];
                const bool indexPerThread = perThread({i + 1, close});
                if (i > begin && tokens_[i - 1].isIdentifier() && isPointerParameter(i - 1)) {
                    if (!indexPerThread) {
                        i = close;
                        continue;
                    }
                    flush(i - 1);
                    if (validated_) checkedAccess(i, i - 1, close);
                    text(std::string(kLane) + (validated_ ? rangedCall("lane_checked_load", i) + "(" : "lane_load(("));
                    copy(i - 1, i);
                    text(") + (");
                    expression(i + 1, close, false);
                    text(")");
                    if (validated_) {
                        text(", ");
                        siteOf(close);
                    }
                    text(loadClose());
                    run = close + 1;
                    i = close;
                    continue;
                }
                auto local = i > begin ? locals_.find(tokens_[i - 1].spelling) : locals_.end();
                if (local == locals_.end() || indexPerThread || (local->second.perThread && !isMatrixType(local->second.typeName)))
                    return void(fail(i, "it indexes what the lane form cannot index per thread"));
                i = close;
                continue;
            }
            if (t.isIdentifier() && unit_.isUnqualifiedName(i) && rowBuiltin(i) && !tokens_[i + 1].isPunct("."))
                if (parameterNamed(params_, t.spelling)->builtin != Builtin::ThreadIndexInThreadgroup &&
                    !isScalarBuiltin(i))
                    return void(fail(i, "it uses per-thread builtin '" + t.spelling + "' as a whole vector"));
        }
        flush(end);
    }

    // `f(args)` (the `(` at `open`) with per-thread arguments: a scalar conversion `float(x)`
    // as the lanes' conversion, anything else called for each lane (lane_call). `run` is the
    // caller's start of tokens not yet copied, which the callee's tokens follow.
    bool laneCall(std::size_t open, std::size_t end, std::size_t& run) {
        const std::size_t close = partner_[open];
        std::size_t calleeBegin = open - 1;
        if (!tokens_[calleeBegin].isIdentifier()) return fail(open, "it calls what the lane form cannot call for each lane");
        while (calleeBegin >= 2 && tokens_[calleeBegin - 1].isPunct("::") && tokens_[calleeBegin - 2].isIdentifier())
            calleeBegin -= 2;
        if (calleeBegin > 0 && tokens_[calleeBegin - 1].isPunct("::")) --calleeBegin;
        if (calleeBegin < run || close >= end) return fail(open, "it calls what the lane form cannot call for each lane");
        copy(run, calleeBegin);
        if (run < calleeBegin) text(" ");
        std::vector<TokenRange> arguments;
        for (std::size_t a = open + 1, i = open + 1; i <= close; ++i) {
            if (i < close && isOpenBracket(i)) {
                i = partner_[i];
            } else if (i == close || tokens_[i].isPunct(",")) {
                arguments.push_back({a, i});
                a = i + 1;
            }
        }
        const std::string& callee = tokens_[open - 1].spelling;
        if (isMatrixType(callee)) return fail(open - 1, "it constructs a matrix of per-thread values in an expression");
        const bool conversion = calleeBegin == open - 1 && isLaneType(callee) && !std::isdigit(static_cast<unsigned char>(callee.back())) &&
                                arguments.size() == 1;
        if (conversion) {
            text(std::string(kLane) + "lane_as<" + std::string(kLane) + "varying<" + callee + ", " + lanes_ + ">>(");
        } else {
            text(std::string(kLane) + "lane_call<" + lanes_ + ">(" +
                 (mask_.empty() ? std::string(kLane) + "lane_every{}" : mask_) +
                 ", [&](const auto&... __mc_a) { return ");
            copy(calleeBegin, open);
            text("(__mc_a...); }");
        }
        for (std::size_t k = 0; k < arguments.size() && !failed_; ++k) {
            if (!conversion || k > 0) text(", ");
            expression(arguments[k].begin, arguments[k].end, false);
        }
        text(")");
        run = close + 1;
        return !failed_;
    }

    bool isPerThreadVectorLocal(std::size_t i) const {
        if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i)) return false;
        auto l = locals_.find(tokens_[i].spelling);
        return l != locals_.end() && l->second.perThread && !isMatrixType(l->second.typeName) &&
               std::isdigit(static_cast<unsigned char>(l->second.typeName.back()));
    }
    static int componentIndex(const std::string& m) {
        static const std::string xyzw = "xyzw", rgba = "rgba";
        if (m.size() != 1) return -1;
        if (xyzw.find(m[0]) != std::string::npos) return int(xyzw.find(m[0]));
        if (rgba.find(m[0]) != std::string::npos) return int(rgba.find(m[0]));
        return -1;
    }

    bool isScalarBuiltin(std::size_t i) const {
        const ParamInfo* p = parameterNamed(params_, tokens_[i].spelling);
        const std::string& type = p->typeText;
        return !type.empty() && !std::isdigit(static_cast<unsigned char>(type.back()));
    }

    // The end of the unary operand starting at `i`: a parenthesised expression, optionally
    // followed by another (a cast and its operand), or a name with its postfix operators.
    std::size_t operandAfter(std::size_t i, std::size_t end) const {
        if (i >= end) return end;
        if (tokens_[i].isPunct("(")) {
            std::size_t next = partner_[i] + 1;
            if (unit_.role(i) == TokenRole::CastOpen) return operandAfter(next, end);
            return next;
        }
        if (unit_.role(i) == TokenRole::Dereference) return operandAfter(i + 1, end);
        std::size_t j = i + 1;
        while (j < end) {
            if (tokens_[j].isPunct("[") || tokens_[j].isPunct("(")) {
                j = partner_[j] + 1;
            } else if ((tokens_[j].isPunct(".") || tokens_[j].isPunct("->")) && j + 1 < end) {
                j += 2;
            } else {
                break;
            }
        }
        return j;
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const FunctionDecl& f_;
    const std::vector<ParamInfo>& params_;
    const std::string lanes_;
    const bool validated_;
    LaneBody body_;
    std::set<std::size_t> checkedAccesses_; ///< validated: per-thread accesses' `*` and `[`
    std::map<std::size_t, std::string> rangedAccesses_; ///< validated: the `[` of accesses checked before their loop, and its flag
    std::map<std::string, Local> locals_;
    std::set<std::string> uniformLocals_; ///< declared in loop headers
    std::set<std::string> declared_;      ///< builtins given their lane values
    std::size_t leadingTest_ = ~std::size_t(0);
    std::map<std::string, std::vector<const FunctionDecl*>> programFunctions_;
    std::vector<TokenRange> conditions_; ///< while collecting: the headers of the enclosing ifs
    std::string mask_;                   ///< while writing: the current lane mask's name, "" for every lane
    unsigned masks_ = 0;                 ///< masks named so far
    std::vector<std::string> loopMasks_; ///< the mask at each enclosing loop
    bool jumpsToScalar_ = false;
    bool failed_ = false;
    std::size_t where_ = kNoToken;
    std::string why_;
};

} // namespace

std::vector<LaneBody> planLaneBodies(const Unit& unit, const std::vector<WorkItemKernel>& kernels,
                                     const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                     const TranslateOptions& options, std::vector<WorkItemRefusal>& refusals) {
    std::vector<LaneBody> out;
    static const std::vector<ParamInfo> kNoParameters;
    for (const WorkItemKernel& k : kernels) {
        if (!k.interleaved) continue;
        const std::size_t nameToken = unit.module().functions[k.function].nameToken;
        if (!options.laneVectors) {
            refusals.push_back({k.function, nameToken, "vector lanes are turned off (METALCPU_LANE_VECTORS=0)"});
            continue;
        }
        if (k.lanes < 2 || (k.lanes & (k.lanes - 1)) != 0) {
            refusals.push_back({k.function, nameToken, "its blocks of " + std::to_string(k.lanes) + " threads are not a power of two lanes"});
            continue;
        }
        const std::vector<Statement>* body = unit.body(k.function);
        if (!body) continue;
        auto params = parameters.find(k.function);
        LanePlanner planner(unit, k.function, params == parameters.end() ? kNoParameters : params->second, k.lanes, options.validation);
        LaneBody planned;
        WorkItemRefusal refusal;
        if (planner.plan(*body, planned, refusal))
            out.push_back(std::move(planned));
        else
            refusals.push_back(refusal);
    }
    return out;
}

namespace {

/// A segment's tokens in the validated flavour: bare tokens without the checked-accesses
/// pass's prefix and suffix, uniform accesses' `load(` made the lanes' (lane_checked.h), a
/// site segment the site named in its token.
std::string checkedSegmentText(const TokenList& tokens, const LaneBody& b, const LaneSegment& s) {
    static const std::regex site(R"((::__mc_sites|__mc_local_sites)\[[0-9]+\])");
    if (s.site) {
        const Token& t = tokens[s.copy.begin];
        std::smatch m;
        const std::string written = t.prefix + t.text + t.suffix;
        return std::regex_search(written, m, site) ? m.str() : "::metalcpu_kernel::kUnknownSite";
    }
    std::string out;
    for (std::size_t i = s.copy.begin; i < s.copy.end && i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        std::string piece = b.bareTokens.count(i) ? (t.erased ? std::string() : t.text)
                                                  : t.prefix + (t.erased ? std::string() : t.text) + t.suffix;
        if (b.uniformAccesses.count(i)) {
            static const std::string load = "::metalcpu_kernel::load(";
            auto ranged = b.rangedUniformAccesses.find(i);
            if (const std::size_t at = piece.find(load); at != std::string::npos)
                piece.replace(at, load.size(),
                              ranged == b.rangedUniformAccesses.end()
                                  ? "::metalcpu_kernel::lane_uniform_load(__mc_wi, "
                                  : "::metalcpu_kernel::lane_uniform_load_in(" + ranged->second + ", __mc_wi, ");
        }
        if (piece.empty()) continue;
        if (!out.empty() && t.spaceBefore && out.back() != ' ') out += ' ';
        out += piece;
    }
    return out;
}

} // namespace

std::string laneBodyText(const PassContext& context, const WorkItemKernel& k) {
    for (const LaneBody& b : context.findings.laneBodies) {
        if (b.function != k.function) continue;
        std::string text = b.validated ? " if (::metalcpu_kernel::lane_whole_row_checked(__mc_wi)) { "
                                       : " if (::metalcpu_kernel::lane_whole_row(__mc_wi)) { ";
        for (const LaneSegment& s : b.segments)
            text += s.copy.empty() ? s.text
                    : b.validated  ? checkedSegmentText(context.edits.tokens(), b, s)
                                   : outputText(context.edits.tokens(), s.copy.begin, s.copy.end);
        return text;
    }
    return "";
}

} // namespace metalcpu::msl
