// One inlining round (inlining_round.h): which calls are inlined, and why the others are not.
#include "compiler/passes/inlining_round.h"

#include "compiler/call_arguments.h"
#include "compiler/passes/collective_helpers.h"
#include "compiler/passes/collective_hoisting.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"

#include <algorithm>

namespace metalcpu::msl::inlining {

void Round::refuse(std::size_t kernel, std::size_t where, std::string reason) {
    const Location k = tokens_[module_.functions[kernel].nameToken].location;
    for (const InliningRefusal& r : refusals_)
        if (r.kernel == k) return; // the first reason per kernel is enough
    refusals_.push_back({k, tokens_[where].location, std::move(reason)});
}

bool Round::synchronises(std::size_t f) const {
    for (std::size_t r : reachableFunctions(graph_, f))
        if (graph_.usesBarriersDirectly[r]) return true;
    return false;
}

bool Round::reachesTensorOperation(std::size_t f) const {
    const bool namesOperations = namesOperationTypes(tokens_);
    for (std::size_t r : reachableFunctions(graph_, f)) {
        const FunctionDecl& d = module_.functions[r];
        if (d.hasBody && usesTensorOperation(tokens_, d.bodyOpen, d.bodyClose, namesOperations)) return true;
    }
    return false;
}

void Round::findSites(std::size_t kernel, const std::vector<Statement>& statements, bool inBlock) {
    for (const Statement& s : statements) {
        if (s.kind == StatementKind::Simple) {
            site(kernel, s, inBlock);
            continue;
        }
        findSites(kernel, s.children, s.kind == StatementKind::Compound);
    }
}

void Round::site(std::size_t kernel, const Statement& s, bool inBlock) {
    const std::size_t semicolon = s.tokens.end - 1;
    // The callee: the first callee of the statement at its top level whose call ends just
    // before the `;` (a qualified one too, `S::f(x)`, to say why it is not inlined).
    std::size_t callee = kNoToken, open = kNoToken;
    for (std::size_t i = s.keyword; i < semicolon; ++i) {
        const TokenRole role = unit_.role(i);
        if ((role == TokenRole::Callee || role == TokenRole::Member || role == TokenRole::QualifiedPart) &&
            tokens_[i].isIdentifier()) {
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
    // A member function is inlined when called on an object the kernel declares, `obj.f(x)`,
    // a static one when called by a qualifier that names its class, `Q::f(x)`.
    const bool member = unit_.role(callee) == TokenRole::Member;
    if (member && (callee < 2 || !tokens_[callee - 1].isPunct(".") || !tokens_[callee - 2].isIdentifier() ||
                   !unit_.isUnqualifiedName(callee - 2)))
        return refuse(kernel, callee, name + " is called as a member function of an object that is not a name (`obj.f(...)`)");
    const bool qualified = !member && callee > 0 && tokens_[callee - 1].isPunct("::");
    // The qualifier: `Q::`, `Q<args>::`, `A::B::`, from its first name.
    std::size_t qualifier = callee;
    if (qualified) {
        for (std::size_t q = callee - 1; tokens_[q].isPunct("::");) {
            if (q == s.keyword) break; // `::f`
            std::size_t p = q - 1;
            if (tokens_[p].isPunct(">")) {
                const std::size_t angle = openingAngle(tokens_, partner_, p, s.keyword);
                if (angle == kNoToken || angle == 0) return refuse(kernel, callee, "the call of " + name + " is qualified");
                p = angle - 1;
            }
            if (!tokens_[p].isIdentifier() || p < s.keyword) return refuse(kernel, callee, "the call of " + name + " is qualified");
            qualifier = p;
            if (p == 0) break;
            q = p - 1;
        }
        if (qualifier == callee) return refuse(kernel, callee, "the call of " + name + " is qualified");
    }
    if (!member && !qualified && !unit_.isUnqualifiedName(callee))
        return refuse(kernel, callee, "the call of " + name + " is qualified");
    const FunctionDecl& k = module_.functions[kernel];
    if (!member && !qualified && kernelNames_.count(tokens_[callee].spelling))
        return refuse(kernel, callee, "the kernel declares a name " + name + " itself");

    Site site;
    site.kernel = kernel;
    site.statement = s.tokens;
    site.keyword = s.keyword;
    site.callee = callee;
    site.open = open;
    site.start = member ? callee - 2 : qualifier;
    site.endsKernel = !kernelBody_->empty() && &s == &kernelBody_->back() &&
                      s.tokens.end == module_.functions[kernel].bodyClose;
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
    // What comes before the call: nothing, an assignment's left side, or a declaration.
    if (site.start != s.keyword) {
        const std::size_t before = site.start - 1;
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
    // Of overloads, those the call's argument count fits (one whose parameters are not read,
    // a pack say, may fit any): where one is left, it is the one called.
    const std::size_t arguments = splitAtCommas(open + 1, partner_[open]).size();
    auto byArity = [&](const std::vector<std::size_t>& overloads) {
        std::vector<std::size_t> fit;
        for (std::size_t f : overloads) {
            const auto params = parameters(module_.functions[f]);
            std::size_t required = 0;
            if (params)
                for (const HelperParameter& p : *params) required += p.defaultValue.empty() ? 1 : 0;
            if (!params || (arguments >= required && arguments <= params->size())) fit.push_back(f);
        }
        return fit.empty() ? overloads : fit;
    };
    // Which function: for a member, the one of its name in the object's (or qualifier's) class.
    if (member || qualified) {
        if (auto reason = member ? memberObstacle(k, site) : staticObstacle(k, site))
            return refuse(kernel, reason->first, reason->second);
        std::vector<std::size_t> inClass;
        for (std::size_t f : byName->second)
            if (module_.functions[f].classBody == site.classBody) inClass.push_back(f);
        if (inClass.empty()) return refuse(kernel, callee, name + " is not a member function of the class of the call");
        inClass = byArity(inClass);
        if (inClass.size() != 1) return refuse(kernel, callee, "more than one function of the class is named " + name);
        site.helper = inClass.front();
    } else {
        // A kernel is a free function: an unqualified call from it reaches no member.
        std::vector<std::size_t> free;
        for (std::size_t f : byName->second)
            if (module_.functions[f].enclosingClass.empty()) free.push_back(f);
        free = byArity(free.empty() ? byName->second : free);
        if (free.size() != 1) return refuse(kernel, callee, "more than one function is named " + name);
        site.helper = free.front();
    }
    const std::size_t helper = site.helper;
    const FunctionDecl& h = module_.functions[helper];
    if (h.isKernel) return refuse(kernel, callee, name + " is a kernel");
    if (!member && !qualified && !h.enclosingClass.empty())
        return refuse(kernel, callee, name + " is a member function called without an object");
    if (member || qualified) {
        bool isStatic = false;
        for (std::size_t i = h.declarationBegin; i < h.nameToken; ++i) isStatic = isStatic || tokens_[i].isIdentifier("static");
        if (member && isStatic) return refuse(kernel, h.nameToken, name + " is a static member function");
        if (qualified && !isStatic) return refuse(kernel, callee, name + " is called by its class's name but is not static");
        // The class's template arguments: written (through aliases), or defaulted.
        const std::optional<ClassScope> scope = classScope(h);
        if (!scope) return refuse(kernel, h.nameToken, "the class of " + name + " is not read");
        if (site.classArguments.size() > scope->templateParameters.size())
            return refuse(kernel, site.start, "too many template arguments");
        for (std::size_t i = site.classArguments.size(); i < scope->templateParameters.size(); ++i)
            if (scope->templateParameters[i].defaultValue.empty())
                return refuse(kernel, site.start, "the class of the call of " + name + " deduces its template arguments");
    }
    if (isCollectiveHelper(unit_, graph_, helper)) return; // split at as it is
    if (h.namespaces != k.namespaces)
        if (auto reason = namespaceObstacle(h, k)) return refuse(kernel, reason->first, reason->second);
    if (h.bodyClose > k.headerBegin) return refuse(kernel, callee, name + " is defined after the kernel");
    for (std::size_t c : graph_.callees[helper]) {
        const std::vector<std::size_t> reach = reachableFunctions(graph_, c);
        if (std::find(reach.begin(), reach.end(), helper) != reach.end())
            return refuse(kernel, callee, name + " may call itself");
    }
    // A call through one of the helper's own non-type template parameters becomes, inlined,
    // a call of the argument (functionArgumentObstacle()); any other stays opaque.
    if (graph_.callsOpaque[helper] && !graph_.opaqueOnlyThroughTemplateParameters[helper])
        return refuse(kernel, callee, name + " calls through a function pointer");
    if (const auto templ = templateParameters(h)) deduceTemplateArguments(h, *templ, site);
    if (auto reason = helperObstacle(kernel, site)) return refuse(kernel, reason->first, reason->second);
    sites_.push_back(site);
}

std::optional<std::pair<std::size_t, std::string>> Round::helperObstacle(std::size_t kernel, const Site& site) {
    const FunctionDecl& h = module_.functions[site.helper];
    const std::string name = "'" + h.name + "'";
    const std::size_t at = h.nameToken;
    const std::vector<Statement>* body = unit_.body(site.helper);
    if (!body) return std::pair{at, "the statements of " + name + " are not read"};
    const auto templ = templateParameters(h);
    if (!templ) return std::pair{at, "the template parameters of " + name + " are not read"};
    const std::size_t given = templateArguments(site).size();
    if (given > templ->size()) return std::pair{site.callee, "too many template arguments"};
    for (std::size_t i = given; i < templ->size(); ++i)
        if ((*templ)[i].defaultValue.empty() && !site.deduced.count((*templ)[i].name))
            return std::pair{site.callee, "the call of " + name + " deduces its template argument '" + (*templ)[i].name +
                                              "' from what is not `C<args>{...}` given for a `C<" + (*templ)[i].name +
                                              ", ...>` parameter"};
    if (auto obstacle = typeArgumentObstacle(h, *templ, site)) return obstacle;
    if (auto obstacle = functionArgumentObstacle(h, *templ, site)) return obstacle;
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
    // Returns: only a last one, but anywhere in a void helper whose call ends the kernel
    // (candle's argsort: `if (col >= ncols_pad) return;`).
    const Statement* last = body->empty() ? nullptr : &body->back();
    const bool returnsFromKernel = isVoid && site.form == Site::Form::Call && site.endsKernel;
    if (std::optional<std::size_t> early = earlyReturn(*body, last); early && !returnsFromKernel)
        return std::pair{*early, name + " returns before its end"};
    if (!isVoid && (!last || last->kind != StatementKind::Return || last->keyword + 2 >= last->tokens.end))
        return std::pair{at, name + " does not end with `return value;`"};
    for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i) {
        const Token& t = tokens_[i];
        if (t.isIdentifier("goto") || t.isIdentifier("__func__") || (t.isIdentifier("this") && site.object == kNoToken) ||
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
    // A member function's class scope: its names become the object's or the class's, so none
    // may be declared again by the function (which would hide it there).
    std::optional<ClassScope> scope;
    if (site.classBody != kNoToken) {
        scope = classScope(h);
        if (!scope) return std::pair{at, "the class of " + name + " is not read"};
        for (const HelperParameter& p : *params)
            if (scope->declares(tokens_[p.name].spelling))
                return std::pair{p.name, name + " declares '" + tokens_[p.name].spelling + "', which its class declares"};
        for (const auto& [local, declared] : locals)
            if (scope->declares(local))
                return std::pair{declared, name + " declares '" + local + "', which its class declares"};
    }
    // A local may shadow a parameter in a nested scope (renamed there, emit()), not a
    // template parameter.
    std::set<std::string> parameterNames;
    for (const HelperParameter& p : *params) parameterNames.insert(tokens_[p.name].spelling);
    std::size_t unscoped = kNoToken;
    const std::map<std::size_t, std::size_t> shadowing = shadowingUses(h, parameterNames, unscoped);
    if (unscoped != kNoToken)
        return std::pair{unscoped, name + " declares '" + tokens_[unscoped].spelling + "' again"};
    for (const auto& [local, declared] : locals)
        if (own.count(local) && !parameterNames.count(local))
            return std::pair{declared, name + " declares '" + local + "' again"};
    const std::set<std::string> localTypes = declaredTypeNames(tokens_, h.bodyOpen + 1, h.bodyClose);
    for (std::size_t i = h.parametersOpen + 1; i < h.bodyClose; ++i) {
        if (!tokens_[i].isIdentifier() || !unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling))
            continue;
        const std::string& s = tokens_[i].spelling;
        if (parameterNames.count(s) && locals.count(s)) {
            // The parameter outside the locals' scopes, the local inside; a call of either is not inlined.
            if (unit_.role(i) == TokenRole::Callee)
                return std::pair{i, name + " uses '" + s + "' before declaring it, or calls it"};
            continue;
        }
        if (auto l = locals.find(s); l != locals.end()) {
            // A local type may be called: `acc_t(v)` is a conversion.
            if (i < l->second || (unit_.role(i) == TokenRole::Callee && !localTypes.count(s)))
                return std::pair{i, name + " uses '" + s + "' before declaring it, or calls it"};
        } else if (!own.count(s) && !(scope && scope->declares(s)) && kernelNames_.count(s)) {
            return std::pair{i, name + " names '" + s + "', which the kernel declares too"};
        }
    }
    (void)kernel;
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::string>> Round::namespaceObstacle(const FunctionDecl& h,
                                                                            const FunctionDecl& k) const {
    const std::string name = "'" + h.name + "'";
    const std::string why = name + " is defined in another namespace than the kernel";
    // The kernel's namespace encloses the helper's, and a `using namespace` of the rest (or of
    // the whole, `::`-rooted or not) comes before the kernel outside any function.
    if (h.namespaces.size() <= k.namespaces.size() ||
        !std::equal(k.namespaces.begin(), k.namespaces.end(), h.namespaces.begin()))
        return std::pair{h.nameToken, why};
    bool visible = false;
    for (std::size_t i = 0; i + 2 < k.headerBegin && !visible; ++i) {
        if (!tokens_[i].isIdentifier("using") || !tokens_[i + 1].isIdentifier("namespace")) continue;
        std::vector<std::string> named;
        std::size_t j = i + 2;
        if (tokens_[j].isPunct("::")) ++j;
        for (; j < k.headerBegin && tokens_[j].isIdentifier(); j += 2) {
            named.push_back(tokens_[j].spelling);
            if (!tokens_[j + 1].isPunct("::")) break;
        }
        if (j >= k.headerBegin || !tokens_[j + 1].isPunct(";")) continue;
        bool inFunction = false;
        for (const FunctionDecl& f : module_.functions)
            inFunction = inFunction || (f.hasBody && f.bodyOpen < i && i < f.bodyClose);
        if (inFunction) continue;
        const auto rest = h.namespaces.begin() + static_cast<std::ptrdiff_t>(k.namespaces.size());
        visible = std::equal(named.begin(), named.end(), h.namespaces.begin(), h.namespaces.end()) ||
                  std::equal(named.begin(), named.end(), rest, h.namespaces.end());
    }
    if (!visible) return std::pair{h.nameToken, why + ", whose names it does not use (`using namespace`)"};
    // Each function the helper calls by name: of the helper's namespace only, so that the
    // kernel's scope finds the same ones.
    for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i) {
        if (unit_.role(i) != TokenRole::Callee || !unit_.isUnqualifiedName(i)) continue;
        const auto functions = graph_.byName.find(tokens_[i].spelling);
        if (functions == graph_.byName.end()) continue;
        for (std::size_t f : functions->second)
            if (module_.functions[f].enclosingClass.empty() && module_.functions[f].namespaces != h.namespaces)
                return std::pair{i, name + " calls '" + tokens_[i].spelling +
                                        "', which another namespace than its own declares too"};
    }
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::string>> Round::typeArgumentObstacle(
    const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ, const Site& site) const {
    const std::vector<TokenRange> given = templateArguments(site);
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

std::optional<std::pair<std::size_t, std::string>> Round::functionArgumentObstacle(
    const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ, const Site& site) const {
    const FunctionDecl& kernel = module_.functions[site.kernel];
    const std::vector<TokenRange> given = templateArguments(site);
    for (std::size_t k = 0; k < templ.size(); ++k) {
        if (templ[k].isType || !calledInBody(h, templ[k].name)) continue;
        const TokenRange value = k < given.size() ? given[k] : templ[k].defaultValue;
        const std::string why = "'" + h.name + "' calls its template parameter '" + templ[k].name + "', ";
        if (value.size() != 1 || !tokens_[value.begin].isIdentifier())
            return std::pair{site.callee, why + "whose argument is not a name"};
        const std::string& givenName = tokens_[value.begin].spelling;
        const auto& kernelValues = kernel.templateValueParameters;
        if (std::find(kernelValues.begin(), kernelValues.end(), givenName) != kernelValues.end()) continue;
        // A function of the file: called by name, it must be the one the pointer names.
        const auto functions = graph_.byName.find(givenName);
        if (functions == graph_.byName.end() || functions->second.size() != 1 ||
            module_.functions[functions->second.front()].isTemplate ||
            !module_.functions[functions->second.front()].enclosingClass.empty())
            return std::pair{site.callee, why + "whose argument '" + givenName +
                                              "' is not the kernel's template parameter or the file's only "
                                              "function of that name"};
    }
    return std::nullopt;
}

std::optional<std::size_t> Round::earlyReturn(const std::vector<Statement>& statements, const Statement* last) const {
    for (const Statement& s : statements) {
        if (s.kind == StatementKind::Return && &s != last) return s.keyword;
        if (auto r = earlyReturn(s.children, last)) return r;
    }
    return std::nullopt;
}

std::optional<std::size_t> Round::threadgroupVariable(const FunctionDecl& h) const {
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

std::size_t Round::scopeEnd(const FunctionDecl& h, std::size_t declarator) const {
    for (std::size_t j = declarator; j-- > h.bodyOpen;) {
        const Token& t = tokens_[j];
        if ((t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) && partner_[j] != kNoToken && partner_[j] < j) {
            j = partner_[j];
            continue;
        }
        if (t.isPunct("{")) return partner_[j];
        if (!t.isPunct("(") && !t.isPunct("[")) continue;
        // A header's declaration: in scope to the end of its statement.
        if (!t.isPunct("(") || j == 0 || !(tokens_[j - 1].isIdentifier("for") || tokens_[j - 1].isIdentifier("if") ||
                                           tokens_[j - 1].isIdentifier("while") || tokens_[j - 1].isIdentifier("switch")))
            return kNoToken;
        const std::vector<Statement>* body = unit_.body(static_cast<std::size_t>(&h - module_.functions.data()));
        std::vector<const std::vector<Statement>*> work{body};
        while (body && !work.empty()) {
            const std::vector<Statement>* ss = work.back();
            work.pop_back();
            for (const Statement& s : *ss) {
                if (s.keyword == j - 1) return s.tokens.end;
                work.push_back(&s.children);
            }
        }
        return kNoToken;
    }
    return kNoToken;
}

std::map<std::size_t, std::size_t> Round::shadowingUses(const FunctionDecl& h, const std::set<std::string>& parameters,
                                                        std::size_t& unscoped) const {
    std::map<std::size_t, std::size_t> uses;
    for (std::size_t d = h.bodyOpen + 1; d < h.bodyClose; ++d) {
        if (unit_.role(d) != TokenRole::Declarator || !parameters.count(tokens_[d].spelling)) continue;
        const std::size_t end = scopeEnd(h, d);
        if (end == kNoToken) {
            unscoped = d;
            return {};
        }
        // Later declarations are nested deeper or come after: each overwrites its own scope.
        for (std::size_t i = d; i < end; ++i)
            if (tokens_[i].spelling == tokens_[d].spelling && tokens_[i].isIdentifier() && unit_.isUnqualifiedName(i) &&
                unit_.role(i) != TokenRole::Attribute)
                uses[i] = d;
    }
    return uses;
}

bool Round::hasLabel(const std::vector<Statement>& statements) const {
    for (const Statement& s : statements) {
        if (s.kind == StatementKind::Labeled && !tokens_[s.keyword].isIdentifier("case") &&
            !tokens_[s.keyword].isIdentifier("default"))
            return true;
        if (hasLabel(s.children)) return true;
    }
    return false;
}

} // namespace metalcpu::msl::inlining
