// One inlining round (inlining_round.h): what the kernel and the helper declare.
#include "compiler/passes/inlining_round.h"

#include "compiler/syntax.h"
#include "compiler/template_names.h"

namespace metalcpu::msl::inlining {

std::set<std::string> Round::declaredNames(std::size_t begin, std::size_t end) const {
    std::set<std::string> names;
    for (std::size_t i = begin; i < end; ++i)
        if (unit_.role(i) == TokenRole::Declarator) names.insert(tokens_[i].spelling);
    return names;
}

std::string Round::typeText(const TokenList& tokens, std::size_t begin, std::size_t end,
                     const std::vector<bool>* attribute) const {
    std::string text;
    for (std::size_t i = begin; i < end; ++i) {
        if ((attribute && (*attribute)[i - begin]) || tokens[i].isIdentifier("const")) continue;
        text += tokens[i].spelling + " ";
    }
    return text;
}

bool Round::mayChange(std::size_t i, bool throughAlias) const {
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

std::map<std::string, std::string> Round::unchangedParameters(const FunctionDecl& k) const {
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

std::vector<TokenRange> Round::splitAtCommas(std::size_t begin, std::size_t end) const {
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

std::optional<std::vector<HelperTemplateParameter>> Round::templateParameters(const FunctionDecl& f) const {
    if (!f.isTemplate) return std::vector<HelperTemplateParameter>{};
    return templateParameters(f.templateParameters);
}

std::optional<std::vector<HelperTemplateParameter>> Round::templateParameters(TokenRange header) const {
    std::vector<HelperTemplateParameter> out;
    for (TokenRange r : splitAtCommas(header.begin, header.end)) {
        if (r.empty()) return std::nullopt;
        HelperTemplateParameter p;
        std::size_t end = r.end;
        for (std::size_t i = r.begin; i < r.end; ++i)
            if (tokens_[i].isPunct("...") || tokens_[i].isIdentifier("template")) return std::nullopt;
        for (std::size_t i = r.begin; i < r.end; ++i) {
            if (partner_[i] != kNoToken && partner_[i] > i) i = partner_[i]; // a function type's parameters
            else if (tokens_[i].isPunct("=")) {
                end = i;
                break;
            }
        }
        if (end == r.begin) return std::nullopt;
        if (std::optional<std::size_t> pointer = functionPointerName(r.begin, end)) {
            p.name = tokens_[*pointer].spelling; // `void (*deq)(device const q_t*, short)`
        } else {
            if (!tokens_[end - 1].isIdentifier()) return std::nullopt;
            p.name = tokens_[end - 1].spelling;
            p.isType = tokens_[r.begin].isIdentifier("typename") || tokens_[r.begin].isIdentifier("class");
            if (end - 1 == r.begin) return std::nullopt; // no kind written
        }
        if (end < r.end) p.defaultValue = {end + 1, r.end};
        out.push_back(std::move(p));
    }
    return out;
}

std::optional<std::size_t> Round::functionPointerName(std::size_t begin, std::size_t end) const {
    // `R (*name)(params)`: the list's `)` last, after the declarator's `(* name )`.
    if (end - begin < 6 || !tokens_[end - 1].isPunct(")")) return std::nullopt;
    const std::size_t list = partner_[end - 1];
    if (list == kNoToken || list < begin + 4 || !tokens_[list - 1].isPunct(")")) return std::nullopt;
    const std::size_t group = partner_[list - 1];
    if (group == kNoToken || group + 3 != list - 1 || !tokens_[group + 1].isPunct("*") ||
        !tokens_[group + 2].isIdentifier())
        return std::nullopt;
    return group + 2;
}

std::optional<std::vector<HelperParameter>> Round::parameters(const FunctionDecl& f) const {
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

void Round::deduceTemplateArguments(const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ,
                                    Site& site) const {
    const std::size_t given = templateArguments(site).size();
    std::set<std::string> open;
    for (std::size_t i = given; i < templ.size(); ++i) open.insert(templ[i].name);
    if (open.empty()) return;
    const std::optional<std::vector<HelperParameter>> params = parameters(h);
    if (!params) return;
    const std::vector<TokenRange> args = splitAtCommas(site.open + 1, partner_[site.open]);
    std::map<std::string, TokenList> deduced;
    for (std::size_t p = 0; p < params->size() && p < args.size(); ++p) {
        // The parameter's type, `[const] [thread] C<P, ...>`, and the argument, `C<a, ...>{...}`.
        const HelperParameter& param = (*params)[p];
        std::size_t b = param.tokens.begin;
        while (b < param.name && (unit_.role(b) == TokenRole::Attribute || tokens_[b].isIdentifier("const") ||
                                  tokens_[b].isIdentifier("thread")))
            ++b;
        if (param.reference || param.pointer || b + 2 >= param.name || !tokens_[b].isIdentifier() ||
            !tokens_[b + 1].isPunct("<") || closingAngle(tokens_, partner_, b + 1, param.name) != param.name - 1)
            continue;
        const TokenRange a = args[p];
        if (a.size() < 4 || !tokens_[a.begin].isIdentifier(tokens_[b].spelling) || !tokens_[a.begin + 1].isPunct("<"))
            continue;
        const std::size_t close = closingAngle(tokens_, partner_, a.begin + 1, a.end);
        if (close == kNoToken || close + 1 >= a.end || !(tokens_[close + 1].isPunct("{") || tokens_[close + 1].isPunct("(")) ||
            partner_[close + 1] + 1 != a.end)
            continue;
        const std::vector<TokenRange> pattern = splitAtCommas(b + 2, param.name - 1);
        const std::vector<TokenRange> values = splitAtCommas(a.begin + 2, close);
        if (pattern.size() != values.size()) continue;
        for (std::size_t i = 0; i < pattern.size(); ++i) {
            if (pattern[i].size() != 1 || !open.count(tokens_[pattern[i].begin].spelling)) continue;
            TokenList value(tokens_.begin() + static_cast<std::ptrdiff_t>(values[i].begin),
                            tokens_.begin() + static_cast<std::ptrdiff_t>(values[i].end));
            const std::string& parameter = tokens_[pattern[i].begin].spelling;
            auto [at, inserted] = deduced.emplace(parameter, value);
            if (!inserted && typeText(at->second, 0, at->second.size(), nullptr) != typeText(value, 0, value.size(), nullptr))
                return; // two arguments disagree: the call does not compile
        }
    }
    site.deduced = std::move(deduced);
}

std::vector<TokenRange> Round::templateArguments(const Site& site) const {
    if (!site.hasTemplateArguments) return {};
    return splitAtCommas(site.templateArguments.begin, site.templateArguments.end);
}

bool Round::calledInBody(const FunctionDecl& h, const std::string& name) const {
    for (std::size_t i = h.bodyOpen + 1; i < h.bodyClose; ++i)
        if (tokens_[i].isIdentifier(name) && unit_.isUnqualifiedName(i) && tokens_[i + 1].isPunct("("))
            return true;
    return false;
}

TokenRange Round::returnType(const FunctionDecl& h) const {
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

} // namespace metalcpu::msl::inlining
