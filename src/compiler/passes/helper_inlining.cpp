#include "compiler/passes/helper_inlining.h"

#include "compiler/call_graph.h"
#include "compiler/passes/collective_hoisting.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace metalcpu::msl {

namespace {

/// How many rounds of inlining run at most: a helper nested this deep stays a call.
constexpr int kMaxRounds = 6;
/// How many collectives of one statement are hoisted at most.
constexpr int kMaxHoistingRounds = 4;

/// A helper's parameter, as the inlined block declares or substitutes it.
struct HelperParameter {
    TokenRange tokens;                ///< the whole parameter, attributes excluded below
    std::size_t name = kNoToken;      ///< its declarator
    bool reference = false;           ///< `&` or `&&` in its declarator
    std::size_t firstBound = kNoToken; ///< the `[` of an array parameter (it is a pointer)
    bool pointer = false;             ///< a pointer: `*` in its declarator, or an array
    TokenRange defaultValue;          ///< after its `=`, or empty
};

/// One template parameter of a helper's own header.
struct HelperTemplateParameter {
    std::string name;
    bool isType = false;
    TokenRange defaultValue;
};

/// A call statement to replace.
struct Site {
    std::size_t kernel = 0;
    std::size_t helper = 0;
    TokenRange statement;           ///< the whole statement, `;` included
    std::size_t keyword = 0;        ///< the statement's first token after its pragmas and attributes
    std::size_t callee = 0;         ///< the helper's name at the call
    TokenRange templateArguments;   ///< inside `<...>`, or empty
    bool hasTemplateArguments = false;
    std::size_t open = 0;           ///< the call's `(`
    enum class Form { Call, Assign, Declare } form = Form::Call;
    std::size_t assignment = kNoToken; ///< the `=` (or compound operator) of Assign and Declare
};

class Round {
public:
    Round(const Unit& unit, const CallGraph& graph, std::set<std::string>& usedNames,
          std::vector<InliningRefusal>& refusals)
        : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), module_(unit.module()), graph_(graph),
          usedNames_(usedNames), refusals_(refusals) {}

    /// The new token list, or nothing when no call was inlined.
    std::optional<TokenList> run() {
        for (std::size_t k = 0; k < module_.functions.size(); ++k) {
            const FunctionDecl& f = module_.functions[k];
            if (!f.isKernel || !f.hasBody) continue;
            const std::vector<Statement>* body = unit_.body(k);
            if (!body) continue;
            kernelNames_ = declaredNames(f.parametersOpen, f.bodyClose);
            for (const std::string& n : f.templateTypeParameters) kernelNames_.insert(n);
            for (const std::string& n : f.templateValueParameters) kernelNames_.insert(n);
            unchangedParameters_[k] = unchangedParameters(f);
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

private:
    // -- What the kernel and the helper declare ------------------------------------------------

    std::set<std::string> declaredNames(std::size_t begin, std::size_t end) const {
        std::set<std::string> names;
        for (std::size_t i = begin; i < end; ++i)
            if (unit_.role(i) == TokenRole::Declarator) names.insert(tokens_[i].spelling);
        return names;
    }

    /// The spellings of tokens [begin, end), attributes and `const` left out, one space apart.
    std::string typeText(const TokenList& tokens, std::size_t begin, std::size_t end,
                         const std::vector<bool>* attribute) const {
        std::string text;
        for (std::size_t i = begin; i < end; ++i) {
            if ((attribute && (*attribute)[i - begin]) || tokens[i].isIdentifier("const")) continue;
            text += tokens[i].spelling + " ";
        }
        return text;
    }

    /// Whether the name at `i` (in a kernel's body) may be changed there: it is assigned,
    /// incremented or its address taken, or it is a whole argument of a call that may bind it to
    /// a reference (any call but of the file's functions without reference parameters). With
    /// `throughAlias`, only the last two: what lets other code change it later.
    bool mayChange(std::size_t i, bool throughAlias = false) const {
        const UseKind use = unit_.useOf(i, i, ObjectParts::All).kind;
        if (throughAlias ? use == UseKind::AddressTaken : use != UseKind::Read) return true;
        const Token& before = tokens_[i - 1];
        const Token& after = tokens_[i + 1];
        if (!(before.isPunct("(") || before.isPunct(",")) || !(after.isPunct(")") || after.isPunct(",")))
            return false;
        // The bracket around the argument.
        std::size_t open = i - 1;
        while (open > 0 && !(partner_[open] != kNoToken && partner_[open] > i)) {
            if (partner_[open] != kNoToken && partner_[open] < open) open = partner_[open];
            --open;
        }
        if (unit_.role(open) != TokenRole::CallOpen) return false; // grouping, a cast, an initializer list
        std::size_t callee = open - 1;
        if (tokens_[callee].isPunct(">")) {
            const std::size_t angle = openingAngle(tokens_, partner_, callee, 0);
            if (angle == kNoToken || angle == 0) return true;
            callee = angle - 1;
        }
        const auto functions = graph_.byName.find(tokens_[callee].spelling);
        if (functions == graph_.byName.end()) return true;
        // Which argument it is; each function of that name must take that one by value.
        std::size_t index = 0;
        for (const TokenRange& a : splitAtCommas(open + 1, partner_[open])) {
            if (a.begin <= i && i < a.end) break;
            ++index;
        }
        for (std::size_t f : functions->second) {
            const FunctionDecl& d = module_.functions[f];
            const std::vector<TokenRange> params = splitAtCommas(d.parametersOpen + 1, d.parametersClose);
            if (index >= params.size()) return true;
            for (std::size_t j = params[index].begin; j < params[index].end; ++j)
                if (tokens_[j].isPunct("&") || tokens_[j].isPunct("&&") || tokens_[j].isPunct("...")) return true;
        }
        return false;
    }

    /// The parameters of kernel `k` that its body never changes (mayChange()), with their types.
    std::map<std::string, std::string> unchangedParameters(const FunctionDecl& k) const {
        std::map<std::string, std::string> out;
        std::size_t start = k.parametersOpen + 1;
        for (std::size_t i = k.parametersOpen + 1; i < k.parametersClose; ++i) {
            if (tokens_[i].isPunct(",") && unit_.role(i) != TokenRole::Attribute) start = i + 1;
            if (unit_.role(i) != TokenRole::Declarator) continue;
            std::vector<bool> attribute;
            for (std::size_t j = start; j < i; ++j) attribute.push_back(unit_.role(j) == TokenRole::Attribute);
            out[tokens_[i].spelling] = typeText(tokens_, start, i, &attribute);
        }
        for (std::size_t i = k.bodyOpen + 1; i < k.bodyClose; ++i)
            if (tokens_[i].isIdentifier() && out.count(tokens_[i].spelling) && unit_.isUnqualifiedName(i) && mayChange(i))
                out.erase(tokens_[i].spelling);
        return out;
    }

    /// Tokens [begin, end) split at the commas outside brackets and template argument lists.
    std::vector<TokenRange> splitAtCommas(std::size_t begin, std::size_t end) const {
        std::vector<TokenRange> parts;
        std::size_t start = begin;
        for (std::size_t i = begin; i < end; ++i) {
            const Token& t = tokens_[i];
            if (partner_[i] != kNoToken && partner_[i] > i) {
                i = partner_[i];
            } else if (t.isPunct("<") && opensTemplateArguments(tokens_, i)) {
                const std::size_t close = closingAngle(tokens_, partner_, i, end);
                if (close != kNoToken) i = close;
            } else if (t.isPunct(",")) {
                parts.push_back({start, i});
                start = i + 1;
            }
        }
        if (start < end || !parts.empty()) parts.push_back({start, end});
        return parts;
    }

    std::optional<std::vector<HelperTemplateParameter>> templateParameters(const FunctionDecl& f) const {
        std::vector<HelperTemplateParameter> out;
        if (!f.isTemplate) return out;
        for (TokenRange r : splitAtCommas(f.templateParameters.begin, f.templateParameters.end)) {
            if (r.empty()) return std::nullopt;
            HelperTemplateParameter p;
            std::size_t end = r.end;
            for (std::size_t i = r.begin; i < r.end; ++i) {
                if (tokens_[i].isPunct("...") || tokens_[i].isIdentifier("template")) return std::nullopt;
                if (tokens_[i].isPunct("=") && end == r.end) end = i;
            }
            if (end == r.begin || !tokens_[end - 1].isIdentifier()) return std::nullopt;
            p.name = tokens_[end - 1].spelling;
            p.isType = tokens_[r.begin].isIdentifier("typename") || tokens_[r.begin].isIdentifier("class");
            if (end - 1 == r.begin) return std::nullopt; // no kind written
            if (end < r.end) p.defaultValue = {end + 1, r.end};
            out.push_back(std::move(p));
        }
        return out;
    }

    std::optional<std::vector<HelperParameter>> parameters(const FunctionDecl& f) const {
        std::vector<HelperParameter> out;
        const std::vector<TokenRange> parts = splitAtCommas(f.parametersOpen + 1, f.parametersClose);
        if (parts.size() == 1 && parts[0].size() == 1 && tokens_[parts[0].begin].isIdentifier("void")) return out;
        for (TokenRange r : parts) {
            HelperParameter p;
            p.tokens = r;
            for (std::size_t i = r.begin; i < r.end; ++i) {
                if (unit_.role(i) == TokenRole::Attribute) continue;
                const Token& t = tokens_[i];
                if (t.isPunct("(") || t.isPunct("...")) return std::nullopt;
                if (unit_.role(i) == TokenRole::Declarator && p.name == kNoToken) p.name = i;
                if ((t.isPunct("&") || t.isPunct("&&")) && p.name == kNoToken && unit_.isDeclaratorOperator(i))
                    p.reference = true;
                if (t.isPunct("*") && p.name == kNoToken && unit_.isDeclaratorOperator(i)) p.pointer = true;
                if (t.isPunct("[") && p.name != kNoToken && p.firstBound == kNoToken &&
                    p.defaultValue.empty())
                    p.firstBound = i;
                if (t.isPunct("=") && p.name != kNoToken && p.defaultValue.empty()) p.defaultValue = {i + 1, r.end};
            }
            if (p.name == kNoToken) return std::nullopt;
            p.pointer = (p.pointer || p.firstBound != kNoToken) && !p.reference;
            out.push_back(p);
        }
        return out;
    }

    // -- Which calls are inlined ---------------------------------------------------------------

    void refuse(std::size_t kernel, std::size_t where, std::string reason) {
        const Location k = tokens_[module_.functions[kernel].nameToken].location;
        for (const InliningRefusal& r : refusals_)
            if (r.kernel == k) return; // the first reason per kernel is enough
        refusals_.push_back({k, tokens_[where].location, std::move(reason)});
    }

    bool synchronises(std::size_t f) const {
        for (std::size_t r : reachableFunctions(graph_, f))
            if (graph_.usesBarriersDirectly[r]) return true;
        return false;
    }

    bool reachesTensorOperation(std::size_t f) const {
        const bool namesOperations = namesOperationTypes(tokens_);
        for (std::size_t r : reachableFunctions(graph_, f)) {
            const FunctionDecl& d = module_.functions[r];
            if (d.hasBody && usesTensorOperation(tokens_, d.bodyOpen, d.bodyClose, namesOperations)) return true;
        }
        return false;
    }

    void findSites(std::size_t kernel, const std::vector<Statement>& statements, bool inBlock) {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Simple) {
                site(kernel, s, inBlock);
                continue;
            }
            findSites(kernel, s.children, s.kind == StatementKind::Compound);
        }
    }

    /// The call of a synchronising helper that statement `s` is, if any, and whether it can be
    /// inlined (a site) or not (a refusal).
    void site(std::size_t kernel, const Statement& s, bool inBlock) {
        const std::size_t semicolon = s.tokens.end - 1;
        // The callee: the first callee of the statement at its top level whose call ends just
        // before the `;`.
        std::size_t callee = kNoToken, open = kNoToken;
        for (std::size_t i = s.keyword; i < semicolon; ++i) {
            if ((unit_.role(i) == TokenRole::Callee || unit_.role(i) == TokenRole::Member) && tokens_[i].isIdentifier()) {
                const std::size_t o = unit_.callOpen(i);
                if (o != kNoToken && partner_[o] + 1 == semicolon) {
                    callee = i;
                    open = o;
                    break;
                }
            }
            if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i];
        }
        if (callee == kNoToken) return;
        const auto byName = graph_.byName.find(tokens_[callee].spelling);
        if (byName == graph_.byName.end() || isBarrierFunction(tokens_[callee].spelling)) return;
        bool any = false;
        for (std::size_t f : byName->second) any = any || synchronises(f);
        if (!any) return;
        // Tensor operations are never split into work-item loops (their cooperative tensors
        // have no per-piece copies): a helper that runs one stays a call.
        for (std::size_t f : byName->second)
            if (reachesTensorOperation(f)) return;
        const std::string name = "'" + tokens_[callee].spelling + "'";
        if (unit_.role(callee) == TokenRole::Member)
            return refuse(kernel, callee, name + " is called as a member function (only free functions are inlined)");
        if (!unit_.isUnqualifiedName(callee) || (callee > 0 && tokens_[callee - 1].isPunct("::")))
            return refuse(kernel, callee, "the call of " + name + " is qualified");
        if (byName->second.size() != 1)
            return refuse(kernel, callee, "more than one function is named " + name);
        const std::size_t helper = byName->second.front();
        const FunctionDecl& h = module_.functions[helper];
        const FunctionDecl& k = module_.functions[kernel];
        if (kernelNames_.count(tokens_[callee].spelling))
            return refuse(kernel, callee, "the kernel declares a name " + name + " itself");
        if (h.isKernel || !h.enclosingClass.empty())
            return refuse(kernel, callee, name + " is a kernel or a member function");
        if (isCollectiveHelper(unit_, graph_, helper)) return; // split at as it is
        if (h.namespaces != k.namespaces)
            return refuse(kernel, callee, name + " is defined in another namespace than the kernel");
        if (h.bodyClose > k.headerBegin) return refuse(kernel, callee, name + " is defined after the kernel");
        for (std::size_t c : graph_.callees[helper]) {
            const std::vector<std::size_t> reach = reachableFunctions(graph_, c);
            if (std::find(reach.begin(), reach.end(), helper) != reach.end())
                return refuse(kernel, callee, name + " may call itself");
        }
        if (graph_.callsOpaque[helper])
            return refuse(kernel, callee, name + " calls through a function pointer");

        Site site;
        site.kernel = kernel;
        site.helper = helper;
        site.statement = s.tokens;
        site.keyword = s.keyword;
        site.callee = callee;
        site.open = open;
        std::size_t afterName = callee + 1;
        if (afterName < open && tokens_[afterName].isPunct("<")) {
            const std::size_t close = closingAngle(tokens_, partner_, afterName, open);
            if (close == kNoToken || close + 1 != open)
                return refuse(kernel, callee, "the template arguments of the call of " + name + " are not read");
            site.hasTemplateArguments = true;
            site.templateArguments = {afterName + 1, close};
        } else if (afterName != open) {
            return;
        }
        // What comes before the callee: nothing, an assignment's left side, or a declaration.
        if (callee != s.keyword) {
            const std::size_t before = callee - 1;
            if (!inBlock || !unit_.isAssignmentOperator(before) ||
                (tokens_[before].isPunct(">") && before + 1 < callee)) // `>>=` is lexed `>` `>=`
                return refuse(kernel, callee, "the call of " + name + " is not a whole statement, an assignment's "
                                              "value or a declaration's initializer in a block");
            site.assignment = before;
            bool declaration = false, calls = false;
            for (std::size_t i = s.keyword; i < before; ++i) {
                declaration = declaration || unit_.role(i) == TokenRole::Declarator;
                calls = calls || unit_.role(i) == TokenRole::CallOpen || unit_.role(i) == TokenRole::Increment ||
                        unit_.isAssignmentOperator(i) || tokens_[i].isPunct(",");
            }
            if (calls)
                return refuse(kernel, callee, "the left side of the assignment of " + name + "'s value is not simple");
            if (declaration && !tokens_[before].isPunct("="))
                return refuse(kernel, callee, "the declaration initialised by " + name + " is not `T x = f(...)`");
            site.form = declaration ? Site::Form::Declare : Site::Form::Assign;
        }
        if (auto reason = helperObstacle(kernel, site)) return refuse(kernel, reason->first, reason->second);
        sites_.push_back(site);
    }

    /// The return type of `h`, without the specifiers and attributes before it.
    TokenRange returnType(const FunctionDecl& h) const {
        std::size_t b = h.declarationBegin;
        const std::size_t e = h.nameToken;
        while (b < e) {
            const Token& t = tokens_[b];
            if (unit_.role(b) == TokenRole::Attribute) {
                ++b;
            } else if (t.isIdentifier("__attribute__") && b + 1 < e && partner_[b + 1] != kNoToken) {
                b = partner_[b + 1] + 1;
            } else if (t.isIdentifier("inline") || t.isIdentifier("static") || t.isIdentifier("constexpr") ||
                       t.isIdentifier("__inline") || t.isIdentifier("__inline__") ||
                       t.isIdentifier("METAL_FUNC")) { // a macro when <metal_stdlib> is not expanded
                ++b;
            } else {
                break;
            }
        }
        return {b, e};
    }

    /// What in the helper keeps the call from being inlined: (where, why).
    std::optional<std::pair<std::size_t, std::string>> helperObstacle(std::size_t kernel, const Site& site) {
        const FunctionDecl& h = module_.functions[site.helper];
        const std::string name = "'" + h.name + "'";
        const std::size_t at = h.nameToken;
        const std::vector<Statement>* body = unit_.body(site.helper);
        if (!body) return std::pair{at, "the statements of " + name + " are not read"};
        const auto templ = templateParameters(h);
        if (!templ) return std::pair{at, "the template parameters of " + name + " are not read"};
        const std::size_t given = site.hasTemplateArguments
                                      ? splitAtCommas(site.templateArguments.begin, site.templateArguments.end).size()
                                      : 0;
        if (given > templ->size()) return std::pair{site.callee, "too many template arguments"};
        for (std::size_t i = given; i < templ->size(); ++i)
            if ((*templ)[i].defaultValue.empty())
                return std::pair{site.callee, "the call of " + name + " deduces its template arguments"};
        if (auto obstacle = typeArgumentObstacle(h, *templ, site)) return obstacle;
        const auto params = parameters(h);
        if (!params) return std::pair{at, "a parameter of " + name + " is unnamed, a pack or parenthesised"};
        const std::size_t args = splitAtCommas(site.open + 1, partner_[site.open]).size();
        if (args > params->size()) return std::pair{site.callee, "too many arguments"};
        for (std::size_t i = args; i < params->size(); ++i)
            if ((*params)[i].defaultValue.empty()) return std::pair{site.callee, "too few arguments"};
        const TokenRange ret = returnType(h);
        const bool isVoid = ret.size() == 1 && tokens_[ret.begin].isIdentifier("void");
        if (ret.empty()) return std::pair{at, "the return type of " + name + " is not read"};
        for (std::size_t i = ret.begin; i < ret.end; ++i)
            if (tokens_[i].isIdentifier("auto") || tokens_[i].isIdentifier("decltype") || tokens_[i].isPunct("&") ||
                tokens_[i].isPunct("&&"))
                return std::pair{at, name + " returns auto, decltype(...) or a reference"};
        if (isVoid && site.form != Site::Form::Call) return std::pair{site.callee, name + " returns void"};
        // Returns: only a last one.
        const Statement* last = body->empty() ? nullptr : &body->back();
        if (std::optional<std::size_t> early = earlyReturn(*body, last))
            return std::pair{*early, name + " returns before its end"};
        if (!isVoid && (!last || last->kind != StatementKind::Return || last->keyword + 2 >= last->tokens.end))
            return std::pair{at, name + " does not end with `return value;`"};
        for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i) {
            const Token& t = tokens_[i];
            if (t.isIdentifier("goto") || t.isIdentifier("__func__") || t.isIdentifier("this") ||
                t.isIdentifier("co_return") || t.isIdentifier("co_await"))
                return std::pair{i, name + " uses " + t.spelling};
        }
        if (!findStaticLocals(tokens_, partner_, {h.bodyOpen, h.bodyClose + 1}).empty())
            return std::pair{at, name + " has a static variable"};
        for (const NestedBody& n : findNestedBodies(unit_, site.helper))
            if (n.kind == NestedBody::Kind::LocalClass) return std::pair{n.tokens.begin, name + " defines a class"};
        if (hasLabel(*body)) return std::pair{at, name + " has a label"};
        if (std::optional<std::size_t> variable = threadgroupVariable(h))
            return std::pair{*variable, name + " declares a threadgroup variable (one per group, not per call)"};
        // Names: the helper's own are renamed or substituted; others must mean in the kernel
        // what they mean in the helper.
        std::set<std::string> own;
        for (const HelperTemplateParameter& p : *templ) own.insert(p.name);
        for (const HelperParameter& p : *params) own.insert(tokens_[p.name].spelling);
        std::map<std::string, std::size_t> locals; // spelling -> first declaration
        for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i)
            if (unit_.role(i) == TokenRole::Declarator) locals.emplace(tokens_[i].spelling, i);
        for (const auto& [local, declared] : locals)
            if (own.count(local)) return std::pair{declared, name + " declares '" + local + "' again"};
        for (std::size_t i = h.parametersOpen + 1; i < h.bodyClose; ++i) {
            if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling))
                continue;
            const std::string& s = tokens_[i].spelling;
            if (auto l = locals.find(s); l != locals.end()) {
                if (i < l->second || unit_.role(i) == TokenRole::Callee)
                    return std::pair{i, name + " uses '" + s + "' before declaring it, or calls it"};
            } else if (!own.count(s) && kernelNames_.count(s)) {
                return std::pair{i, name + " names '" + s + "', which the kernel declares too"};
            }
        }
        (void)kernel;
        return std::nullopt;
    }

    /// A type template argument written with `*` or `&` (`float*`, `constant kargs &`) that the
    /// helper qualifies (`const T x`, `T const`, `T::x`): pasted in as written, the qualifier
    /// would apply to the pointee instead of the pointer. (where, why), or nothing.
    std::optional<std::pair<std::size_t, std::string>> typeArgumentObstacle(
        const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ, const Site& site) const {
        const std::vector<TokenRange> given =
            site.hasTemplateArguments ? splitAtCommas(site.templateArguments.begin, site.templateArguments.end)
                                      : std::vector<TokenRange>{};
        for (std::size_t k = 0; k < templ.size() && k < given.size(); ++k) {
            if (!templ[k].isType) continue;
            bool indirect = false;
            for (std::size_t i = given[k].begin; i < given[k].end; ++i)
                indirect = indirect || tokens_[i].isPunct("*") || tokens_[i].isPunct("&") || tokens_[i].isPunct("&&");
            if (!indirect) continue;
            for (std::size_t i = h.parametersOpen + 1; i < h.bodyClose; ++i) {
                if (!tokens_[i].isIdentifier(templ[k].name) || !unit_.isUnqualifiedName(i)) continue;
                const Token& before = tokens_[i - 1];
                const Token& after = tokens_[i + 1];
                if (before.isIdentifier("const") || before.isIdentifier("volatile") || after.isIdentifier("const") ||
                    after.isIdentifier("volatile") || after.isPunct("::"))
                    return std::pair{i, "'" + h.name + "' qualifies '" + templ[k].name +
                                            "', whose argument is a pointer or reference"};
            }
        }
        return std::nullopt;
    }

    /// A return of `statements` (nested ones included) other than `last`.
    std::optional<std::size_t> earlyReturn(const std::vector<Statement>& statements, const Statement* last) const {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Return && &s != last) return s.keyword;
            if (auto r = earlyReturn(s.children, last)) return r;
        }
        return std::nullopt;
    }

    /// The `threadgroup` of a threadgroup variable declared in `h`'s body (not of a pointer or
    /// reference to threadgroup memory), if any.
    std::optional<std::size_t> threadgroupVariable(const FunctionDecl& h) const {
        for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i) {
            if (!tokens_[i].isIdentifier("threadgroup")) continue;
            bool indirect = false;
            for (std::size_t j = i + 1; j < h.bodyClose; ++j) {
                // `threadgroup __attribute__((aligned(16))) float t[16]`, `alignas(16)`.
                if (unit_.role(j) == TokenRole::Attribute) continue;
                if (tokens_[j].isIdentifier("alignas") && partner_[j + 1] != kNoToken) {
                    j = partner_[j + 1];
                    continue;
                }
                if (unit_.role(j) == TokenRole::Declarator) {
                    if (!indirect) return i;
                    break;
                }
                if (tokens_[j].isPunct(";") || tokens_[j].isPunct("(") || tokens_[j].isPunct(")")) break;
                indirect = indirect || tokens_[j].isPunct("*") || tokens_[j].isPunct("&");
            }
        }
        return std::nullopt;
    }

    bool hasLabel(const std::vector<Statement>& statements) const {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Labeled && !tokens_[s.keyword].isIdentifier("case") &&
                !tokens_[s.keyword].isIdentifier("default"))
                return true;
            if (hasLabel(s.children)) return true;
        }
        return false;
    }

    // -- Writing the inlined block ---------------------------------------------------------------

    std::string freshName(const std::string& base) {
        for (;;) {
            std::string name = base + "_i" + std::to_string(++counter_);
            if (usedNames_.insert(name).second) return name;
        }
    }

    static Token made(std::string spelling, TokenKind kind, Location at) {
        return syntheticToken(std::move(spelling), kind, at);
    }
    static Token punct(std::string spelling, Location at) { return made(std::move(spelling), TokenKind::Punctuator, at); }
    static Token name(std::string spelling, Location at) { return made(std::move(spelling), TokenKind::Identifier, at); }

    /// Tokens [begin, end) with the substitutions applied to the names that stand by themselves.
    void copy(std::size_t begin, std::size_t end, const std::map<std::string, TokenList>& substitutions,
              TokenList& out) const {
        for (std::size_t i = begin; i < end; ++i) {
            const Token& t = tokens_[i];
            if (t.isIdentifier() && unit_.role(i) != TokenRole::Attribute && unit_.isUnqualifiedName(i)) {
                if (auto s = substitutions.find(t.spelling); s != substitutions.end()) {
                    for (std::size_t j = 0; j < s->second.size(); ++j) {
                        Token r = s->second[j];
                        r.location = t.location;
                        if (j == 0) r.spaceBefore = t.spaceBefore;
                        r.startOfLine = j == 0 && t.startOfLine;
                        out.push_back(std::move(r));
                    }
                    continue;
                }
            }
            out.push_back(t);
        }
    }

    /// Whether by-value parameter `param` (the k-th) of `h`, given the name `args[k]`, can be
    /// that name instead of a copy: the helper never changes the parameter (nor asks its size,
    /// which differs for an array), and nothing can change what the name holds while the helper
    /// runs. A pointer that is a variable of its own would be a thread pointer living across the
    /// barriers, which has no slots.
    bool aliasable(const FunctionDecl& h, const HelperParameter& param, const std::vector<TokenRange>& args,
                   std::size_t k) const {
        const std::string& pname = tokens_[param.name].spelling;
        for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i) {
            if (tokens_[i].isIdentifier("sizeof")) return false;
            if (tokens_[i].isIdentifier(pname) && unit_.isUnqualifiedName(i) &&
                unit_.useOf(i, i, ObjectParts::None).kind != UseKind::Read)
                return false;
        }
        // Nothing else may change what the name holds while the helper runs: the kernel (this
        // call's other arguments included: `h(p, &p)`) never lets other code reach it, by its
        // address or as an argument a reference may bind.
        const std::string& given = tokens_[args[k].begin].spelling;
        const FunctionDecl& kernel = module_.functions[kernel_];
        for (std::size_t i = kernel.bodyOpen + 1; i < kernel.bodyClose; ++i)
            if (i != args[k].begin && tokens_[i].isIdentifier(given) && unit_.isUnqualifiedName(i) &&
                mayChange(i, /*throughAlias=*/true))
                return false;
        return true;
    }

    /// Whether by-value parameter `param` is given, as `arg`, a kernel parameter of the same type
    /// (const aside) that the kernel never changes: then the copy would always equal it, and the
    /// split keeps knowing what it knows of the kernel's parameter (a uniform builtin's value).
    bool sameUnchangedValue(const Site& site, const HelperParameter& param, TokenRange arg,
                            const std::map<std::string, TokenList>& subst) const {
        const std::map<std::string, std::string>& unchanged = unchangedParameters_.at(site.kernel);
        const auto given = unchanged.find(tokens_[arg.begin].spelling);
        if (given == unchanged.end() || param.firstBound != kNoToken) return false;
        std::vector<bool> attribute;
        const TokenList type = substitutedType(param, subst, attribute);
        return typeText(type, 0, type.size(), &attribute) == given->second;
    }

    /// The type of `param` (the tokens before its name) with the substitutions made, and which
    /// of them are attributes.
    TokenList substitutedType(const HelperParameter& param, const std::map<std::string, TokenList>& subst,
                              std::vector<bool>& attribute) const {
        TokenList type;
        for (std::size_t i = param.tokens.begin; i < param.name; ++i) {
            copy(i, i + 1, subst, type);
            attribute.resize(type.size(), unit_.role(i) == TokenRole::Attribute);
        }
        return type;
    }

    /// Whether `type` has `punct` of its own (outside template arguments and brackets): a
    /// template argument may make a parameter a reference (`args_t args`, args_t =
    /// `constant kargs &`) or a pointer.
    static bool hasOwn(const TokenList& type, const std::vector<bool>& attribute, std::string_view punct) {
        int depth = 0;
        for (std::size_t i = 0; i < type.size(); ++i) {
            if (attribute[i]) continue;
            const Token& t = type[i];
            if (t.isPunct("<") || t.isPunct("(") || t.isPunct("[")) ++depth;
            if (t.isPunct(">") || t.isPunct(")") || t.isPunct("]")) --depth;
            if (depth == 0 && (t.isPunct(punct) || (punct == "&" && t.isPunct("&&")))) return true;
        }
        return false;
    }

    void emit(const Site& site, TokenList& out) {
        kernel_ = site.kernel;
        const FunctionDecl& h = module_.functions[site.helper];
        const Location at = tokens_[site.keyword].location;
        std::map<std::string, TokenList> subst;
        // Template parameters: the call's arguments, else the defaults (which may name earlier
        // parameters), each value in parentheses.
        const std::vector<HelperTemplateParameter> templ = *templateParameters(h);
        const std::vector<TokenRange> given =
            site.hasTemplateArguments ? splitAtCommas(site.templateArguments.begin, site.templateArguments.end)
                                      : std::vector<TokenRange>{};
        for (std::size_t i = 0; i < templ.size(); ++i) {
            TokenList value;
            if (!templ[i].isType) value.push_back(punct("(", at));
            if (i < given.size())
                for (std::size_t j = given[i].begin; j < given[i].end; ++j) value.push_back(tokens_[j]);
            else
                copy(templ[i].defaultValue.begin, templ[i].defaultValue.end, subst, value);
            if (!templ[i].isType) value.push_back(punct(")", at));
            subst[templ[i].name] = std::move(value);
        }
        // Locals: names of their own.
        for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i)
            if (unit_.role(i) == TokenRole::Declarator && !subst.count(tokens_[i].spelling))
                subst[tokens_[i].spelling] = {name(freshName(tokens_[i].spelling), at)};

        // The result, declared before the block.
        const TokenRange ret = returnType(h);
        const bool isVoid = ret.size() == 1 && tokens_[ret.begin].isIdentifier("void");
        std::string result;
        if (site.form != Site::Form::Call) {
            result = freshName(h.name + "_result");
            copy(ret.begin, ret.end, subst, out);
            out.push_back(name(result, at));
            out.push_back(punct(";", at));
        }
        // The statement's pragmas and attributes, then the block.
        for (std::size_t i = site.statement.begin; i < site.keyword; ++i) out.push_back(tokens_[i]);
        out.push_back(punct("{", at));
        // Parameters: a reference given a name is that name; the others are variables.
        const std::vector<HelperParameter> params = *parameters(h);
        const std::vector<TokenRange> args = splitAtCommas(site.open + 1, partner_[site.open]);
        for (std::size_t p = 0; p < params.size(); ++p) {
            const HelperParameter& param = params[p];
            const std::string& pname = tokens_[param.name].spelling;
            const bool hasArgument = p < args.size();
            const TokenRange arg = hasArgument ? args[p] : TokenRange{};
            const bool named =
                hasArgument && arg.size() == 1 && tokens_[arg.begin].isIdentifier() && !isCppKeyword(tokens_[arg.begin].spelling);
            std::vector<bool> attribute;
            const TokenList type = substitutedType(param, subst, attribute);
            const bool reference = param.reference || (param.firstBound == kNoToken && hasOwn(type, attribute, "&"));
            const bool pointer = !reference && (param.pointer || hasOwn(type, attribute, "*"));
            if (named && (reference || ((pointer || sameUnchangedValue(site, param, arg, subst)) &&
                                        aliasable(h, param, args, p)))) {
                subst[pname] = {name(tokens_[arg.begin].spelling, at)};
                continue;
            }
            const std::string fresh = freshName(pname);
            // The declaration: the parameter's tokens, its name renamed, an array's first
            // bound made a pointer (a parameter of array type is one), its default dropped.
            const std::size_t end = param.defaultValue.empty() ? param.tokens.end : param.defaultValue.begin - 1;
            TokenList declaration;
            for (std::size_t i = param.tokens.begin; i < end; ++i) {
                if (unit_.role(i) == TokenRole::Attribute) continue;
                if (i == param.name) {
                    const bool moreBounds = param.firstBound != kNoToken && partner_[param.firstBound] + 1 < end &&
                                            tokens_[partner_[param.firstBound] + 1].isPunct("[");
                    if (moreBounds) { // `T a[2][3]` is a `T (*a)[3]`
                        declaration.push_back(punct("(", at));
                        declaration.push_back(punct("*", at));
                        declaration.push_back(name(fresh, tokens_[i].location));
                        declaration.push_back(punct(")", at));
                    } else if (param.firstBound != kNoToken) {
                        declaration.push_back(punct("*", at));
                        declaration.push_back(name(fresh, tokens_[i].location));
                    } else {
                        declaration.push_back(name(fresh, tokens_[i].location));
                    }
                    continue;
                }
                if (i == param.firstBound) {
                    i = partner_[i];
                    continue;
                }
                copy(i, i + 1, subst, declaration);
            }
            out.insert(out.end(), declaration.begin(), declaration.end());
            out.push_back(punct("=", at));
            out.push_back(punct("(", at));
            if (hasArgument)
                for (std::size_t j = arg.begin; j < arg.end; ++j) out.push_back(tokens_[j]);
            else
                copy(param.defaultValue.begin, param.defaultValue.end, subst, out);
            out.push_back(punct(")", at));
            out.push_back(punct(";", at));
            subst[pname] = {name(fresh, at)};
        }
        // The body, its last return made an assignment of the result.
        const std::vector<Statement>& body = *unit_.body(site.helper);
        const Statement* last = !body.empty() && body.back().kind == StatementKind::Return ? &body.back() : nullptr;
        copy(h.bodyOpen + 1, last ? last->tokens.begin : h.bodyClose, subst, out);
        if (last && last->keyword + 2 < last->tokens.end) {
            const std::size_t b = last->keyword + 1, e = last->tokens.end - 1;
            bool comma = false;
            for (std::size_t i = b; i < e; ++i) {
                comma = comma || tokens_[i].isPunct(",");
                if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i];
            }
            if (site.form == Site::Form::Call) {
                // The value is dropped; its expression still runs.
                out.push_back(punct("(", at));
                out.push_back(name("void", at));
                out.push_back(punct(")", at));
                out.push_back(punct("(", at));
                copy(b, e, subst, out);
                out.push_back(punct(")", at));
            } else {
                out.push_back(name(result, tokens_[last->keyword].location));
                out.push_back(punct("=", tokens_[last->keyword].location));
                if (comma) out.push_back(punct("(", at));
                copy(b, e, subst, out);
                if (comma) out.push_back(punct(")", at));
            }
            out.push_back(punct(";", tokens_[e].location));
        }
        (void)isVoid;
        out.push_back(punct("}", at));
        // The statement's own use of the value.
        if (site.form != Site::Form::Call) {
            for (std::size_t i = site.keyword; i <= site.assignment; ++i) out.push_back(tokens_[i]);
            out.push_back(name(result, at));
            out.push_back(punct(";", at));
        }
    }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const Module& module_;
    const CallGraph& graph_;
    std::set<std::string>& usedNames_;
    std::vector<InliningRefusal>& refusals_;
    std::set<std::string> kernelNames_;
    std::size_t kernel_ = 0; ///< the kernel whose call emit() writes
    /// Per kernel: its parameters its body never changes, by name, with their types' text.
    std::map<std::size_t, std::map<std::string, std::string>> unchangedParameters_;
    std::vector<Site> sites_;
    std::size_t counter_ = 0;
};

} // namespace

std::vector<InliningRefusal> inlineSynchronisingHelpers(TokenList& tokens, std::vector<std::size_t>& partner,
                                                        Module& module, const FileTable& files) {
    std::vector<InliningRefusal> refusals;
    std::set<std::string> usedNames;
    for (const Token& t : tokens)
        if (t.isIdentifier()) usedNames.insert(t.spelling);
    // Inlining first, round after round; then, with every helper inlined that can be, the
    // collectives in expressions are hoisted, one per statement a round.
    int inlined = 0, hoisted = 0;
    for (;;) {
        std::optional<TokenList> next;
        {
            const Unit unit(tokens, partner, module);
            const CallGraph graph = buildCallGraph(tokens, partner, module);
            if (inlined < kMaxRounds) {
                std::vector<InliningRefusal> roundRefusals;
                Round r(unit, graph, usedNames, roundRefusals);
                next = r.run();
                // The refusals of the last round are those that stand.
                refusals = std::move(roundRefusals);
                inlined = next ? inlined + 1 : kMaxRounds;
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
