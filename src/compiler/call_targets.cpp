#include "compiler/call_targets.h"

#include "compiler/syntax.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

// Aliases of aliases deeper than this are not followed.
constexpr int kMaxAliasDepth = 8;

// The end of the declaration whose tokens start at `i`: its `;` (brackets skipped), or kNoToken.
std::size_t declarationEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i) {
    while (i < tokens.size() && !tokens[i].isPunct(";")) {
        if (tokens[i].isPunct("}")) return kNoToken;
        i = partner[i] != kNoToken && partner[i] > i ? partner[i] + 1 : i + 1;
    }
    return i < tokens.size() ? i : kNoToken;
}

} // namespace

CallTargets::CallTargets(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module)
    : tokens_(tokens), partner_(partner), module_(module) {
    for (const FunctionDecl& f : module.functions)
        if (!f.enclosingClass.empty()) classNames_.insert(f.enclosingClass);
    std::vector<std::size_t> scopes; // the `{` around the current token, innermost last
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.isPunct("{")) scopes.push_back(i);
        if (t.isPunct("}") && !scopes.empty()) scopes.pop_back();
        const std::size_t scope = scopes.empty() ? kNoToken : scopes.back();
        if (t.isIdentifier("using") && i + 2 < tokens.size() && tokens[i + 1].isIdentifier() &&
            tokens[i + 2].isPunct("=")) {
            const std::size_t end = declarationEnd(tokens, partner, i + 3);
            if (end != kNoToken) aliases_[tokens[i + 1].spelling].push_back({scope, {i + 3, end}});
        } else if (t.isIdentifier("typedef")) {
            const std::size_t end = declarationEnd(tokens, partner, i + 1);
            if (end != kNoToken && end > i + 2 && tokens[end - 1].isIdentifier())
                aliases_[tokens[end - 1].spelling].push_back({scope, {i + 1, end - 1}});
        }
    }
}

std::string CallTargets::classOf(const FunctionDecl& f) const {
    if (!f.enclosingClass.empty()) return f.enclosingClass;
    // `void S::f() {...}` or `void S<T>::f() {...}`, defined outside its class.
    if (f.nameToken < 2 || !tokens_[f.nameToken - 1].isPunct("::")) return {};
    std::size_t q = f.nameToken - 2;
    if (tokens_[q].isPunct(">")) {
        const std::size_t open = openingAngle(tokens_, partner_, q, f.declarationBegin);
        if (open == kNoToken || open == 0) return {};
        q = open - 1;
    }
    return tokens_[q].isIdentifier() ? tokens_[q].spelling : std::string();
}

bool CallTargets::isFriend(const FunctionDecl& f) const {
    for (std::size_t i = f.declarationBegin; i < f.nameToken && i < tokens_.size(); ++i)
        if (tokens_[i].isIdentifier("friend")) return true;
    return false;
}

CallTargets::ClassNames CallTargets::classesDefined(TokenRange definition, int depth) const {
    std::size_t i = definition.begin;
    while (i < definition.end && (tokens_[i].isIdentifier("typename") || tokens_[i].isIdentifier("const") ||
                                  tokens_[i].isPunct("::")))
        ++i;
    // `A`, `A<...>`, `A<...>::B`: the last name, and whether it was qualified.
    std::size_t last = kNoToken;
    bool qualified = false;
    while (i < definition.end) {
        if (!tokens_[i].isIdentifier() || isCppKeyword(tokens_[i].spelling)) return std::nullopt;
        last = i++;
        if (i < definition.end && tokens_[i].isPunct("<")) {
            const std::size_t close = closingAngle(tokens_, partner_, i, definition.end);
            if (close == kNoToken) return std::nullopt;
            i = close + 1;
        }
        if (i < definition.end && tokens_[i].isPunct("::")) {
            qualified = true;
            ++i;
            continue;
        }
        break;
    }
    while (i < definition.end && tokens_[i].isIdentifier("const")) ++i;
    if (last == kNoToken || i != definition.end) return std::nullopt; // a pointer, an array, a function type
    // A member of another class (`typename Outer::inner_t`) is looked up anywhere.
    return classesNamed(tokens_[last].spelling, qualified ? kNoToken : definition.begin, depth + 1);
}

CallTargets::ClassNames CallTargets::classesNamed(const std::string& name, std::size_t at, int depth) const {
    if (depth > kMaxAliasDepth) return std::nullopt;
    const bool isClass = classNames_.count(name) != 0;
    const auto found = aliases_.find(name);
    if (found == aliases_.end()) return isClass ? ClassNames(std::set<std::string>{name}) : std::nullopt;
    // Those of the innermost scope around `at` that declares one hide the rest (and a class);
    // where none is around it (a member defined outside its class), any may be meant.
    std::size_t innermost = kNoToken;
    bool visible = false;
    for (const Alias& a : found->second) {
        const bool around = a.scope == kNoToken || (at != kNoToken && a.scope < at && partner_[a.scope] > at);
        if (!around) continue;
        if (!visible || (a.scope != kNoToken && (innermost == kNoToken || a.scope > innermost))) innermost = a.scope;
        visible = true;
    }
    std::set<std::string> out;
    if (!visible && isClass) out.insert(name);
    for (const Alias& a : found->second) {
        if (visible && a.scope != innermost) continue;
        const ClassNames named = classesDefined(a.definition, depth);
        if (!named) return std::nullopt;
        out.insert(named->begin(), named->end());
    }
    return out;
}

std::vector<std::size_t> CallTargets::narrow(const std::vector<std::size_t>& named, std::size_t caller,
                                             std::size_t callee) const {
    const FunctionDecl& f = module_.functions[caller];
    auto keep = [&](auto&& mayBe) {
        std::vector<std::size_t> out;
        for (std::size_t n : named)
            if (mayBe(module_.functions[n])) out.push_back(n);
        return out.empty() ? named : out; // none: lookup went where this does not follow
    };
    auto isMember = [&](const FunctionDecl& g) { return !classOf(g).empty() && !isFriend(g); };
    // `Q::template f<T>(...)`, `x.template f<T>(...)`: what precedes `template`.
    const std::size_t b = tokens_[callee - 1].isIdentifier("template") && callee > 2 ? callee - 2 : callee - 1;
    const Token& before = tokens_[b];
    if (before.isPunct("::")) {
        std::size_t q = b - 1;
        if (tokens_[q].isPunct(">")) {
            const std::size_t open = openingAngle(tokens_, partner_, q, f.bodyOpen);
            if (open == kNoToken || open == 0) return named;
            q = open - 1;
        }
        if (!tokens_[q].isIdentifier()) return named;
        const std::string& qualifier = tokens_[q].spelling;
        const auto& typeParameters = f.templateTypeParameters;
        if (std::find(typeParameters.begin(), typeParameters.end(), qualifier) != typeParameters.end()) return named;
        const ClassNames classes = classesNamed(qualifier, q, 0);
        if (!classes) return named;
        return keep([&](const FunctionDecl& g) { return classes->count(classOf(g)) != 0; });
    }
    if (before.isPunct(".") || before.isPunct("->")) return keep(isMember);
    const std::string own = classOf(f);
    if (!own.empty()) {
        // A member of the caller's class hides every function of the name outside it.
        std::vector<std::size_t> members;
        for (std::size_t n : named) {
            const FunctionDecl& g = module_.functions[n];
            if (f.classBody != kNoToken ? g.classBody == f.classBody : classOf(g) == own) members.push_back(n);
        }
        return members.empty() ? named : members;
    }
    // From a function outside any class: no member without an object, but a constructor.
    return keep([&](const FunctionDecl& g) { return !isMember(g) || g.name == g.enclosingClass; });
}

} // namespace metalcpu::msl
