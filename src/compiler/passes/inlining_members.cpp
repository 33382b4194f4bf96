// One inlining round (inlining_round.h): member functions called on an object the kernel
// declares, `loader.load(); mma.multiply(As, Bs);` as MLX's steel GEMM calls its BlockLoader and
// BlockMMA. The body, copied into the kernel, names the object where it named the class's
// members (`obj.m`), and the class as the object's declaration writes it where it named the
// class's statics, types and template parameters.
#include "compiler/passes/inlining_round.h"

#include "compiler/syntax.h"
#include "compiler/template_names.h"

namespace metalcpu::msl::inlining {

namespace {

bool isAccessSpecifier(const Token& t) {
    return t.isIdentifier("public") || t.isIdentifier("private") || t.isIdentifier("protected");
}

} // namespace

std::optional<std::pair<std::size_t, std::string>> Round::memberObstacle(const FunctionDecl& k, Site& site) const {
    const FunctionDecl& h = module_.functions[site.helper];
    const std::string name = "'" + h.name + "'";
    for (std::size_t i = h.declarationBegin; i < h.nameToken; ++i)
        if (tokens_[i].isIdentifier("static")) return std::pair{h.nameToken, name + " is a static member function"};
    // The object: the one variable of its name the kernel declares, in its body.
    const std::string& object = tokens_[site.start].spelling;
    const std::string why = "the object of the call of " + name + " ";
    std::size_t declarator = kNoToken;
    for (std::size_t i = k.parametersOpen + 1; i < k.bodyClose; ++i) {
        if (!tokens_[i].isIdentifier(object) || unit_.role(i) != TokenRole::Declarator) continue;
        if (declarator != kNoToken) return std::pair{site.start, why + "is declared more than once"};
        declarator = i;
    }
    if (declarator == kNoToken || declarator < k.bodyOpen)
        return std::pair{site.start, why + "is not a variable of the kernel's body"};
    // Its declaration, a statement of its own: `[thread] S obj(...);` or `S<args> obj{...};`.
    std::size_t b = declarator;
    while (b > k.bodyOpen + 1 && !tokens_[b - 1].isPunct(";") && !tokens_[b - 1].isPunct("{") &&
           !tokens_[b - 1].isPunct("}"))
        --b;
    if (tokens_[b].isIdentifier("thread")) ++b;
    const std::string declaration = why + "is not declared `S obj(...);` or `S<args> obj(...);`, S its class";
    if (b >= declarator || !tokens_[b].isIdentifier(h.enclosingClass)) return std::pair{declarator, declaration};
    if (b + 1 != declarator &&
        !(tokens_[b + 1].isPunct("<") && closingAngle(tokens_, partner_, b + 1, declarator) == declarator - 1))
        return std::pair{declarator, declaration};
    const Token& after = tokens_[declarator + 1];
    const std::size_t end = (after.isPunct("(") || after.isPunct("{")) ? partner_[declarator + 1] + 1 : declarator + 1;
    if (end >= tokens_.size() || !tokens_[end].isPunct(";")) return std::pair{declarator, declaration};
    site.object = site.start;
    site.objectType = {b, declarator};
    // The class's template arguments: written, or defaulted.
    const std::optional<ClassScope> scope = classScope(h);
    if (!scope) return std::pair{h.nameToken, "the class of " + name + " is not read"};
    const std::size_t given =
        b + 1 == declarator ? 0 : splitAtCommas(b + 2, declarator - 1).size();
    if (given > scope->templateParameters.size()) return std::pair{b, "too many template arguments"};
    for (std::size_t i = given; i < scope->templateParameters.size(); ++i)
        if (scope->templateParameters[i].defaultValue.empty())
            return std::pair{b, why + "deduces its class's template arguments"};
    return std::nullopt;
}

std::optional<ClassScope> Round::classScope(const FunctionDecl& h) const {
    const std::size_t open = h.classBody;
    if (open == kNoToken || open < 2 || partner_[open] == kNoToken) return std::nullopt;
    // `[template <...>] struct S {`: no bases, no `final`.
    if (!tokens_[open - 1].isIdentifier(h.enclosingClass)) return std::nullopt;
    std::size_t begin = open - 2;
    if (!tokens_[begin].isIdentifier("struct") && !tokens_[begin].isIdentifier("class")) return std::nullopt;
    ClassScope scope;
    if (begin > 0 && tokens_[begin - 1].isPunct(">")) {
        const std::size_t angle = openingAngle(tokens_, partner_, begin - 1, 0);
        if (angle == kNoToken || angle == 0 || !tokens_[angle - 1].isIdentifier("template")) return std::nullopt;
        auto parameters = templateParameters(TokenRange{angle + 1, begin - 1});
        if (!parameters) return std::nullopt;
        scope.templateParameters = std::move(*parameters);
        begin = angle - 1;
    }
    // At namespace scope: the bracket around it, if any, is a namespace's.
    for (std::size_t j = begin; j-- > 0;) {
        const Token& t = tokens_[j];
        if ((t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) && partner_[j] != kNoToken && partner_[j] < j) {
            j = partner_[j];
            continue;
        }
        if (t.isPunct("(") || t.isPunct("[")) return std::nullopt;
        if (!t.isPunct("{")) continue;
        std::size_t n = j;
        while (n > 0 && (tokens_[n - 1].isPunct("::") ||
                         (tokens_[n - 1].isIdentifier() && !tokens_[n - 1].isIdentifier("namespace"))))
            --n;
        if (n == 0 || !tokens_[n - 1].isIdentifier("namespace")) return std::nullopt;
        break;
    }
    // Its member declarations, one at a time; any it cannot place keeps it unread (a name
    // the body uses and the scope misses would mean something else in the kernel).
    auto place = [&](std::size_t b, std::size_t e) -> bool {
        if (b < e && tokens_[b].isIdentifier("template")) {
            if (b + 1 >= e || !tokens_[b + 1].isPunct("<")) return false;
            const std::size_t close = closingAngle(tokens_, partner_, b + 1, e);
            if (close == kNoToken) return false;
            b = close + 1;
        }
        if (b >= e) return true;
        const Token& first = tokens_[b];
        if (first.isIdentifier("static_assert") || first.isIdentifier("friend")) return true;
        if (first.isIdentifier("using")) {
            if (b + 2 >= e || !tokens_[b + 1].isIdentifier() || !tokens_[b + 2].isPunct("=")) return false;
            scope.types.insert(tokens_[b + 1].spelling);
            return true;
        }
        if (first.isIdentifier("typedef")) {
            if (!tokens_[e - 1].isIdentifier()) return false;
            scope.types.insert(tokens_[e - 1].spelling);
            return true;
        }
        if (first.isIdentifier("struct") || first.isIdentifier("class") || first.isIdentifier("union") ||
            first.isIdentifier("enum")) {
            std::size_t n = b + 1;
            if (first.isIdentifier("enum") && n < e && (tokens_[n].isIdentifier("class") || tokens_[n].isIdentifier("struct")))
                ++n;
            if (n >= e || !tokens_[n].isIdentifier()) return false;
            // Only the type: `struct R { ... } r;` would declare a member too.
            for (std::size_t i = n + 1; i < e; ++i) {
                if (tokens_[i].isPunct("{")) {
                    if (partner_[i] + 1 != e) return false;
                    break;
                }
                if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i];
            }
            scope.types.insert(tokens_[n].spelling);
            return true;
        }
        bool isStatic = false, named = false;
        for (std::size_t i = b; i < e; ++i) {
            if (partner_[i] != kNoToken && partner_[i] > i) {
                i = partner_[i];
                continue;
            }
            const Token& t = tokens_[i];
            if (t.isIdentifier("operator")) return true; // called only as an operator
            if (!named && (t.isIdentifier("static") || t.isIdentifier("constexpr"))) isStatic = true;
            if (unit_.role(i) != TokenRole::Declarator || !t.isIdentifier()) continue;
            named = true;
            if (t.spelling == h.enclosingClass) continue; // a constructor
            (isStatic ? scope.statics : scope.members).insert(t.spelling);
        }
        return named;
    };
    const std::size_t close = partner_[open];
    std::size_t start = open + 1;
    for (std::size_t i = open + 1; i < close; ++i) {
        const Token& t = tokens_[i];
        if (t.isPunct(":") && i == start + 1 && isAccessSpecifier(tokens_[start])) {
            start = i + 1;
        } else if (t.isPunct("{") && partner_[i] != kNoToken) {
            // A function's body ends its declaration; an initializer's or a class's braces do not.
            i = partner_[i];
            if (!tokens_[i + 1].isPunct(";") && !tokens_[i + 1].isPunct(",")) {
                if (!place(start, i + 1)) return std::nullopt;
                start = i + 1;
            }
        } else if (partner_[i] != kNoToken && partner_[i] > i) {
            i = partner_[i];
        } else if (t.isPunct(";")) {
            if (!place(start, i)) return std::nullopt;
            start = i + 1;
        }
    }
    if (start != close) return std::nullopt;
    return scope;
}

void Round::memberSubstitutions(const FunctionDecl& h, const Site& site, std::map<std::string, TokenList>& subst) const {
    const ClassScope scope = *classScope(h);
    const Location at = tokens_[site.start].location;
    const std::string& object = tokens_[site.start].spelling;
    TokenList type(tokens_.begin() + static_cast<std::ptrdiff_t>(site.objectType.begin),
                   tokens_.begin() + static_cast<std::ptrdiff_t>(site.objectType.end));
    std::vector<TokenRange> given;
    if (site.objectType.size() > 1) given = splitAtCommas(site.objectType.begin + 2, site.objectType.end - 1);
    // The class's template parameters: as for a helper's own (emit()), a value in parentheses.
    for (std::size_t i = 0; i < scope.templateParameters.size(); ++i) {
        const HelperTemplateParameter& p = scope.templateParameters[i];
        TokenList value;
        if (!p.isType) value.push_back(punct("(", at));
        if (i < given.size())
            for (std::size_t j = given[i].begin; j < given[i].end; ++j) value.push_back(tokens_[j]);
        else
            copy(p.defaultValue.begin, p.defaultValue.end, subst, value);
        if (!p.isType) value.push_back(punct(")", at));
        subst[p.name] = std::move(value);
    }
    // `a.b`, `S::m`: written without blanks, as people write them.
    const auto joined = [&](TokenList tokens, Token separator, const std::string& member) {
        separator.spaceBefore = false;
        tokens.push_back(std::move(separator));
        tokens.push_back(name(member, at));
        tokens.back().spaceBefore = false;
        return tokens;
    };
    for (const std::string& m : scope.members) subst[m] = joined({name(object, at)}, punct(".", at), m);
    for (const std::string& s : scope.statics) subst[s] = joined(type, punct("::", at), s);
    for (const std::string& t : scope.types) {
        TokenList qualified{name("typename", at)};
        qualified.insert(qualified.end(), type.begin(), type.end());
        subst[t] = joined(std::move(qualified), punct("::", at), t);
    }
}

} // namespace metalcpu::msl::inlining
