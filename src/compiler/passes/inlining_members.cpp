// One inlining round (inlining_round.h): member functions called on an object the kernel
// declares, `loader.load(); mma.multiply(As, Bs);` as MLX's steel GEMM calls its BlockLoader and
// BlockMMA, and static member functions called by a qualifier that names their class,
// `gemm_kernel::gemm_loop(...)`. The object's type or the qualifier may be the kernel's alias or
// a member alias (`using mma_t = typename gemm_kernel::mma_t;`), followed to the class and its
// template arguments. The body, copied into the kernel, names the object where it named the
// class's members (`obj.m`), and the class as the kernel writes it where it named the class's
// statics, types and template parameters.
#include "compiler/passes/inlining_round.h"

#include "compiler/syntax.h"
#include "compiler/template_names.h"

namespace metalcpu::msl::inlining {

namespace {

bool isAccessSpecifier(const Token& t) {
    return t.isIdentifier("public") || t.isIdentifier("private") || t.isIdentifier("protected");
}

/// `a.b`, `S::m`: written without blanks, as people write them.
TokenList joined(TokenList tokens, Token separator, const std::string& member, Location at) {
    separator.spaceBefore = false;
    tokens.push_back(std::move(separator));
    tokens.push_back(syntheticToken(member, TokenKind::Identifier, at));
    tokens.back().spaceBefore = false;
    return tokens;
}

} // namespace

std::optional<std::pair<std::size_t, std::string>> Round::memberObstacle(const FunctionDecl& k, Site& site) const {
    const std::string name = "'" + tokens_[site.callee].spelling + "'";
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
    // Its declaration, a statement of its own: `[thread] T obj(...);`, `T obj{...};` or `T obj;`.
    std::size_t b = declarator;
    while (b > k.bodyOpen + 1 && !tokens_[b - 1].isPunct(";") && !tokens_[b - 1].isPunct("{") &&
           !tokens_[b - 1].isPunct("}"))
        --b;
    if (tokens_[b].isIdentifier("thread")) ++b;
    const std::string declaration = why + "is not declared `T obj(...);`, T a class or an alias of one";
    const Token& after = tokens_[declarator + 1];
    const std::size_t end = (after.isPunct("(") || after.isPunct("{")) ? partner_[declarator + 1] + 1 : declarator + 1;
    if (b >= declarator || end >= tokens_.size() || !tokens_[end].isPunct(";")) return std::pair{declarator, declaration};
    for (std::size_t i = b; i < declarator; ++i)
        if (tokens_[i].isPunct("*") || tokens_[i].isPunct("&") || tokens_[i].isPunct("&&") || tokens_[i].isPunct("["))
            return std::pair{declarator, declaration};
    site.object = site.start;
    site.classType.assign(tokens_.begin() + static_cast<std::ptrdiff_t>(b),
                          tokens_.begin() + static_cast<std::ptrdiff_t>(declarator));
    const std::optional<ClassType> type = resolveClass(k, site.classType, b);
    if (!type) return std::pair{b, why + "has a type that is not a class the front end can follow (" +
                                       tokens_[b].spelling + ")"};
    site.classBody = type->body;
    site.classArguments = type->arguments;
    return std::nullopt;
}

std::optional<std::pair<std::size_t, std::string>> Round::staticObstacle(const FunctionDecl& k, Site& site) const {
    const std::string name = "'" + tokens_[site.callee].spelling + "'";
    site.classType.assign(tokens_.begin() + static_cast<std::ptrdiff_t>(site.start),
                          tokens_.begin() + static_cast<std::ptrdiff_t>(site.callee - 1));
    const std::optional<ClassType> type = resolveClass(k, site.classType, site.start);
    if (!type)
        return std::pair{site.start, "the call of " + name + " is qualified, and not by a class the front end can follow"};
    site.classBody = type->body;
    site.classArguments = type->arguments;
    return std::nullopt;
}

std::size_t Round::classNamed(const std::string& name) const {
    std::size_t body = kNoToken;
    for (const FunctionDecl& f : module_.functions) {
        if (f.enclosingClass != name || f.classBody == kNoToken) continue;
        if (body != kNoToken && body != f.classBody) return kNoToken; // two classes of that name
        body = f.classBody;
    }
    return body;
}

namespace {

/// Tokens [begin, end) of `type` split at the commas outside brackets and angles.
std::vector<TokenList> splitArguments(const TokenList& type, std::size_t begin, std::size_t end) {
    std::vector<TokenList> parts(1);
    int depth = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Token& t = type[i];
        if (t.isPunct("<") || t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) ++depth;
        if (t.isPunct(">") || t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) --depth;
        if (depth == 0 && t.isPunct(",")) {
            parts.emplace_back();
            continue;
        }
        parts.back().push_back(t);
    }
    if (parts.size() == 1 && parts[0].empty()) parts.clear();
    return parts;
}

/// The `>` that closes the `<` at `open` in `type`, counting brackets and angles; `npos` if none.
std::size_t closingAngleIn(const TokenList& type, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < type.size(); ++i) {
        const Token& t = type[i];
        if (t.isPunct("<") || t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) ++depth;
        if (t.isPunct(">") || t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) --depth;
        if (depth == 0) return t.isPunct(">") ? i : std::string::npos;
    }
    return std::string::npos;
}

} // namespace

std::optional<Round::ClassType> Round::resolveClass(const FunctionDecl& k, const TokenList& type, std::size_t before,
                                                    int depth) const {
    if (depth > 8) return std::nullopt;
    std::size_t b = 0, e = type.size();
    while (b < e && (type[b].isIdentifier("thread") || type[b].isIdentifier("const") ||
                     type[b].isIdentifier("typename") || type[b].isPunct("::")))
        ++b;
    while (e > b && type[e - 1].isIdentifier("const")) --e;
    // The last `::` outside angles: what comes before it is the class of a member alias.
    std::size_t lastScope = std::string::npos;
    for (std::size_t i = b; i < e; ++i) {
        if (type[i].isPunct("<")) {
            const std::size_t close = closingAngleIn(type, i);
            if (close == std::string::npos || close >= e) return std::nullopt;
            i = close;
        } else if (type[i].isPunct("(") || type[i].isPunct("[") || type[i].isPunct("{")) {
            return std::nullopt;
        } else if (type[i].isPunct("::")) {
            lastScope = i;
        }
    }
    if (b >= e || !type[b].isIdentifier()) return std::nullopt;
    if (lastScope == std::string::npos) {
        // `S`, `S<args>` or an alias the kernel declares.
        const std::string& name = type[b].spelling;
        if (b + 1 == e) {
            std::size_t alias = kNoToken, definition = kNoToken, definitionEnd = kNoToken;
            for (std::size_t i = k.bodyOpen + 1; i < k.bodyClose; ++i) {
                if (tokens_[i].isIdentifier("using") && tokens_[i + 1].isIdentifier(name) && tokens_[i + 2].isPunct("=")) {
                    if (alias != kNoToken) return std::nullopt; // declared twice: which one is meant
                    alias = i;
                    definition = i + 3;
                } else if (tokens_[i].isIdentifier("typedef")) {
                    std::size_t j = i + 1;
                    while (j < k.bodyClose && !tokens_[j].isPunct(";")) {
                        if (partner_[j] != kNoToken && partner_[j] > j) j = partner_[j];
                        ++j;
                    }
                    if (!tokens_[j - 1].isIdentifier(name)) continue;
                    if (alias != kNoToken) return std::nullopt;
                    alias = i;
                    definition = i + 1;
                    definitionEnd = j - 1;
                }
            }
            if (alias != kNoToken) {
                if (alias > before) return std::nullopt;
                if (definitionEnd == kNoToken) {
                    definitionEnd = definition;
                    while (definitionEnd < k.bodyClose && !tokens_[definitionEnd].isPunct(";")) {
                        if (partner_[definitionEnd] != kNoToken && partner_[definitionEnd] > definitionEnd)
                            definitionEnd = partner_[definitionEnd];
                        ++definitionEnd;
                    }
                }
                const TokenList aliased(tokens_.begin() + static_cast<std::ptrdiff_t>(definition),
                                        tokens_.begin() + static_cast<std::ptrdiff_t>(definitionEnd));
                return resolveClass(k, aliased, alias, depth + 1);
            }
        }
        ClassType out;
        out.body = classNamed(name);
        if (out.body == kNoToken) return std::nullopt;
        if (b + 1 < e) {
            if (!type[b + 1].isPunct("<") || closingAngleIn(type, b + 1) != e - 1) return std::nullopt;
            out.arguments = splitArguments(type, b + 2, e - 1);
        }
        return out;
    }
    // `Q::m`: m a member alias of Q's class, its definition written as the kernel names Q.
    if (lastScope + 2 != e || !type[lastScope + 1].isIdentifier()) return std::nullopt;
    const TokenList qualifier(type.begin() + static_cast<std::ptrdiff_t>(b),
                              type.begin() + static_cast<std::ptrdiff_t>(lastScope));
    const std::optional<ClassType> outer = resolveClass(k, qualifier, before, depth + 1);
    if (!outer) return std::nullopt;
    const std::optional<ClassScope> scope = classScope(outer->body);
    const std::string& member = type[lastScope + 1].spelling;
    if (!scope || !scope->types.count(member)) return std::nullopt;
    // Its definition: `using m = X;` or `typedef X m;` directly in the class body.
    TokenRange definition;
    const std::size_t close = partner_[outer->body];
    for (std::size_t i = outer->body + 1; i < close; ++i) {
        if (partner_[i] != kNoToken && partner_[i] > i && !tokens_[i].isPunct("<")) {
            i = partner_[i];
            continue;
        }
        if (tokens_[i].isIdentifier("using") && tokens_[i + 1].isIdentifier(member) && tokens_[i + 2].isPunct("=")) {
            std::size_t j = i + 3;
            while (j < close && !tokens_[j].isPunct(";")) {
                if (partner_[j] != kNoToken && partner_[j] > j) j = partner_[j];
                ++j;
            }
            definition = {i + 3, j};
            break;
        }
        if (tokens_[i].isIdentifier("typedef")) {
            std::size_t j = i + 1;
            while (j < close && !tokens_[j].isPunct(";")) {
                if (partner_[j] != kNoToken && partner_[j] > j) j = partner_[j];
                ++j;
            }
            if (tokens_[j - 1].isIdentifier(member)) {
                definition = {i + 1, j - 1};
                break;
            }
            i = j;
        }
    }
    if (definition.empty()) return std::nullopt; // a nested class, not an alias
    std::map<std::string, TokenList> subst;
    classSubstitutions(*scope, qualifier, outer->arguments, type[b].location, subst);
    TokenList aliased;
    copy(definition.begin, definition.end, subst, aliased);
    return resolveClass(k, aliased, before, depth + 1);
}

std::optional<ClassScope> Round::classScope(std::size_t open) const {
    if (open == kNoToken || open < 2 || partner_[open] == kNoToken) return std::nullopt;
    // `[template <...>] struct S {`: no bases, no `final`.
    if (!tokens_[open - 1].isIdentifier()) return std::nullopt;
    const std::string& className = tokens_[open - 1].spelling;
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
            if (t.spelling == className) continue; // a constructor
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

void Round::classSubstitutions(const ClassScope& scope, const TokenList& type, const std::vector<TokenList>& arguments,
                               Location at, std::map<std::string, TokenList>& subst) const {
    // The class's template parameters: as for a helper's own (emit()), a value in parentheses.
    for (std::size_t i = 0; i < scope.templateParameters.size(); ++i) {
        const HelperTemplateParameter& p = scope.templateParameters[i];
        TokenList value;
        if (!p.isType) value.push_back(punct("(", at));
        if (i < arguments.size())
            value.insert(value.end(), arguments[i].begin(), arguments[i].end());
        else
            copy(p.defaultValue.begin, p.defaultValue.end, subst, value);
        if (!p.isType) value.push_back(punct(")", at));
        subst[p.name] = std::move(value);
    }
    for (const std::string& s : scope.statics) subst[s] = joined(type, punct("::", at), s, at);
    for (const std::string& t : scope.types) {
        TokenList qualified{name("typename", at)};
        qualified.insert(qualified.end(), type.begin(), type.end());
        subst[t] = joined(std::move(qualified), punct("::", at), t, at);
    }
}

void Round::memberSubstitutions(const FunctionDecl& h, const Site& site, std::map<std::string, TokenList>& subst) const {
    const ClassScope scope = *classScope(h);
    const Location at = tokens_[site.start].location;
    classSubstitutions(scope, site.classType, site.classArguments, at, subst);
    if (site.object == kNoToken) return;
    const std::string& object = tokens_[site.object].spelling;
    for (const std::string& m : scope.members) subst[m] = joined({name(object, at)}, punct(".", at), m, at);
}

} // namespace metalcpu::msl::inlining
