#include "compiler/template_names.h"

#include "compiler/syntax.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace metalcpu::msl {

namespace {

using NameSet = std::set<std::string, std::less<>>;

bool isKeyword(const Token& t) { return isCppKeyword(t.spelling); }

/// Whether the `{` at `open` opens a scope whose declarations outlive it: a namespace, class or
/// enumeration body (its head, back to the previous `;`, `{` or `}`, names one outside any
/// template parameter list), rather than a function body or another block.
bool opensOpenScope(const TokenList& tokens, std::size_t open) {
    int angles = 0;
    for (std::size_t k = open; k-- > 0;) {
        const Token& t = tokens[k];
        if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
        // Walking backwards: a `>` opens a template parameter list, its `<` closes it.
        if (t.isPunct(">")) ++angles;
        else if (t.isPunct("<") && angles > 0) --angles;
        else if (angles == 0 && (t.isIdentifier("namespace") || t.isIdentifier("struct") || t.isIdentifier("class") ||
                                 t.isIdentifier("union") || t.isIdentifier("enum")))
            return true;
    }
    return false;
}

/// Whether the identifier at `i` declares a constant: it follows a type (a name, a type
/// keyword, `auto` or the `>` of template arguments), an initialiser follows it (`=` or `{`),
/// and its declaration, back to the previous `;`, `{` or `}`, says `constexpr`, `const` or
/// `constant` (a parameter, or a later declarator of a list, is not one).
bool declaresConstant(const TokenList& tokens, std::size_t i) {
    if (i == 0 || i + 1 >= tokens.size() || isKeyword(tokens[i])) return false;
    const Token& next = tokens[i + 1];
    const Token& prev = tokens[i - 1];
    if (!next.isPunct("=") && !next.isPunct("{")) return false;
    if (!prev.isPunct(">") && !(prev.isIdentifier() && (!isKeyword(prev) || isTypeKeyword(prev.spelling))))
        return false;
    bool constant = false;
    for (std::size_t k = i; k-- > 0;) {
        const Token& t = tokens[k];
        if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}")) break;
        if (t.isPunct("(") || t.isPunct(",")) return false;
        constant = constant || t.isIdentifier("constexpr") || t.isIdentifier("const") || t.isIdentifier("constant");
    }
    return constant;
}

/// A constant's name and the tokens [begin, end) where it is in scope.
struct ConstantScope {
    std::string name;
    std::size_t begin;
    std::size_t end;
};

/// Every constant the tokens declare, with its scope.
std::vector<ConstantScope> constants(const TokenList& tokens, const std::vector<std::size_t>& partner) {
    std::vector<ConstantScope> out;
    std::vector<std::size_t> blocks; // the `}` of each enclosing block, innermost last
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        while (!blocks.empty() && i > blocks.back()) blocks.pop_back();
        if (t.isPunct("{") && partner[i] != kNoToken && !opensOpenScope(tokens, i)) {
            blocks.push_back(partner[i]);
        } else if (t.isIdentifier() && declaresConstant(tokens, i)) {
            out.push_back({t.spelling, i, blocks.empty() ? tokens.size() : blocks.back()});
        }
    }
    return out;
}

/// The names a unit's template headers declare: non-type parameters, type parameters, and
/// templates (the declared template's own name, template template parameters).
struct TemplateHeaderNames {
    NameSet nonType;
    NameSet types;
    NameSet templates;
};

/// Whether the name at `i` is a dependent name without `template`: after `T::` (T a type
/// template parameter known so far), after `>::`, or after another such name (`T::U::x`).
bool isDependentName(const TokenList& tokens, const NameSet& typeParameters, std::size_t i) {
    if (i < 2 || !tokens[i].isIdentifier() || isKeyword(tokens[i]) || !tokens[i - 1].isPunct("::")) return false;
    const Token& qualifier = tokens[i - 2];
    return qualifier.isPunct(">") || (qualifier.isIdentifier() && typeParameters.contains(qualifier.spelling)) ||
           isDependentName(tokens, typeParameters, i - 2);
}

TemplateHeaderNames templateHeaderNames(const TokenList& tokens) {
    TemplateHeaderNames names;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier("template") || !tokens[i + 1].isPunct("<")) continue;
        // The parameter list, parameter by parameter: a `<` opens a nested list after a name
        // not known to be a value (the defaults of later parameters may compare earlier ones
        // or constants); brackets hide their contents from the angle count.
        int angles = 1, brackets = 0;
        std::size_t param = i + 2, equals = kNoToken, j = i + 2;
        const auto finish = [&](std::size_t end) {
            const std::size_t nameEnd = equals == kNoToken ? end : equals;
            if (nameEnd < param + 2 || !tokens[nameEnd - 1].isIdentifier() || isKeyword(tokens[nameEnd - 1])) return;
            const Token& first = tokens[param];
            const std::string& name = tokens[nameEnd - 1].spelling;
            if (first.isIdentifier("template")) names.templates.insert(name);
            else if (first.isIdentifier("typename") || first.isIdentifier("class")) names.types.insert(name);
            else names.nonType.insert(name);
        };
        for (; j < tokens.size(); ++j) {
            const Token& t = tokens[j];
            if (t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) ++brackets;
            else if (t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) --brackets;
            else if (t.isPunct(";") || brackets < 0) break;
            if (brackets != 0) continue;
            if (t.isPunct("<")) {
                const Token& before = tokens[j - 1];
                if (before.isIdentifier() && (!isKeyword(before) || before.is("template")) && !before.neverTemplate &&
                    !names.nonType.contains(before.spelling) && !isDependentName(tokens, names.types, j - 1))
                    ++angles;
            } else if (t.isPunct(">")) {
                if (--angles == 0) break;
            } else if (angles == 1 && t.isPunct(",")) {
                finish(j);
                param = j + 1;
                equals = kNoToken;
            } else if (angles == 1 && t.isPunct("=") && equals == kNoToken) {
                equals = j;
            }
        }
        if (j >= tokens.size() || !tokens[j].isPunct(">")) continue;
        finish(j);
        // The template's own name: after class/struct/union/using, else the last name before
        // the first `(`, `{`, `;` or `=` (a function or variable template).
        std::size_t last = kNoToken;
        for (std::size_t k = j + 1; k < tokens.size(); ++k) {
            const Token& t = tokens[k];
            if (t.isIdentifier("class") || t.isIdentifier("struct") || t.isIdentifier("union") || t.isIdentifier("using")) {
                if (k + 1 < tokens.size() && tokens[k + 1].isIdentifier()) last = k + 1;
                break;
            }
            if (t.isPunct("(") || t.isPunct("{") || t.isPunct(";") || t.isPunct("=") || t.isPunct("<")) break;
            if (t.isIdentifier() && !isKeyword(t)) last = k;
        }
        if (last != kNoToken) names.templates.insert(tokens[last].spelling);
    }
    for (const std::string& name : names.templates) {
        names.nonType.erase(name);
        names.types.erase(name);
    }
    return names;
}

/// Marks the uses of each constant within its scope: one sweep over the scopes' starts and
/// ends, counting per name how many of its scopes are open.
void markConstants(TokenList& tokens, const std::vector<ConstantScope>& scopes) {
    struct Event {
        std::size_t at;
        int change;
        const std::string* name;
    };
    std::vector<Event> events;
    for (const ConstantScope& s : scopes) {
        events.push_back({s.begin, 1, &s.name});
        events.push_back({s.end, -1, &s.name});
    }
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.at < b.at; });
    std::map<std::string, int, std::less<>> open;
    std::size_t next = 0;
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        for (; next < events.size() && events[next].at <= k; ++next) open[*events[next].name] += events[next].change;
        Token& t = tokens[k];
        if (!t.isIdentifier()) continue;
        const auto it = open.find(t.spelling);
        if (it != open.end() && it->second > 0) t.neverTemplate = true;
    }
}

} // namespace

void markNonTemplateNames(TokenList& tokens, const std::vector<std::size_t>& partner) {
    // Constants first: the template headers' own angle counting reads them.
    markConstants(tokens, constants(tokens, partner));
    const TemplateHeaderNames names = templateHeaderNames(tokens);
    // A constant that is also a template somewhere keeps opening lists, as before.
    for (Token& t : tokens)
        if (t.neverTemplate && names.templates.contains(t.spelling)) t.neverTemplate = false;
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        Token& t = tokens[k];
        if (!t.isIdentifier() || names.templates.contains(t.spelling)) continue;
        if (names.nonType.contains(t.spelling) || isDependentName(tokens, names.types, k)) t.neverTemplate = true;
    }
}

} // namespace metalcpu::msl
