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
        if (tokens[j].isPunct("(") && !(j > 0 && (tokens[j - 1].isIdentifier("id") || tokens[j - 1].isIdentifier("alignas"))))
            return false;
    return true;
}

// A struct while it is read: whether a member carries [[id(n)]] or holds a resource (a texture
// or a sampler, which only an argument buffer can hold in memory), and whether its members as
// read are all it has (no base class, no bit-field, one name per declaration, no anonymous or
// elaborated member), which a reflected struct type needs.
struct Candidate {
    ArgumentStruct found;
    bool anyId = false;
    bool anyResource = false;
    bool describable = true;
    std::uint32_t span = 0; ///< ids it takes as a member of another struct: its highest + 1
};

bool isResourceType(const Token& t) {
    return t.isIdentifier("sampler") || (t.isIdentifier() && (t.spelling.starts_with("texture") ||
                                                              t.spelling.starts_with("depth")));
}

// The type a pointer in [begin, end) points at: the last name before the first `*`
// (`const device Inner*`, `spvUnsafeArray<device Inner*, 2>`), or "".
std::string pointeeName(const TokenList& tokens, std::size_t begin, std::size_t end) {
    for (std::size_t j = begin; j < end; ++j) {
        if (!tokens[j].isPunct("*")) continue;
        for (std::size_t k = j; k-- > begin;) {
            const Token& t = tokens[k];
            if (t.isIdentifier() && isTypeQualifier(t.spelling)) continue;
            return t.isIdentifier() && !isCppKeyword(t.spelling) ? t.spelling : ""; // not `float*`, `T<U>*`
        }
        return "";
    }
    return "";
}

// Reads one member declaration [begin, end) into `out`; `next` is the id a member without
// [[id]] gets. `earlier` holds the structs read before, whose ids a member of their type spans.
void readMember(const Unit& unit, std::size_t begin, std::size_t end, std::uint32_t& next,
                const std::vector<Candidate>& earlier, Candidate& out) {
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
        if (t.isPunct(":") || t.isPunct(",")) out.describable = false; // a bit-field, several names
        if (t.isPunct("=") || t.isPunct("{") || t.isPunct(":") || t.isPunct(",")) break;
        if (t.isPunct("<") && opensTemplateArguments(tokens, j)) {
            const std::size_t close = closingAngle(tokens, partner, j, end);
            if (close == kNoToken) continue;
            // `array<T, N>` (and SPIRV-Cross's `spvUnsafeArray<T, N>`) holds N elements, each
            // with an id of its own.
            if (j > 0 && (tokens[j - 1].isIdentifier("array") || tokens[j - 1].isIdentifier("spvUnsafeArray"))) {
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
    if (nameToken == kNoToken) return;
    const std::uint32_t first = id && *id >= 0 ? static_cast<std::uint32_t>(*id) : next;
    const std::string pointee = pointeeName(tokens, begin, nameToken);
    const Token& type = tokens[nameToken - (nameToken > begin ? 1 : 0)];
    const bool named = nameToken > begin && type.isIdentifier() && !isCppKeyword(type.spelling) &&
                       !isTypeQualifier(type.spelling);
    out.found.members.push_back({tokens[nameToken].spelling, first, pointee, named ? type.spelling : ""});
    // A member of an argument-buffer struct's type takes that struct's ids, element by element
    // (Metal's `My_Indexed_AB abX; // abX = id(0); texA = id(1); texB = id(3)`).
    std::uint32_t perElement = 1;
    if (pointee.empty() && nameToken > begin && tokens[nameToken - 1].isIdentifier())
        for (const Candidate& c : earlier)
            if (c.found.name == tokens[nameToken - 1].spelling && (c.anyId || c.anyResource))
                perElement = std::max<std::uint32_t>(c.span, 1);
    next = first + elements * perElement;
    out.span = std::max(out.span, next);
    out.anyId |= id.has_value();
    for (std::size_t j = begin; j < nameToken; ++j) {
        if (!isResourceType(tokens[j])) continue;
        if (pointee.empty()) out.anyResource = true;
        // The member's type: `sampler`, `metal::sampler`, `sampler s[4]` (not `x::sampler`).
        if (!tokens[j].isIdentifier("sampler")) continue;
        const bool qualified = j > begin && tokens[j - 1].isPunct("::");
        if (!qualified || (j >= begin + 2 && tokens[j - 2].isIdentifier("metal"))) out.found.samplerTypes.push_back(j);
    }
}

// Whether declaration [begin, end), which declaresDataMembers() passed over, still declares a
// data member: `struct { float a; } s;`, `union { ... };`, `struct Inner s;` (not `struct Inner
// { ... };` nor `struct Inner;`, which only declare a type).
bool declaresUnreadMember(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t begin,
                          std::size_t end) {
    if (begin >= end) return false;
    const Token& key = tokens[begin];
    if (!key.isIdentifier("struct") && !key.isIdentifier("class") && !key.isIdentifier("union")) return false;
    for (std::size_t j = begin + 1; j < end; ++j)
        if (tokens[j].isPunct("{"))
            return !(j == begin + 2 && tokens[begin + 1].isIdentifier()) || partner[j] == kNoToken ||
                   partner[j] + 1 < end;
    return end - begin > 2;
}

// The struct whose body opens at `open`, with its members and what makes it an argument buffer.
Candidate readStruct(const Unit& unit, std::size_t key, std::size_t open, const std::vector<Candidate>& earlier) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    Candidate found{ArgumentStruct{tokens[key + 1].spelling, {}, {}}};
    // A base class's members are not read.
    for (std::size_t j = key + 2; j < open; ++j)
        if (tokens[j].isPunct(":")) found.describable = false;
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
            if (declaresDataMembers(tokens, begin, j)) readMember(unit, begin, j, next, earlier, found);
            else if (declaresUnreadMember(tokens, partner, begin, j)) found.describable = false;
            begin = j + 1;
        }
    }
    return found;
}

// The names kernels' parameters point or refer to (`constant Args& a [[buffer(0)]]`,
// `device Args const* a`): a struct of resources they point at is an argument buffer.
std::vector<std::string> kernelPointees(const Unit& unit) {
    const TokenList& tokens = unit.tokens();
    std::vector<std::string> names;
    for (const FunctionDecl& f : unit.module().functions) {
        if (!f.isKernel || f.parametersOpen == kNoToken || f.parametersClose == kNoToken) continue;
        for (std::size_t j = f.parametersOpen + 1; j < f.parametersClose; ++j) {
            if (!tokens[j].isPunct("*") && !tokens[j].isPunct("&")) continue;
            std::size_t k = j - 1;
            if (tokens[k].isIdentifier("const") && k > f.parametersOpen + 1) --k;
            if (tokens[k].isIdentifier()) names.push_back(tokens[k].spelling);
        }
    }
    return names;
}

// Every struct and class of the unit with a body, in order.
std::vector<Candidate> readStructs(const Unit& unit) {
    const TokenList& tokens = unit.tokens();
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        if (!tokens[i].isIdentifier("struct") && !tokens[i].isIdentifier("class")) continue;
        const std::size_t open = classBodyAfter(tokens, unit.partner(), i);
        if (open == kNoToken || unit.partner()[open] == kNoToken) continue;
        candidates.push_back(readStruct(unit, i, open, candidates));
    }
    return candidates;
}

} // namespace

std::vector<ArgumentStruct> findArgumentStructs(const Unit& unit) {
    std::vector<Candidate> candidates = readStructs(unit);
    // A struct with an [[id(n)]] member is an argument buffer wherever it is (Apple's rule); one
    // whose ids are all implied is one when it holds a resource and a kernel's buffer, or a
    // pointer member of an argument buffer, points at it (Metal 3's argument buffers).
    std::vector<std::string> pointees = kernelPointees(unit);
    std::vector<bool> accepted(candidates.size());
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            if (accepted[c]) continue;
            const Candidate& s = candidates[c];
            if (!s.anyId && !(s.anyResource && std::ranges::find(pointees, s.found.name) != pointees.end())) continue;
            accepted[c] = grew = true;
            for (const ArgumentMember& m : s.found.members)
                if (!m.pointee.empty()) pointees.push_back(m.pointee);
        }
    }
    std::vector<ArgumentStruct> structs;
    for (std::size_t c = 0; c < candidates.size(); ++c)
        if (accepted[c]) structs.push_back(std::move(candidates[c].found));
    return structs;
}

std::vector<ArgumentStruct> findDataStructs(const Unit& unit) {
    std::vector<Candidate> candidates = readStructs(unit);
    std::vector<ArgumentStruct> structs;
    for (Candidate& c : candidates) {
        const auto sameName = [&](const Candidate& other) { return other.found.name == c.found.name; };
        if (c.describable && std::ranges::count_if(candidates, sameName) == 1) structs.push_back(std::move(c.found));
    }
    return structs;
}

const ArgumentStruct* argumentStructOf(const std::vector<ArgumentStruct>& structs, const std::string& typeText) {
    // The last name of the type: "device Args&" -> Args, "constant ns::Args*" -> Args.
    std::size_t end = typeText.size();
    for (bool stripped = true; stripped;) {
        stripped = false;
        while (end > 0 && (typeText[end - 1] == '*' || typeText[end - 1] == '&' || typeText[end - 1] == ' ')) --end;
        if (end >= 6 && typeText.compare(end - 6, 6, " const") == 0) end -= 5, stripped = true; // `Args const&`
    }
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(typeText[begin - 1])) || typeText[begin - 1] == '_'))
        --begin;
    const std::string name = typeText.substr(begin, end - begin);
    auto found = std::ranges::find_if(structs, [&](const ArgumentStruct& s) { return s.name == name; });
    return found == structs.end() ? nullptr : &*found;
}

std::vector<NestedArguments> nestedArgumentStructs(const std::vector<ArgumentStruct>& structs,
                                                   const ArgumentStruct& root) {
    std::vector<NestedArguments> reached;
    std::vector<const ArgumentStruct*> queue{&root};
    for (std::size_t q = 0; q < queue.size(); ++q)
        for (const ArgumentMember& m : queue[q]->members) {
            const std::string& name = m.pointee.empty() ? m.held : m.pointee;
            if (name.empty() || std::ranges::any_of(reached, [&](const auto& r) { return r.name == name; })) continue;
            auto found = std::ranges::find_if(structs, [&](const ArgumentStruct& s) { return s.name == name; });
            if (found == structs.end()) continue;
            reached.push_back({found->name, found->members});
            queue.push_back(&*found);
        }
    return reached;
}

void rewriteArgumentBufferSamplers(PassContext& c) {
    for (const ArgumentStruct& s : findArgumentStructs(c.unit))
        for (std::size_t token : s.samplerTypes) c.edits.replace(token, "sampler_reference");
}

} // namespace metalcpu::msl
