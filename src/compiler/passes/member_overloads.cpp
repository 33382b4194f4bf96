#include "compiler/passes/member_overloads.h"

#include "compiler/address_space.h"
#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/passes/address_space_dispatch.h"
#include "compiler/findings.h"
#include "compiler/signature.h"
#include "compiler/space_aliases.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace metalcpu::msl {

namespace {

/// Whether the address space at `i` qualifies a pointer (`device const T* p`) rather than a
/// reference or `this`: the first `*`, `&`, `,` or `)` after its type decides.
bool qualifiesPointer(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                      std::size_t limit) {
    for (std::size_t j = i + 1; j < limit; ++j) {
        const Token& t = tokens[j];
        if (t.isPunct("<")) {
            std::size_t close = closingAngle(tokens, partner, j, limit);
            if (close == kNoToken) return false;
            j = close;
        } else if (t.isPunct("*")) {
            return true;
        } else if (!t.isIdentifier() && !t.isPunct("::")) {
            return false;
        }
    }
    return false;
}

/// Whether tokens [begin, end) name an address space metalcpu does not run
/// (SpaceInfo::supported). Such a declaration never joins a group: erasing it as a collapsed
/// twin would silence the error the address-spaces pass, later, reports at its qualifier.
bool usesUnsupportedSpace(const Unit& unit, std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const std::optional<Space> space = addressSpaceOf(unit[k]);
        if (space && !infoOf(*space).supported && unit.isUnqualifiedName(k)) return true;
    }
    return false;
}

/// A declaration with its address spaces erased (`key`), and the spaces it had (`spaces`).
struct Shape {
    std::string key;
    std::string spaces;
    int otherSpaces = 0;  ///< address spaces other than `thread`
    int threadSpaces = 0; ///< `thread`s
};

/// The shape of tokens [begin, end), in scope `scope`. An alias of a type with an address
/// space (`tg_ptr`, space_aliases.h) counts as the type it stands for, so that overloads on
/// `tg_ptr` and `dev_ptr` are overloads on address spaces.
Shape shapeOf(const Unit& unit, std::string scope, std::size_t begin, std::size_t end, bool checkedPointers,
              const SpaceAliases* aliases = nullptr) {
    const TokenList& tokens = unit.tokens();
    Shape shape;
    shape.key = std::move(scope) + "|";
    for (std::size_t k = begin; k < end; ++k) {
        const Token& t = tokens[k];
        if (t.erased) continue; // a nested overload collapsed away already
        if (const TokenRange* alias = aliases ? spaceAliasAt(unit, *aliases, k) : nullptr) {
            const Shape inner = shapeOf(unit, {}, alias->begin, alias->end, checkedPointers);
            shape.key += inner.key.substr(1); // without the empty scope's "|"
            shape.spaces += inner.spaces;
            shape.otherSpaces += inner.otherSpaces;
            shape.threadSpaces += inner.threadSpaces;
            continue;
        }
        const std::optional<Space> space = supportedAddressSpaceOf(t); // no group holds the others
        const bool thread = space == Space::Thread;
        if (space && unit.isUnqualifiedName(k) &&
            !(checkedPointers && !thread && qualifiesPointer(tokens, unit.partner(), k, end))) {
            shape.spaces += t.spelling + " ";
            (thread ? shape.threadSpaces : shape.otherSpaces) += 1;
            continue;
        }
        shape.key += t.spelling;
        shape.key += ' ';
    }
    return shape;
}

Shape shapeOf(const Unit& unit, const FunctionDecl& f, bool checkedPointers, const SpaceAliases& aliases) {
    std::string scope;
    for (const std::string& n : f.namespaces) scope += n + "::";
    scope += std::to_string(f.classBody);
    std::size_t end = f.parametersClose + 1;
    if (!f.trailingQualifiers.empty()) end = std::max(end, f.trailingQualifiers.back() + 1);
    return shapeOf(unit, scope, f.headerBegin, end, checkedPointers, &aliases);
}

/// Whether `a` is the better declaration to keep: fewer spaces other than `thread`, then more
/// `thread`s.
bool preferred(const Shape& a, const Shape& b) {
    return std::pair(a.otherSpaces, -a.threadSpaces) < std::pair(b.otherSpaces, -b.threadSpaces);
}

/// A declaration in a group of shapes: its tokens, its shape, and for a definition its whole
/// text with address spaces erased (`definition`; empty for a prototype).
struct Overload {
    TokenRange range;
    Shape shape;
    std::string definition;
    std::size_t name = kNoToken;     ///< what diagnostics point at
    std::string label;               ///< what they call it: "f", "operator+=", "pointer_element"
    std::size_t function = kNoToken; ///< Module::functions index; kNoToken for a class specialisation
};

/// A group of declarations whose shapes differ only in address spaces keeps the preferred
/// ones and erases the rest. Versions whose definitions differ otherwise all stay, told apart
/// at their calls (dispatchOnAddressSpaces()), or where that cannot be are an error: the CPU
/// cannot tell the address spaces apart, so keeping either would silently run the wrong body
/// for some callers.
void collapse(PassContext& c, std::map<std::string, std::vector<Overload>>& groups) {
    const Unit& unit = c.unit;
    EditList& edits = c.edits;
    Diagnostics& diagnostics = c.diagnostics;
    for (auto& [key, members] : groups) {
        const Overload* best = &members.front();
        bool differ = false;
        for (const Overload& o : members) {
            if (o.shape.spaces != best->shape.spaces) differ = true;
            if (preferred(o.shape, best->shape)) best = &o;
        }
        if (!differ) continue; // a prototype and its definition, or one declaration
        const auto differentBodies = [&](const Overload& o) {
            return o.shape.spaces != best->shape.spaces && !o.definition.empty() && !best->definition.empty() &&
                   o.definition != best->definition;
        };
        if (std::ranges::any_of(members, differentBodies) &&
            std::ranges::none_of(members, [](const Overload& o) { return o.function == kNoToken; })) {
            std::vector<std::size_t> versions;
            for (const Overload& o : members) versions.push_back(o.function);
            if (dispatchOnAddressSpaces(c, versions, best->function)) continue;
        }
        bool conflict = false;
        for (const Overload& o : members) {
            if (!differentBodies(o)) continue;
            const Token& at = unit[o.name];
            const std::string& label = o.label;
            const auto spaces = [](const Shape& shape) {
                return shape.spaces.empty() ? std::string("no address space")
                                            : "'" + shape.spaces.substr(0, shape.spaces.size() - 1) + "'";
            };
            diagnostics.error(at.location, "'" + label + "' is overloaded only on address spaces (" +
                                               spaces(o.shape) + " here, " + spaces(best->shape) +
                                               " in the other) with different bodies: metalcpu runs every address "
                                               "space as one memory and cannot choose between them; give the "
                                               "overloads different names or parameter types");
            diagnostics.note(unit[best->name].location, "the other overload of '" + label + "' is here");
            conflict = true;
        }
        if (conflict) continue;
        const std::string keep = best->shape.spaces;
        for (const Overload& o : members) {
            if (o.shape.spaces == keep) continue;
            // A specialisation that goes may hold member overloads this pass erased already.
            for (std::size_t k = o.range.begin; k < o.range.end; ++k)
                if (!edits.isRewritten(k)) edits.erase(k);
        }
    }
}

/// The partial specialisations of class templates (`template <typename T> struct
/// pointer_element<device T*> { ... };`), by their shapes: header, key and name, with the
/// innermost enclosing `{` as their scope.
std::map<std::string, std::vector<Overload>> classSpecialisations(const Unit& unit, bool checkedPointers) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    std::map<std::string, std::vector<Overload>> groups;
    std::vector<std::size_t> scopes;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.isPunct("{")) scopes.push_back(i);
        else if (t.isPunct("}") && !scopes.empty()) scopes.pop_back();
        // `template` is a keyword to the Unit; the lexical test still tells `x.template f<`.
        if (!t.isIdentifier("template") || !isUnqualifiedName(tokens, i) || i + 1 >= tokens.size() ||
            !tokens[i + 1].isPunct("<"))
            continue;
        const std::size_t header = closingAngle(tokens, partner, i + 1, tokens.size());
        if (header == kNoToken || header + 3 >= tokens.size()) continue;
        const Token& key = tokens[header + 1];
        if (!key.isIdentifier("struct") && !key.isIdentifier("class") && !key.isIdentifier("union")) continue;
        if (!tokens[header + 2].isIdentifier() || !tokens[header + 3].isPunct("<")) continue;
        const std::size_t arguments = closingAngle(tokens, partner, header + 3, tokens.size());
        if (arguments == kNoToken) continue;
        std::size_t body = arguments + 1;
        while (body < tokens.size() && !tokens[body].isPunct("{") && !tokens[body].isPunct(";")) {
            if ((tokens[body].isPunct("(") || tokens[body].isPunct("[")) && partner[body] != kNoToken)
                body = partner[body];
            ++body;
        }
        if (body >= tokens.size() || !tokens[body].isPunct("{") || partner[body] == kNoToken) continue;
        std::size_t end = partner[body] + 1;
        if (end < tokens.size() && tokens[end].isPunct(";")) ++end;
        if (usesUnsupportedSpace(unit, i, end)) continue;
        const std::string scope = "class " + std::to_string(scopes.empty() ? kNoToken : scopes.back());
        Shape shape = shapeOf(unit, scope, i, arguments + 1, checkedPointers);
        std::string definition = shapeOf(unit, {}, i, end, checkedPointers).key;
        const std::string groupKey = shape.key;
        groups[groupKey].push_back({TokenRange{i, end}, std::move(shape), std::move(definition), header + 2,
                                    tokens[header + 2].spelling, kNoToken});
    }
    return groups;
}

/// Overloads of one name, scope and number of parameters whose shapes differ in more than
/// address spaces, but which differ in address spaces too (`load(const device U*, uint)` and
/// `load(const threadgroup U*, ushort)`): once address spaces are erased C++ chooses between
/// them by the other parameters alone, where Clang first drops those whose address spaces the
/// arguments' are not, so a call either is ambiguous (`load(p, 8)`) or may choose the wrong
/// one. They are told apart at their calls as versions of one shape are
/// (dispatchOnAddressSpaces() across shapes). Not in the validation flavour, where pointers
/// into different spaces are different types already.
void dispatchAcrossShapes(PassContext& c, const std::map<std::string, std::vector<Overload>>& groups) {
    const std::vector<FunctionDecl>& functions = c.unit.module().functions;
    std::map<std::string, std::vector<const std::vector<Overload>*>> byName;
    for (const auto& [key, members] : groups) {
        const Overload& first = members.front();
        if (first.function == kNoToken) continue;
        const bool oneSpelling = std::ranges::all_of(
            members, [&](const Overload& o) { return o.shape.spaces == first.shape.spaces; });
        const FunctionDecl& f = functions[first.function];
        std::string name;
        for (const std::string& n : f.namespaces) name += n + "::";
        name += std::to_string(f.classBody) + "|" + f.name + "|" +
                std::to_string(splitParameters(c.unit.tokens(), c.unit.partner(), f.parametersOpen,
                                               f.parametersClose).size());
        // A group of one shape in several spellings was resolved by collapse() already.
        if (!oneSpelling) name += "|resolved";
        byName[name].push_back(&members);
    }
    for (const auto& [name, shapes] : byName) {
        if (shapes.size() < 2 || name.ends_with("|resolved")) continue;
        const bool spacesDiffer = std::ranges::any_of(shapes, [&](const std::vector<Overload>* members) {
            return members->front().shape.spaces != shapes.front()->front().shape.spaces;
        });
        if (!spacesDiffer) continue;
        std::vector<std::size_t> versions;
        for (const std::vector<Overload>* members : shapes)
            for (const Overload& o : *members) versions.push_back(o.function);
        dispatchOnAddressSpaces(c, versions, versions.front(), true);
    }
}

} // namespace

void collapseAddressSpaceOverloads(PassContext& c) {
    const bool checkedPointers = c.options.validation;
    std::map<std::string, std::vector<Overload>> groups;
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (f.isKernel || f.parametersOpen == kNoToken || f.parametersClose == kNoToken ||
            usesUnsupportedSpace(c.unit, f.headerBegin, f.declarationEnd))
            continue;
        Shape shape = shapeOf(c.unit, f, checkedPointers, c.findings.spaceAliases);
        std::string definition =
            f.hasBody ? shapeOf(c.unit, {}, f.headerBegin, f.declarationEnd, checkedPointers, &c.findings.spaceAliases).key
                      : std::string();
        const std::string groupKey = shape.key;
        groups[groupKey].push_back({TokenRange{f.headerBegin, f.declarationEnd}, std::move(shape),
                                    std::move(definition), f.nameToken, f.name,
                                    static_cast<std::size_t>(&f - c.unit.module().functions.data())});
    }
    collapse(c, groups);
    if (!checkedPointers) dispatchAcrossShapes(c, groups);
    std::map<std::string, std::vector<Overload>> classes = classSpecialisations(c.unit, checkedPointers);
    collapse(c, classes);
}

} // namespace metalcpu::msl
