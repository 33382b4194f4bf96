#include "compiler/passes/argument_buffers.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace metalcpu::msl {

namespace {

// The `{` of the class body when `key` (`struct` or `class`) starts a class definition, else
// kNoToken: `struct S {`, `struct S final : Base<T>, Other {`; not `struct S;`, `struct S* p`,
// `enum class E {`.
std::size_t classBodyAfter(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t key) {
    if (key > 0 && tokens[key - 1].isIdentifier("enum")) return kNoToken;
    if (key + 1 >= tokens.size() || !tokens[key + 1].isIdentifier()) return kNoToken;
    for (std::size_t j = key + 2; j < tokens.size(); ++j) {
        const Token& t = tokens[j];
        if (t.isPunct("{")) return j;
        if (t.isPunct("<") && opensTemplateArguments(tokens, j)) {
            j = closingAngle(tokens, partner, j, tokens.size());
            if (j == kNoToken) return kNoToken;
            continue;
        }
        const bool baseClause = t.isIdentifier() || t.isPunct(":") || t.isPunct("::") || t.isPunct(",");
        if (!baseClause) return kNoToken;
    }
    return kNoToken;
}

// Whether declaration [begin, end) of a class body declares data members: not a function, a
// type, an alias, a static member or an assertion.
bool declaresDataMembers(const TokenList& tokens, std::size_t begin, std::size_t end) {
    static constexpr std::string_view kNotData[] = {"using",  "typedef", "static", "friend", "template",
                                                    "enum",   "struct",  "class",  "union",  "static_assert"};
    if (begin >= end) return false;
    for (std::string_view word : kNotData)
        if (tokens[begin].isIdentifier(word)) return false;
    for (std::size_t j = begin; j < end; ++j)
        if (tokens[j].isPunct("(") && !(j > 0 && tokens[j - 1].isIdentifier("id"))) return false;
    return true;
}

// Reads one member declaration [begin, end) into `out`; `next` is the id a member without
// [[id]] gets. Returns whether the declaration carries an [[id(n)]].
bool readMember(const Unit& unit, std::size_t begin, std::size_t end, std::uint32_t& next, ArgumentStruct& out) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    std::size_t nameToken = kNoToken;
    std::optional<long long> id;
    std::uint32_t elements = 1;
    for (std::size_t j = begin; j < end; ++j) {
        const Token& t = tokens[j];
        if (startsAttributeSpec(tokens, j) && partner[j] != kNoToken) {
            AttributeSpec spec = parseAttributeSpec(tokens, partner, j);
            if (const Attribute* a = spec.find("id"))
                id = evaluateInteger(tokens, a->arguments.begin, a->arguments.end);
            j = spec.close;
            continue;
        }
        if (t.isPunct("[") && partner[j] != kNoToken) {
            if (nameToken != kNoToken) {
                const std::optional<long long> bound = evaluateInteger(tokens, j + 1, partner[j]);
                if (bound && *bound > 0) elements *= static_cast<std::uint32_t>(*bound);
            }
            j = partner[j];
            continue;
        }
        if (t.isPunct("=") || t.isPunct("{") || t.isPunct(":") || t.isPunct(",")) break;
        if (t.isPunct("<") && opensTemplateArguments(tokens, j)) {
            const std::size_t close = closingAngle(tokens, partner, j, end);
            if (close == kNoToken) continue;
            // `array<T, N>` holds N elements, each with an id of its own.
            if (j > 0 && tokens[j - 1].isIdentifier("array")) {
                std::size_t comma = close;
                while (comma > j && !tokens[comma].isPunct(",")) --comma;
                const std::optional<long long> n = evaluateInteger(tokens, comma + 1, close);
                if (comma > j && n && *n > 0) elements *= static_cast<std::uint32_t>(*n);
            }
            j = close;
            continue;
        }
        if (t.isIdentifier() && !isCppKeyword(t.spelling) && !isTypeQualifier(t.spelling) &&
            !(j + 1 < end && tokens[j + 1].isPunct("::")))
            nameToken = j;
    }
    if (nameToken == kNoToken) return false;
    const std::uint32_t first = id && *id >= 0 ? static_cast<std::uint32_t>(*id) : next;
    out.members.push_back({tokens[nameToken].spelling, first});
    next = first + elements;
    // The member's type: `sampler`, `metal::sampler`, `sampler s[4]` (not `x::sampler`).
    for (std::size_t j = begin; j < nameToken; ++j) {
        if (!tokens[j].isIdentifier("sampler")) continue;
        const bool qualified = j > begin && tokens[j - 1].isPunct("::");
        if (!qualified || (j >= begin + 2 && tokens[j - 2].isIdentifier("metal"))) out.samplerTypes.push_back(j);
    }
    return id.has_value();
}

// The argument-buffer struct whose body opens at `open`, if its members carry [[id(n)]].
std::optional<ArgumentStruct> readStruct(const Unit& unit, std::size_t key, std::size_t open) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    ArgumentStruct found{tokens[key + 1].spelling, {}, {}};
    bool anyId = false;
    std::uint32_t next = 0;
    std::size_t begin = open + 1;
    const std::size_t close = partner[open];
    for (std::size_t j = begin; j < close; ++j) {
        const Token& t = tokens[j];
        // Access specifiers.
        if ((t.isIdentifier("public") || t.isIdentifier("private") || t.isIdentifier("protected")) && j + 1 < close &&
            tokens[j + 1].isPunct(":")) {
            begin = ++j + 1;
            continue;
        }
        if (t.isPunct("(") || t.isPunct("[")) {
            if (partner[j] != kNoToken) j = partner[j];
            continue;
        }
        if (t.isPunct("{")) {
            // A member function's body ends its declaration; a nested class's or a brace
            // initialiser's does not.
            const bool functionBody = j > begin && (tokens[j - 1].isPunct(")") || tokens[j - 1].isIdentifier("const"));
            if (partner[j] == kNoToken) break;
            j = partner[j];
            if (functionBody) begin = j + 1;
            continue;
        }
        if (t.isPunct(";")) {
            if (declaresDataMembers(tokens, begin, j)) anyId |= readMember(unit, begin, j, next, found);
            begin = j + 1;
        }
    }
    if (!anyId) return std::nullopt;
    return found;
}

} // namespace

std::vector<ArgumentStruct> findArgumentStructs(const Unit& unit) {
    const TokenList& tokens = unit.tokens();
    std::vector<ArgumentStruct> structs;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier("struct") && !tokens[i].isIdentifier("class")) continue;
        const std::size_t open = classBodyAfter(tokens, unit.partner(), i);
        if (open == kNoToken || unit.partner()[open] == kNoToken) continue;
        if (std::optional<ArgumentStruct> s = readStruct(unit, i, open)) structs.push_back(std::move(*s));
    }
    return structs;
}

const ArgumentStruct* argumentStructOf(const std::vector<ArgumentStruct>& structs, const std::string& typeText) {
    // The last name of the type: "device Args&" -> Args, "constant ns::Args*" -> Args.
    std::size_t end = typeText.size();
    while (end > 0 && (typeText[end - 1] == '*' || typeText[end - 1] == '&' || typeText[end - 1] == ' ')) --end;
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(typeText[begin - 1])) || typeText[begin - 1] == '_'))
        --begin;
    const std::string name = typeText.substr(begin, end - begin);
    auto found = std::ranges::find_if(structs, [&](const ArgumentStruct& s) { return s.name == name; });
    return found == structs.end() ? nullptr : &*found;
}

void rewriteArgumentBufferSamplers(PassContext& c) {
    for (const ArgumentStruct& s : findArgumentStructs(c.unit))
        for (std::size_t token : s.samplerTypes) c.edits.replace(token, "sampler_reference");
}

} // namespace metalcpu::msl
