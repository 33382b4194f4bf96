#include "compiler/passes/member_specialisations.h"

#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace metalcpu::msl {

namespace {

/// Whether `f` is declared in a class body directly after `template <>`.
bool isClassScopeSpecialisation(const TokenList& tokens, const FunctionDecl& f) {
    const std::size_t t = f.headerBegin;
    return f.classBody != kNoToken && t + 3 == f.declarationBegin && tokens[t].isIdentifier("template") &&
           tokens[t + 1].isPunct("<") && tokens[t + 2].isPunct(">");
}

/// Texts joined by single spaces, empty ones left out.
std::string joined(std::initializer_list<std::string> pieces) {
    std::string out;
    for (const std::string& p : pieces) {
        if (p.empty()) continue;
        if (!out.empty()) out += ' ';
        out += p;
    }
    return out;
}

/// One parameter of the primary template's own template header.
struct TemplateParameter {
    std::string name;
    bool isType = false;      ///< `typename T` / `class T`, else a value
    TokenRange defaultValue;  ///< after the `=`; empty when there is none
};

/// The primary's template parameters, or nothing when one is a pack, a template template
/// parameter or unnamed (the rewrite could not name or pin it).
std::optional<std::vector<TemplateParameter>> templateParameters(const Unit& unit, const FunctionDecl& primary) {
    const TokenList& tokens = unit.tokens();
    std::vector<TemplateParameter> out;
    const TokenRange all = primary.templateParameters;
    for (TokenRange p : splitParameters(tokens, unit.partner(), all.begin - 1, all.end)) {
        const std::size_t equals = parameterDefault(tokens, unit.partner(), p);
        for (std::size_t k = p.begin; k < equals; ++k)
            if (tokens[k].isPunct("...")) return std::nullopt;
        if (tokens[p.begin].isIdentifier("template") || equals < p.begin + 2) return std::nullopt;
        const Token& name = tokens[equals - 1];
        if (!name.isIdentifier() || isCppKeyword(name.spelling)) return std::nullopt;
        TemplateParameter parameter;
        parameter.name = name.spelling;
        parameter.isType = equals == p.begin + 2 &&
                           (tokens[p.begin].isIdentifier("typename") || tokens[p.begin].isIdentifier("class"));
        if (equals < p.end) parameter.defaultValue = {equals + 1, p.end};
        out.push_back(std::move(parameter));
    }
    return out;
}

/// Whether template parameter `name` is a whole type in one of the parameters (`T a`,
/// `const thread T& a`, `T* p`): not inside brackets or template arguments and not part of a
/// qualified name, so the function type pins it.
bool appearsAsWholeType(const TokenList& tokens, const std::vector<std::size_t>& partner,
                        const std::vector<TokenRange>& parameters, const std::string& name) {
    for (TokenRange p : parameters) {
        for (std::size_t k = p.begin; k < p.end; ++k) {
            const Token& t = tokens[k];
            if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[k] != kNoToken) {
                k = partner[k];
            } else if (t.isPunct("<") && opensTemplateArguments(tokens, k)) {
                const std::size_t close = closingAngle(tokens, partner, k, p.end);
                if (close == kNoToken) break;
                k = close;
            } else if (t.isIdentifier(name) && !(k > p.begin && tokens[k - 1].isPunct("::")) &&
                       !(k + 1 < p.end && tokens[k + 1].isPunct("::"))) {
                return true;
            }
        }
    }
    return false;
}

/// What the rewrite of one specialisation needs: its primary and both parameter lists.
struct Specialisation {
    const FunctionDecl& function;
    const FunctionDecl* primary = nullptr;
    std::vector<TokenRange> parameters;        ///< the specialisation's
    std::vector<TokenRange> primaryParameters; ///< the primary's
    TokenRange arguments;                      ///< the explicit template arguments, `<` and `>` included
};

/// The one member template of `s`'s class, declared before it, that it can specialise: same
/// name, same number of parameters. Nothing when there is none or more than one.
const FunctionDecl* primaryOf(const PassContext& c, const FunctionDecl& s, std::size_t parameterCount) {
    const TokenList& tokens = c.unit.tokens();
    const FunctionDecl* found = nullptr;
    for (const FunctionDecl& q : c.unit.module().functions) {
        if (q.classBody != s.classBody || q.name != s.name || q.headerBegin >= s.headerBegin || !q.isTemplate ||
            q.parametersOpen == kNoToken || q.parametersClose == kNoToken || q.templateParameters.empty() ||
            isClassScopeSpecialisation(tokens, q) || c.edits.isRewritten(q.headerBegin))
            continue;
        if (splitParameters(tokens, c.unit.partner(), q.parametersOpen, q.parametersClose).size() != parameterCount)
            continue;
        if (found) return nullptr;
        found = &q;
    }
    return found;
}

/// The rewrite of `s` into a constrained overload of its primary (see the header), as the
/// text of its template header, its parameter list and nothing for its explicit arguments;
/// nothing when the rewrite cannot pin the specialisation's arguments.
struct ConstrainedText {
    std::string header;
    std::string parameters;
};

std::optional<ConstrainedText> constrainedOverload(const PassContext& c, const Specialisation& s) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    const FunctionDecl& f = s.function;
    const std::optional<std::vector<TemplateParameter>> parameters = templateParameters(c.unit, *s.primary);
    if (!parameters) return std::nullopt;

    // The specialisation is now inside the scope of the primary's template parameters: none
    // of their names may mean something else in it.
    std::set<std::string, std::less<>> names;
    for (const TemplateParameter& p : *parameters) names.insert(p.name);
    for (std::size_t k = f.declarationBegin; k < f.declarationEnd; ++k)
        if (tokens[k].isIdentifier() && names.contains(tokens[k].spelling) &&
            c.unit.role(k) != TokenRole::Member && c.unit.role(k) != TokenRole::QualifiedPart)
            return std::nullopt;

    std::vector<TokenRange> arguments;
    if (!s.arguments.empty())
        arguments = splitParameters(tokens, partner, s.arguments.begin, s.arguments.end - 1);
    if (arguments.size() > parameters->size()) return std::nullopt;
    std::vector<TokenRange> primaryTypes; // the primary's parameters without their defaults
    for (TokenRange p : s.primaryParameters) primaryTypes.push_back({p.begin, parameterDefault(tokens, partner, p)});

    std::vector<std::string> constraints;
    const auto pin = [&](const TemplateParameter& p, const std::string& value) {
        constraints.push_back(p.isType ? "::metalcpu_kernel::same_type<" + p.name + ", " + value + ">"
                                       : "(" + p.name + " == (" + value + "))");
    };
    for (std::size_t i = 0; i < parameters->size(); ++i) {
        const TemplateParameter& p = (*parameters)[i];
        if (i < arguments.size())
            pin(p, outputText(tokens, arguments[i].begin, arguments[i].end));
        else if (appearsAsWholeType(tokens, partner, primaryTypes, p.name))
            continue; // the function type below pins it
        else if (!p.defaultValue.empty())
            pin(p, outputText(tokens, p.defaultValue.begin, p.defaultValue.end));
        else
            return std::nullopt;
    }
    std::string primaryType, ownType, list;
    for (std::size_t i = 0; i < s.parameters.size(); ++i) {
        const TokenRange mine = s.parameters[i], theirs = s.primaryParameters[i];
        const std::string separator = i == 0 ? "" : ", ";
        primaryType += separator + outputText(tokens, primaryTypes[i].begin, primaryTypes[i].end);
        ownType += separator + outputText(tokens, mine.begin, mine.end);
        // The primary's parameter with the specialisation's name (its body uses that name).
        const std::size_t name = parameterName(tokens, partner, mine),
                          primaryName = parameterName(tokens, partner, theirs);
        const std::string nameText = name == kNoToken ? std::string() : outputText(tokens, name, name + 1);
        if (primaryName != kNoToken) {
            list += separator + joined({outputText(tokens, theirs.begin, primaryName), nameText,
                                        outputText(tokens, primaryName + 1, theirs.end)});
            continue;
        }
        // An unnamed parameter of the primary takes the name after its type, which is simple
        // enough to have its name last (no `(*)(...)`, no array bound).
        const std::size_t equals = primaryTypes[i].end;
        for (std::size_t k = theirs.begin; k < equals && !nameText.empty(); ++k)
            if (tokens[k].isPunct("(") || tokens[k].isPunct("[")) return std::nullopt;
        list += separator + joined({outputText(tokens, theirs.begin, equals), nameText,
                                    outputText(tokens, equals, theirs.end)});
    }
    constraints.push_back("::metalcpu_kernel::same_type<void(" + primaryType + "), void(" + ownType + ")>");
    std::string header = "template <" + outputText(tokens, s.primary->templateParameters.begin,
                                                    s.primary->templateParameters.end) +
                         "> requires (";
    for (std::size_t i = 0; i < constraints.size(); ++i) header += (i == 0 ? "" : " && ") + constraints[i];
    header += ")";
    return ConstrainedText{std::move(header), "(" + list + ")"};
}

/// The first call anywhere in the unit that names `f`'s template arguments (`f<T>(`,
/// `s.f<T>(`, `operator()<T>(`), or kNoToken. By name: another class's `f` counts too.
std::size_t explicitArgumentCall(const Unit& unit, const FunctionDecl& f, const std::set<std::size_t>& declared) {
    const TokenList& tokens = unit.tokens();
    std::size_t first = f.nameToken;
    while (first > f.declarationBegin && !tokens[first].isIdentifier("operator") && f.name.starts_with("operator"))
        --first;
    const std::size_t length = f.nameToken - first + 1;
    for (std::size_t k = 0; k + length < tokens.size(); ++k) {
        bool same = true;
        for (std::size_t j = 0; j < length && same; ++j) same = tokens[k + j].spelling == tokens[first + j].spelling;
        const std::size_t open = k + length;
        if (!same || declared.contains(open - 1) || !tokens[open].isPunct("<")) continue;
        const std::size_t close = closingAngle(tokens, unit.partner(), open, tokens.size());
        if (close != kNoToken && close + 1 < tokens.size() && tokens[close + 1].isPunct("(")) return k;
    }
    return kNoToken;
}

} // namespace

void rewriteMemberSpecialisations(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    std::set<std::size_t> declared; // the names of declarations, which are not calls
    for (const FunctionDecl& f : c.unit.module().functions) declared.insert(f.nameToken);
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (!isClassScopeSpecialisation(tokens, f) || f.parametersOpen == kNoToken || f.parametersClose == kNoToken)
            continue;
        // address-space-overloads erases the overloads it collapses whole: nothing of this
        // declaration prints any more.
        const std::size_t t = f.headerBegin;
        if (c.edits.isRewritten(t)) continue;
        Specialisation s{f, nullptr, {}, {}, {}};
        s.parameters = splitParameters(tokens, partner, f.parametersOpen, f.parametersClose);
        const std::size_t open = f.nameToken + 1;
        if (open < f.parametersOpen && tokens[open].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, open, f.parametersOpen);
            if (close != kNoToken) s.arguments = {open, close + 1};
        }
        s.primary = primaryOf(c, f, s.parameters.size());
        if (s.primary)
            s.primaryParameters = splitParameters(tokens, partner, s.primary->parametersOpen, s.primary->parametersClose);
        if (const std::optional<ConstrainedText> text = s.primary ? constrainedOverload(c, s) : std::nullopt) {
            c.edits.replace(TokenRange{t, t + 3}, text->header);
            if (!s.arguments.empty()) c.edits.takeOver(s.arguments, "");
            c.edits.takeOver(TokenRange{f.parametersOpen, f.parametersClose + 1}, text->parameters);
            continue;
        }
        // An ordinary member: right for every call that deduces its arguments.
        c.edits.erase(TokenRange{t, t + 3});
        if (!s.arguments.empty()) c.edits.takeOver(s.arguments, "");
        const std::size_t call = explicitArgumentCall(c.unit, f, declared);
        if (call == kNoToken) continue;
        const std::string name = "'" + f.name + "'";
        c.diagnostics.error(tokens[f.nameToken].location,
                            "this explicit specialisation of member template " + name +
                                " is reached only by calls that deduce its template arguments (metalcpu cannot "
                                "tell which arguments it specialises: write them out after its name)");
        c.diagnostics.note(tokens[call].location, "a call naming the template arguments of " + name + " is here");
    }
}

} // namespace metalcpu::msl
