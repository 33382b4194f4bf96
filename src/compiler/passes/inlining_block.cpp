// One inlining round (inlining_round.h): a call written as a block of the helper's body.
#include "compiler/passes/inlining_round.h"

#include "compiler/passes/collective_hoisting.h"
#include "compiler/syntax.h"
#include "compiler/template_names.h"

namespace metalcpu::msl::inlining {

std::string Round::freshName(const std::string& base) {
    for (;;) {
        std::string name = base + "_i" + std::to_string(++counter_);
        if (usedNames_.insert(name).second) return name;
    }
}

void Round::copy(std::size_t begin, std::size_t end, const std::map<std::string, TokenList>& substitutions,
          TokenList& out) const {
    for (std::size_t i = begin; i < end; ++i) {
        const Token& t = tokens_[i];
        if (!thisObject_.empty() && t.isIdentifier("this")) { // `(&obj)`
            const std::size_t first = out.size();
            out.push_back(punct("(", t.location));
            out.push_back(punct("&", t.location));
            out.push_back(name(thisObject_, t.location));
            out.push_back(punct(")", t.location));
            out[first].spaceBefore = t.spaceBefore;
            out[first].startOfLine = t.startOfLine;
            continue;
        }
        if (t.isIdentifier() && unit_.role(i) != TokenRole::Attribute && unit_.isUnqualifiedName(i)) {
            if (auto local = shadowed_.find(i); local != shadowed_.end()) {
                Token r = name(local->second, t.location);
                r.spaceBefore = t.spaceBefore;
                r.startOfLine = t.startOfLine;
                out.push_back(std::move(r));
                continue;
            }
            if (auto s = substitutions.find(t.spelling); s != substitutions.end()) {
                // A class's type `typename S::m` is written without `typename` where it
                // qualifies a name (`m::f(x)`, a call, not a type) or already follows one.
                const bool qualifies = i + 1 < tokens_.size() && tokens_[i + 1].isPunct("::");
                const bool afterTypename = !out.empty() && out.back().isIdentifier("typename");
                const std::size_t first =
                    !s->second.empty() && s->second[0].isIdentifier("typename") && (qualifies || afterTypename) ? 1 : 0;
                for (std::size_t j = first; j < s->second.size(); ++j) {
                    Token r = s->second[j];
                    r.location = t.location;
                    if (j == first) r.spaceBefore = t.spaceBefore;
                    r.startOfLine = j == first && t.startOfLine;
                    out.push_back(std::move(r));
                }
                continue;
            }
        }
        out.push_back(t);
    }
}

bool Round::aliasable(const FunctionDecl& h, const HelperParameter& param, const std::vector<TokenRange>& args,
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

bool Round::sameUnchangedValue(const Site& site, const HelperParameter& param, TokenRange arg,
                        const std::map<std::string, TokenList>& subst) const {
    const std::map<std::string, std::string>& unchanged = unchangedParameters_.at(site.kernel);
    const auto given = unchanged.find(tokens_[arg.begin].spelling);
    if (given == unchanged.end() || param.firstBound != kNoToken) return false;
    std::vector<bool> attribute;
    const TokenList type = substitutedType(param, subst, attribute);
    return typeText(type, 0, type.size(), &attribute) == given->second;
}

TokenList Round::substitutedType(const HelperParameter& param, const std::map<std::string, TokenList>& subst,
                          std::vector<bool>& attribute) const {
    TokenList type;
    for (std::size_t i = param.tokens.begin; i < param.name; ++i) {
        copy(i, i + 1, subst, type);
        attribute.resize(type.size(), unit_.role(i) == TokenRole::Attribute);
    }
    return type;
}

bool Round::hasOwn(const TokenList& type, const std::vector<bool>& attribute, std::string_view punct) {
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

void Round::emit(const Site& site, TokenList& out) {
    kernel_ = site.kernel;
    const FunctionDecl& h = module_.functions[site.helper];
    const Location at = tokens_[site.keyword].location;
    std::map<std::string, TokenList> subst;
    // A member function's class scope first: the function's own names may hide it.
    if (site.classBody != kNoToken) memberSubstitutions(h, site, subst);
    if (site.object != kNoToken) thisObject_ = tokens_[site.object].spelling;
    // Template parameters: the call's arguments, else the defaults (which may name earlier
    // parameters), each value in parentheses but a function the helper calls: `deq(x)` stays
    // a call the call graph sees (functionArgumentObstacle()).
    const std::vector<HelperTemplateParameter> templ = *templateParameters(h);
    const std::vector<TokenRange> given = templateArguments(site);
    for (std::size_t i = 0; i < templ.size(); ++i) {
        TokenList value;
        const bool parenthesised = !templ[i].isType && !calledInBody(h, templ[i].name);
        if (parenthesised) value.push_back(punct("(", at));
        if (i < given.size())
            for (std::size_t j = given[i].begin; j < given[i].end; ++j) value.push_back(tokens_[j]);
        else if (auto deduced = site.deduced.find(templ[i].name); deduced != site.deduced.end())
            value.insert(value.end(), deduced->second.begin(), deduced->second.end());
        else
            copy(templ[i].defaultValue.begin, templ[i].defaultValue.end, subst, value);
        if (parenthesised) value.push_back(punct(")", at));
        subst[templ[i].name] = std::move(value);
    }
    // Locals: names of their own; one that shadows a parameter gets its own in its scope.
    std::set<std::string> parameterNames;
    for (const HelperParameter& p : parameters(h).value_or(std::vector<HelperParameter>{}))
        parameterNames.insert(tokens_[p.name].spelling);
    std::size_t unscoped = kNoToken;
    std::map<std::size_t, std::string> shadowingNames; // declarator -> its new name
    for (const auto& [use, declarator] : shadowingUses(h, parameterNames, unscoped)) {
        auto named = shadowingNames.find(declarator);
        if (named == shadowingNames.end())
            named = shadowingNames.emplace(declarator, freshName(tokens_[declarator].spelling)).first;
        shadowed_[use] = named->second;
    }
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
    shadowed_.clear();
    thisObject_.clear();
    out.push_back(punct("}", at));
    // The statement's own use of the value.
    if (site.form != Site::Form::Call) {
        for (std::size_t i = site.keyword; i <= site.assignment; ++i) out.push_back(tokens_[i]);
        out.push_back(name(result, at));
        out.push_back(punct(";", at));
    }
}

} // namespace metalcpu::msl::inlining
