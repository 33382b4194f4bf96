#include "compiler/passes/address_space_dispatch.h"

#include "compiler/address_space.h"
#include "compiler/diagnostics.h"
#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/space_aliases.h"
#include "compiler/signature.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

namespace metalcpu::msl {

namespace {

/// The supported address space the unqualified name at `i` spells, if it is one (code in
/// the others is an error of its own, passes/address_spaces.h).
std::optional<Space> spaceAt(const Unit& unit, std::size_t i) {
    if (!unit.isUnqualifiedName(i)) return std::nullopt;
    return supportedAddressSpaceOf(unit[i]);
}

/// A declaration's type, read from its tokens before and after the declared name.
struct Declared {
    /// Unknown: declared, but of a type this cannot read (a template's `T*`, an array of
    /// pointers, an `auto` whose initializer tells nothing).
    enum class Kind { Value, Array, Pointer, Reference, Unknown } kind = Kind::Value;
    Space space = Space::Thread; ///< where a value or array lives, where a pointer or reference points
};

/// How a declaration's type is deduced from its initializer: not (a type is written), `auto`
/// (and `const auto`), `auto*`, or `auto&`/`auto&&`.
enum class Deduction { None, Value, Pointer, Reference };

/// The type of a declaration as written: the Declared it spells, or for an `auto` the
/// deduction and the initializer to deduce it from.
struct Written {
    Declared declared;
    Deduction deduction = Deduction::None;
    TokenRange initializer{};
};

/// The initializer of the declarator whose name is at `name`: after `=` up to the `,` or `;`
/// that ends it, or inside the `(...)` or `{...}` that follows the name. Empty when none.
TokenRange initializerOf(const Unit& unit, std::size_t name) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::size_t next = name + 1;
    if (next >= tokens.size()) return {};
    if ((tokens[next].isPunct("(") || tokens[next].isPunct("{")) && partner[next] != kNoToken)
        return {next + 1, partner[next]};
    if (!tokens[next].isPunct("=")) return {};
    std::size_t k = next + 1;
    for (; k < tokens.size(); ++k) {
        const Token& t = tokens[k];
        if (t.isPunct(",") || t.isPunct(";") || t.isPunct(")") || t.isPunct("}") || t.isPunct("]")) break;
        if ((t.isPunct("(") || t.isPunct("[") || t.isPunct("{")) && partner[k] != kNoToken) k = partner[k];
        else if (t.isPunct("<") && opensTemplateArguments(tokens, k)) {
            const std::size_t close = closingAngle(tokens, partner, k, tokens.size());
            if (close != kNoToken) k = close;
        }
    }
    return {next + 1, k};
}

/// The type of the declaration whose name is at `name`: the tokens back to the previous `;`,
/// `{`, `}`, `(`, `,` or `:` (template arguments skipped) give its address space and `*`/`&`,
/// a `[` after the name makes an array, `auto` defers to the initializer. Unknown when it
/// cannot say: an array of pointers, a pointer or reference without an address space (a
/// template's `T*`).
Written writtenAt(const Unit& unit, const SpaceAliases& aliases, std::size_t name) {
    const TokenList& tokens = unit.tokens();
    Written w;
    std::optional<Space> space;
    bool pointer = false, reference = false, deduced = false;
    for (std::size_t k = name; k-- > 0;) {
        const Token& t = tokens[k];
        if (t.isPunct(">")) {
            const std::size_t open = openingAngle(tokens, unit.partner(), k, 0);
            if (open == kNoToken) return {{Declared::Kind::Unknown}};
            k = open;
            continue;
        }
        if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(") || t.isPunct(",") ||
            t.isPunct(":") || t.kind == TokenKind::Pragma)
            break;
        if (t.isPunct("*")) pointer = true;
        else if (t.isPunct("&") || t.isPunct("&&")) reference = true;
        else if (t.isIdentifier("auto")) deduced = true;
        else if (const std::optional<Space> s = spaceAt(unit, k)) space = s;
        else if (const TokenRange* alias = spaceAliasAt(unit, aliases, k)) {
            // `tg_ptr t`: the alias's type, `threadgroup float*`.
            for (std::size_t a = alias->begin; a < alias->end; ++a) {
                if (tokens[a].isPunct("*")) pointer = true;
                else if (tokens[a].isPunct("&") || tokens[a].isPunct("&&")) reference = true;
                else if (const std::optional<Space> s = spaceAt(unit, a)) space = s;
            }
        }
    }
    const bool array = name + 1 < tokens.size() && tokens[name + 1].isPunct("[") && !startsAttributeSpec(tokens, name + 1);
    if (deduced && !space && !array) {
        // `auto`, `auto*`, `auto&`: the type, address space included, is the initializer's
        // (as Clang deduces it), so that a pointer kept in one still picks its overload.
        w.deduction = reference ? Deduction::Reference : pointer ? Deduction::Pointer : Deduction::Value;
        w.initializer = initializerOf(unit, name);
        w.declared.kind = Declared::Kind::Unknown;
        return w;
    }
    if (pointer || reference) {
        if (!space || array) return {{Declared::Kind::Unknown}};
        w.declared.kind = pointer ? Declared::Kind::Pointer : Declared::Kind::Reference;
    } else {
        w.declared.kind = array ? Declared::Kind::Array : Declared::Kind::Value;
    }
    w.declared.space = space.value_or(Space::Thread);
    return w;
}

/// The last token of the scope of the declaration whose name is at `name`: the block that holds
/// it, or for one in parentheses (a for-init, a condition, a lambda's parameters) the statement
/// or body that follows them.
std::size_t scopeEnd(const Unit& unit, std::size_t name) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t k = name; k-- > 0;) {
        const Token& t = tokens[k];
        if ((t.isPunct(")") || t.isPunct("]") || t.isPunct("}")) && partner[k] != kNoToken) {
            k = partner[k];
        } else if (t.isPunct("{") && partner[k] != kNoToken) {
            return partner[k];
        } else if (t.isPunct("(") && partner[k] != kNoToken) {
            for (std::size_t j = partner[k] + 1; j < tokens.size(); ++j) {
                if (tokens[j].isPunct("{") && partner[j] != kNoToken) return partner[j];
                if (tokens[j].isPunct(";")) return j;
                if ((tokens[j].isPunct("(") || tokens[j].isPunct("[")) && partner[j] != kNoToken) j = partner[j];
            }
            return tokens.size();
        }
    }
    return tokens.size();
}

/// What an argument says about its address space.
struct Told {
    enum class What {
        Space,        ///< it points or refers into `space`
        NotAnAddress, ///< for a pointer parameter, a value that is no pointer: another overload's call
        Unknown,      ///< not of a shape that tells (see the header)
    } what = What::Unknown;
    Space space = Space::Thread;
};

constexpr Told kUnknown{};

Told told(Space s) { return {Told::What::Space, s}; }

/// How deep `auto` initializers and calls are followed (`auto b = a; auto c = b;`): enough for
/// any chain written by hand, and an end to a declaration that names itself.
constexpr int kMaxDepth = 16;

Told argumentSpace(const PassContext& c, std::size_t caller, TokenRange arg, bool pointer, int depth);

/// The type an `auto` declaration deduces from its initializer (Written::deduction), as Clang
/// deduces it: a pointer keeps the address space it points into, a value is copied into
/// `thread` memory, a reference refers where its initializer lives.
Declared deduce(const PassContext& c, std::size_t caller, const Written& w, int depth) {
    const Declared unknown{Declared::Kind::Unknown};
    if (w.initializer.begin >= w.initializer.end || depth > kMaxDepth) return unknown;
    const Told asPointer = argumentSpace(c, caller, w.initializer, true, depth + 1);
    switch (w.deduction) {
    case Deduction::None: return w.declared;
    case Deduction::Pointer:
        return asPointer.what == Told::What::Space ? Declared{Declared::Kind::Pointer, asPointer.space} : unknown;
    case Deduction::Value:
        if (asPointer.what == Told::What::Space) return {Declared::Kind::Pointer, asPointer.space};
        if (asPointer.what == Told::What::NotAnAddress) return {Declared::Kind::Value, Space::Thread};
        return unknown;
    case Deduction::Reference: {
        // A reference to a pointer (or an array) is used as one; to anything else it is an
        // object where its initializer lives.
        if (asPointer.what == Told::What::Space) return {Declared::Kind::Pointer, asPointer.space};
        if (asPointer.what == Told::What::Unknown) return unknown;
        const Told asObject = argumentSpace(c, caller, w.initializer, false, depth + 1);
        return asObject.what == Told::What::Space ? Declared{Declared::Kind::Reference, asObject.space} : unknown;
    }
    }
    return unknown;
}

/// How the name `name` used at `use` is declared, as the innermost declaration before the use
/// whose scope holds it: a threadgroup variable, a local or a parameter of the calling
/// function `caller` (Module::functions), or a program-scope variable. Nothing when none is.
std::optional<Declared> lookUp(const PassContext& c, std::size_t caller, std::size_t use, const std::string& name,
                               int depth) {
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const FunctionDecl& f = unit.module().functions[caller];
    std::size_t best = kNoToken;
    std::optional<Written> found;
    const auto consider = [&](std::size_t at, const Written& written) {
        if (at >= use || (best != kNoToken && at < best) || scopeEnd(unit, at) < use) return;
        best = at;
        found = written;
    };
    for (const ThreadgroupDeclaration& d : c.findings.threadgroupVariables) {
        if (d.function != caller) continue;
        for (const ThreadgroupDeclarator& v : d.declarators)
            if (v.name == name)
                consider(v.nameToken, Written{{v.arrayBounds.empty() ? Declared::Kind::Value : Declared::Kind::Array,
                                               Space::Threadgroup}});
    }
    for (std::size_t k = f.bodyOpen + 1; k < use; ++k)
        if (tokens[k].spelling == name && unit.role(k) == TokenRole::Declarator)
            consider(k, writtenAt(unit, c.findings.spaceAliases, k));
    if (!found) {
        for (TokenRange p : splitParameters(tokens, unit.partner(), f.parametersOpen, f.parametersClose))
            if (const std::size_t k = parameterName(tokens, unit.partner(), p);
                k != kNoToken && tokens[k].spelling == name) {
                found = writtenAt(unit, c.findings.spaceAliases, k);
                break;
            }
    }
    if (!found) {
        for (const VariableDecl& v : unit.module().variables)
            if (v.nameToken != kNoToken && v.enclosingClass.empty() && tokens[v.nameToken].spelling == name) {
                found = writtenAt(unit, c.findings.spaceAliases, v.nameToken);
                break;
            }
    }
    if (!found) return std::nullopt;
    return found->deduction == Deduction::None ? found->declared : deduce(c, caller, *found, depth);
}

/// An lvalue an argument names: in which space it lives, and what it is.
struct Object {
    enum class Kind { Plain, Array, PointerVariable, Member } kind = Kind::Plain;
    Space space = Space::Thread;   ///< where the object lives
    Space pointee = Space::Thread; ///< for a pointer variable: where it points
};

/// Whether the tokens [k, e) are empty or pointer arithmetic that keeps a pointer where it
/// points: `+ i`, `- i` after the pointer.
bool onlyArithmeticFrom(const TokenList& tokens, std::size_t k, std::size_t e) {
    return k >= e || tokens[k].isPunct("+") || tokens[k].isPunct("-");
}

/// The address space of a pointer type written in [begin, end) (`threadgroup float*`): its
/// one address space when the type ends in `*`; nothing otherwise.
std::optional<Space> pointerTypeSpace(const Unit& unit, std::size_t begin, std::size_t end) {
    std::optional<Space> space;
    std::size_t stars = 0;
    for (std::size_t k = begin; k < end; ++k) {
        if (unit[k].isPunct("*")) ++stars;
        else if (const std::optional<Space> s = spaceAt(unit, k)) {
            if (space) return std::nullopt; // two spaces: a pointer to a pointer
            space = s;
        }
    }
    if (stars != 1 || end == begin || !unit[end - 1].isPunct("*")) return std::nullopt;
    return space;
}

/// A cast to a pointer type, `(threadgroup float*)(x)`, `(threadgroup float*)x + i`,
/// `static_cast<device T*>(p)`: the space it names. Unknown for a cast to a pointer type
/// without one (a template's `T*`), nothing when [b, e) is no such cast.
std::optional<Told> castSpace(const Unit& unit, std::size_t b, std::size_t e) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    std::size_t typeBegin = kNoToken, typeEnd = kNoToken, operandEnd = kNoToken;
    if (tokens[b].isPunct("(") && partner[b] != kNoToken && partner[b] + 1 < e && unit.closesCStyleCast(partner[b])) {
        typeBegin = b + 1;
        typeEnd = partner[b];
        operandEnd = unit.postfixEnd(b);
    } else if ((tokens[b].isIdentifier("static_cast") || tokens[b].isIdentifier("reinterpret_cast") ||
                tokens[b].isIdentifier("const_cast")) &&
               b + 1 < e && tokens[b + 1].isPunct("<")) {
        const std::size_t close = closingAngle(tokens, partner, b + 1, e);
        if (close == kNoToken || close + 1 >= e || !tokens[close + 1].isPunct("(") || partner[close + 1] == kNoToken)
            return std::nullopt;
        typeBegin = b + 2;
        typeEnd = close;
        operandEnd = partner[close + 1];
    } else {
        return std::nullopt;
    }
    if (operandEnd == kNoToken || operandEnd >= e || !onlyArithmeticFrom(tokens, operandEnd + 1, e)) return kUnknown;
    bool star = false;
    for (std::size_t k = typeBegin; k < typeEnd; ++k) star = star || tokens[k].isPunct("*");
    if (!star) return Told{Told::What::NotAnAddress, Space::Thread};
    const std::optional<Space> space = pointerTypeSpace(unit, typeBegin, typeEnd);
    return space ? told(*space) : kUnknown;
}

/// Whether `name` is a scalar or vector type of MSL, whose functional cast (`uint(x)`,
/// `float4(v)`) makes a value, never a pointer.
bool isValueTypeName(std::string_view name) {
    static constexpr std::string_view kScalars[] = {"bool",  "char", "uchar", "short",  "ushort", "int",   "uint",
                                                    "long",  "ulong", "half", "float",  "bfloat", "double", "size_t"};
    if (!name.empty() && name.back() >= '2' && name.back() <= '4') name.remove_suffix(1);
    return std::find(std::begin(kScalars), std::end(kScalars), name) != std::end(kScalars);
}

/// The address space the pointer a call returns points into, `apply_offset(block, 8, o)` or
/// `S<T>::get(p)` of a function of the program: the return type's, that of the versions the
/// arguments' spaces select when versions overloaded on address spaces return different ones.
/// Unknown for a function this does not know (of the standard library, a lambda) or whose
/// return type has no address space; nothing when [b, e) is no call.
std::optional<Told> callSpace(const PassContext& c, std::size_t caller, std::size_t b, std::size_t e, int depth) {
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    // The callee's name: the last name before the `(` (template arguments skipped).
    std::size_t k = b, name = kNoToken;
    while (k < e) {
        if (tokens[k].isIdentifier()) name = k, ++k;
        else if (tokens[k].isPunct("::")) ++k;
        else if (tokens[k].isPunct("<") && opensTemplateArguments(tokens, k)) {
            const std::size_t close = closingAngle(tokens, partner, k, e);
            if (close == kNoToken) return std::nullopt;
            k = close + 1;
        } else break;
    }
    if (name == kNoToken || k >= e || !tokens[k].isPunct("(") || partner[k] == kNoToken) return std::nullopt;
    const std::size_t close = partner[k];
    if (name == b && isValueTypeName(tokens[name].spelling) && close + 1 == e)
        return Told{Told::What::NotAnAddress, Space::Thread};
    if (unit.role(name) != TokenRole::Callee && unit.role(name) != TokenRole::QualifiedPart) return std::nullopt;
    if (!onlyArithmeticFrom(tokens, close + 1, e)) return kUnknown;
    if (depth > kMaxDepth) return kUnknown;
    const std::vector<TokenRange> args = splitParameters(tokens, partner, k, close);
    std::optional<Told> result;
    bool any = false;
    for (const FunctionDecl& f : unit.module().functions) {
        if (f.name != tokens[name].spelling || f.parametersOpen == kNoToken || f.isKernel) continue;
        const std::vector<TokenRange> params = splitParameters(tokens, partner, f.parametersOpen, f.parametersClose);
        if (args.size() > params.size()) continue;
        // Not viable when a pointer parameter's space is not the argument's (Clang converts
        // no pointer between address spaces).
        bool viable = true;
        for (std::size_t i = 0; i < args.size() && viable; ++i) {
            const std::size_t declarator = parameterName(tokens, partner, params[i]);
            const std::optional<Space> want =
                pointerTypeSpace(unit, params[i].begin, declarator == kNoToken ? params[i].end : declarator);
            if (!want) continue;
            const Told got = argumentSpace(c, caller, args[i], true, depth + 1);
            if (got.what == Told::What::Unknown) return kUnknown;
            viable = got.what == Told::What::Space && got.space == *want;
        }
        if (!viable) continue;
        any = true;
        bool star = false;
        for (std::size_t q = f.declarationBegin; q < f.nameToken; ++q) star = star || tokens[q].isPunct("*");
        const std::optional<Space> returned = pointerTypeSpace(unit, f.declarationBegin, f.nameToken);
        const Told t = !star ? Told{Told::What::NotAnAddress, Space::Thread} : returned ? told(*returned) : kUnknown;
        if (result && (result->what != t.what || result->space != t.space)) return kUnknown;
        result = t;
    }
    return any ? *result : kUnknown;
}

/// What argument `arg` of a call in function `caller` says about the address space it points
/// (`pointer`) or refers into.
Told argumentSpace(const PassContext& c, std::size_t caller, TokenRange arg, bool pointer, int depth) {
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    std::size_t b = arg.begin, e = arg.end;
    while (b + 1 < e && tokens[b].isPunct("(") && partner[b] == e - 1) ++b, --e;
    if (b >= e) return kUnknown;
    // A number, character or string literal alone (`auto n = 4;`): a value. (`0` and `nullptr`
    // as arguments are another overload's call, as the caller sees.)
    if (b + 1 == e && (tokens[b].kind == TokenKind::Number || tokens[b].kind == TokenKind::Character))
        return pointer ? Told{Told::What::NotAnAddress, Space::Thread} : kUnknown;
    if (const std::optional<Told> cast = castSpace(unit, b, e)) return pointer ? *cast : kUnknown;
    if (const std::optional<Told> call = callSpace(c, caller, b, e, depth)) return pointer ? *call : kUnknown;
    const bool addressOf = b < e && unit.role(b) == TokenRole::AddressOf;
    if (addressOf) ++b;
    const bool dereference = b < e && unit.role(b) == TokenRole::Dereference;
    if (dereference) ++b;
    if (b >= e || !tokens[b].isIdentifier() || !unit.isUnqualifiedName(b) || tokens[b].is("this")) return kUnknown;
    const std::optional<Declared> declared = lookUp(c, caller, b, tokens[b].spelling, depth);
    if (!declared || declared->kind == Declared::Kind::Unknown) return kUnknown;
    Object o;
    switch (declared->kind) {
    case Declared::Kind::Value: o = {Object::Kind::Plain, declared->space, Space::Thread}; break;
    case Declared::Kind::Reference: o = {Object::Kind::Plain, declared->space, Space::Thread}; break;
    case Declared::Kind::Array: o = {Object::Kind::Array, declared->space, Space::Thread}; break;
    case Declared::Kind::Pointer: o = {Object::Kind::PointerVariable, Space::Thread, declared->space}; break;
    case Declared::Kind::Unknown: return kUnknown;
    }
    // The postfix chain: x[i], x.m, p->m. Through a member only more members: a member's own
    // subscript or arrow may leave for another space (a pointer member).
    std::size_t j = b + 1;
    bool postfix = false;
    for (; j < e; postfix = true) {
        if (tokens[j].isPunct("[") && partner[j] != kNoToken && partner[j] < e) {
            if (o.kind == Object::Kind::Array) o = {Object::Kind::Plain, o.space, Space::Thread};
            else if (o.kind == Object::Kind::PointerVariable) o = {Object::Kind::Plain, o.pointee, Space::Thread};
            else return kUnknown;
            j = partner[j] + 1;
        } else if (j + 1 < e && unit.isAccessedMember(j + 1)) {
            if (tokens[j].isPunct(".") && (o.kind == Object::Kind::Plain || o.kind == Object::Kind::Member))
                o = {Object::Kind::Member, o.space, Space::Thread};
            else if (tokens[j].isPunct("->") && o.kind == Object::Kind::PointerVariable)
                o = {Object::Kind::Member, o.pointee, Space::Thread};
            else if (tokens[j].isPunct("->") && o.kind == Object::Kind::Array)
                o = {Object::Kind::Member, o.space, Space::Thread};
            else
                return kUnknown;
            j += 2;
        } else {
            break;
        }
    }
    // What is left may only be pointer arithmetic on a pointer or array named alone: `p + i`.
    if (j < e && (postfix || addressOf || dereference || !pointer || !(tokens[j].isPunct("+") || tokens[j].isPunct("-"))))
        return kUnknown;
    if (dereference) {
        if (o.kind == Object::Kind::PointerVariable) o = {Object::Kind::Plain, o.pointee, Space::Thread};
        else if (o.kind == Object::Kind::Array) o = {Object::Kind::Plain, o.space, Space::Thread};
        else return kUnknown;
    }
    if (addressOf) {
        if (!pointer) return kUnknown;
        return told(o.space); // the address of an object: a pointer into where it lives
    }
    if (pointer) {
        if (o.kind == Object::Kind::PointerVariable) return told(o.pointee);
        if (o.kind == Object::Kind::Array) return told(o.space); // decays to a pointer to its first element
        // A member's type is not known here: it may be a pointer, into any space.
        if (o.kind == Object::Kind::Member) return kUnknown;
        return {Told::What::NotAnAddress, Space::Thread};
    }
    return told(o.space); // a reference binds to the object where it lives
}

/// One parameter position in which the versions differ: whether it is a pointer (else a
/// reference), and each version's address space there.
struct Position {
    std::size_t index = 0;
    bool pointer = false;
};

/// One version: its declarations (a prototype and a definition), and its address space at
/// each distinguishing position.
struct Version {
    std::vector<std::size_t> declarations;
    std::vector<Space> spaces;
};

/// The address-space names in [begin, end), as one string ("device threadgroup "); an alias
/// (`tg_ptr`) gives those of its type.
std::string spacesIn(const Unit& unit, const SpaceAliases& aliases, std::size_t begin, std::size_t end) {
    std::string out;
    for (std::size_t k = begin; k < end; ++k) {
        if (spaceAt(unit, k)) out += unit[k].spelling + " ";
        else if (const TokenRange* alias = spaceAliasAt(unit, aliases, k))
            out += spacesIn(unit, aliases, alias->begin, alias->end);
    }
    return out;
}

/// Whether parameter `p` is a pointer (a `*` outside brackets and template arguments, or in
/// the type of an alias it names); a reference when it has a `&` instead. Nothing when it is
/// neither or both.
std::optional<bool> isPointerParameter(const Unit& unit, const SpaceAliases& aliases, TokenRange p) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    bool pointer = false, reference = false;
    for (std::size_t k = p.begin; k < p.end; ++k) {
        const Token& t = tokens[k];
        if (const TokenRange* alias = spaceAliasAt(unit, aliases, k)) {
            for (std::size_t a = alias->begin; a < alias->end; ++a) {
                pointer = pointer || tokens[a].isPunct("*");
                reference = reference || tokens[a].isPunct("&") || tokens[a].isPunct("&&");
            }
        } else if ((t.isPunct("(") || t.isPunct("[")) && partner[k] != kNoToken) k = partner[k];
        else if (t.isPunct("<") && opensTemplateArguments(tokens, k)) {
            const std::size_t close = closingAngle(tokens, partner, k, p.end);
            if (close != kNoToken) k = close;
        } else if (t.isPunct("*")) pointer = true;
        else if (t.isPunct("&") || t.isPunct("&&")) reference = true;
        else if (t.isPunct("=")) break;
    }
    if (pointer == reference) return std::nullopt;
    return pointer;
}

std::string tagType(const Version& v) {
    std::string out = "::metalcpu_kernel::address_space_tag<";
    for (std::size_t i = 0; i < v.spaces.size(); ++i)
        out += (i == 0 ? "" : ", ") + std::to_string(infoOf(v.spaces[i]).number);
    return out + ">";
}

/// The versions and distinguishing positions of a group, or nothing when it is not one this
/// can dispatch (see the header).
struct Plan {
    std::vector<Position> positions;
    std::vector<Version> versions; ///< the preferred one first
    std::size_t minArguments = 0, maxArguments = 0;
};

std::optional<Plan> planOf(const PassContext& c, const std::vector<std::size_t>& group, std::size_t preferred,
                           bool acrossShapes) {
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const std::vector<FunctionDecl>& functions = unit.module().functions;
    const SpaceAliases& aliases = c.findings.spaceAliases;
    const FunctionDecl& first = functions[preferred];
    if (first.name.starts_with("operator") || first.name.starts_with("~") || first.name == first.enclosingClass)
        return std::nullopt;
    // Per declaration: its parameters' address spaces, and those elsewhere (return type, `this`).
    std::vector<std::vector<std::string>> spaces;
    std::vector<std::vector<TokenRange>> parameters;
    std::string outside;
    for (std::size_t i = 0; i < group.size(); ++i) {
        const FunctionDecl& f = functions[group[i]];
        parameters.push_back(splitParameters(tokens, partner, f.parametersOpen, f.parametersClose));
        // Versions told apart by their parameters may return pointers into different spaces
        // (`device T* apply_offset(device T*, uint)`, `threadgroup T* apply_offset(threadgroup
        // T*, ushort)`); versions of one shape could not be told apart by anything else.
        std::string here = acrossShapes ? std::string() : spacesIn(unit, aliases, f.headerBegin, f.parametersOpen);
        for (std::size_t q : f.trailingQualifiers) here += spacesIn(unit, aliases, q, q + 1);
        if (i > 0 && here != outside) return std::nullopt;
        outside = here;
        spaces.emplace_back();
        for (TokenRange p : parameters.back()) spaces.back().push_back(spacesIn(unit, aliases, p.begin, p.end));
    }
    Plan plan;
    const std::vector<TokenRange>& own = parameters[std::find(group.begin(), group.end(), preferred) - group.begin()];
    for (std::size_t p = 0; p < own.size(); ++p) {
        bool differs = false;
        for (const std::vector<std::string>& s : spaces) differs = differs || s[p] != spaces[0][p];
        if (!differs) continue;
        const std::optional<bool> pointer = isPointerParameter(unit, aliases, own[p]);
        if (!pointer) return std::nullopt;
        plan.positions.push_back({p, *pointer});
    }
    if (plan.positions.empty()) return std::nullopt;
    plan.maxArguments = own.size();
    for (TokenRange p : own)
        if (parameterDefault(tokens, partner, p) == p.end) ++plan.minArguments;
    // The versions, by their spaces at those positions; one space (or none: thread) each.
    for (std::size_t i = 0; i < group.size(); ++i) {
        Version v;
        for (const Position& pos : plan.positions) {
            if (isPointerParameter(unit, aliases, parameters[i][pos.index]) != pos.pointer) return std::nullopt;
            const std::string& s = spaces[i][pos.index];
            if (s.find(' ') != s.rfind(' ')) return std::nullopt; // two address spaces in one parameter
            // `s` is one space's spelling and a blank, or empty: unqualified, `thread`.
            v.spaces.push_back(addressSpaceNamed(s.substr(0, s.find(' '))).value_or(Space::Thread));
        }
        auto same = std::find_if(plan.versions.begin(), plan.versions.end(),
                                 [&](const Version& w) { return w.spaces == v.spaces; });
        if (same == plan.versions.end()) {
            v.declarations.push_back(group[i]);
            if (group[i] == preferred) plan.versions.insert(plan.versions.begin(), std::move(v));
            else plan.versions.push_back(std::move(v));
        } else {
            same->declarations.push_back(group[i]);
            if (group[i] == preferred) std::rotate(plan.versions.begin(), same, same + 1);
        }
    }
    return plan;
}

/// Whether the token at `k`, named like the group's function, is one of its calls that this
/// resolves: the kinds of calls the header lists.
bool isCallOfGroup(const Unit& unit, const FunctionDecl& f, std::size_t k) {
    const TokenRole role = unit.role(k);
    if (role == TokenRole::QualifiedPart && k >= 2 && unit[k - 2].isIdentifier()) {
        // `ns::f(`, `S::f(`: only the function's own namespace or class (not `metal::dot` for
        // a `dot` of the kernel's own).
        const std::string& qualifier = unit[k - 2].spelling;
        const std::string& own = f.classBody != kNoToken ? f.enclosingClass
                                 : f.namespaces.empty()   ? std::string()
                                                          : f.namespaces.back();
        if (qualifier != own) return false;
    }
    if (f.classBody == kNoToken) return role == TokenRole::Callee || role == TokenRole::QualifiedPart;
    if (role == TokenRole::Member || role == TokenRole::QualifiedPart) return true;
    if (role != TokenRole::Callee && role != TokenRole::Name) return false;
    const std::size_t caller = unit.functionAt(k);
    return caller != kNoToken && unit.module().functions[caller].classBody == f.classBody;
}

/// Whether `f`'s name at `k` means something else there: a variable of the calling function
/// `caller` (or a program-scope one) by that name, or, in a member function, a member function
/// of its own class by that name, which hides a free function.
bool hiddenAt(const PassContext& c, const FunctionDecl& f, std::size_t caller, std::size_t k) {
    if (caller == kNoToken) return false;
    if (lookUp(c, caller, k, f.name, kMaxDepth + 1)) return true;
    const std::vector<FunctionDecl>& functions = c.unit.module().functions;
    const std::size_t callerClass = functions[caller].classBody;
    if (f.classBody != kNoToken || callerClass == kNoToken) return false;
    return std::any_of(functions.begin(), functions.end(),
                       [&](const FunctionDecl& g) { return g.classBody == callerClass && g.name == f.name; });
}

/// A function of the group's name and scope outside the group that takes a pointer (or
/// reference) wherever the versions do: a call of it can look like a call of the group, and
/// only its argument's type, which this does not know, tells which is meant.
struct Rival {
    std::size_t function = 0;
    std::size_t minArguments = 0, maxArguments = 0;
};

std::vector<Rival> rivalsOf(const PassContext& c, const std::vector<std::size_t>& group, const FunctionDecl& f,
                            const Plan& plan) {
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<FunctionDecl>& functions = unit.module().functions;
    std::vector<Rival> rivals;
    for (std::size_t g = 0; g < functions.size(); ++g) {
        const FunctionDecl& other = functions[g];
        if (other.name != f.name || other.classBody != f.classBody || other.namespaces != f.namespaces ||
            std::find(group.begin(), group.end(), g) != group.end())
            continue;
        const std::vector<TokenRange> params =
            splitParameters(tokens, unit.partner(), other.parametersOpen, other.parametersClose);
        bool alike = true;
        for (const Position& pos : plan.positions)
            alike = alike && pos.index < params.size() &&
                    isPointerParameter(unit, c.findings.spaceAliases, params[pos.index]) == pos.pointer;
        if (!alike) continue;
        Rival r{g, 0, params.size()};
        for (TokenRange p : params)
            if (parameterDefault(tokens, unit.partner(), p) == p.end) ++r.minArguments;
        rivals.push_back(r);
    }
    return rivals;
}

bool isLiteral(const Token& t) {
    return t.kind == TokenKind::Number || t.kind == TokenKind::String || t.kind == TokenKind::Character ||
           t.isIdentifier("nullptr") || t.isIdentifier("true") || t.isIdentifier("false");
}

} // namespace

bool dispatchOnAddressSpaces(PassContext& c, const std::vector<std::size_t>& group, std::size_t preferred,
                             bool acrossShapes) {
    const std::optional<Plan> plan = planOf(c, group, preferred, acrossShapes);
    if (!plan || (acrossShapes && plan->versions.size() < 2)) return false; // `thread` spelled or not: one version
    const Unit& unit = c.unit;
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const FunctionDecl& f = unit.module().functions[preferred];
    for (std::size_t v = 1; v < plan->versions.size(); ++v)
        for (std::size_t d : plan->versions[v].declarations)
            c.edits.insertAfter(unit.module().functions[d].parametersOpen, tagType(plan->versions[v]) + ", ");

    std::set<std::size_t> declared;
    for (const FunctionDecl& g : unit.module().functions) declared.insert(g.nameToken);
    const std::vector<Rival> rivals = rivalsOf(c, group, f, *plan);
    const std::string name = "'" + f.name + "'";
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        if (tokens[k].spelling != f.name || declared.contains(k) || c.edits.isRewritten(k)) continue;
        if (hiddenAt(c, f, unit.functionAt(k), k)) continue;
        std::size_t open = k + 1;
        if (open < tokens.size() && tokens[open].isPunct("<")) {
            const std::size_t close = closingAngle(tokens, partner, open, tokens.size());
            open = close == kNoToken ? tokens.size() : close + 1;
        }
        if (open >= tokens.size() || !tokens[open].isPunct("(") || partner[open] == kNoToken) {
            const bool addressTaken = unit.role(k - 1) == TokenRole::AddressOf ||
                                      (unit.role(k) == TokenRole::QualifiedPart && k > 2 &&
                                       unit.role(k - 3) == TokenRole::AddressOf);
            if (addressTaken)
                c.diagnostics.error(tokens[k].location, "the address of " + name +
                                                            ", which is overloaded only on address spaces, cannot be "
                                                            "taken: metalcpu tells the overloads apart at their calls");
            continue;
        }
        if (!isCallOfGroup(unit, f, k)) continue;
        const std::vector<TokenRange> args = splitParameters(tokens, partner, open, partner[open]);
        if (args.size() < plan->minArguments || args.size() > plan->maxArguments) continue;
        const std::size_t caller = unit.functionAt(k);
        std::vector<Space> spaces;
        bool other = false; // a literal where the versions take a pointer or reference: another overload's call
        for (const Position& pos : plan->positions) {
            if (pos.index >= args.size()) break;
            const TokenRange a = args[pos.index];
            const Told s = caller == kNoToken ? kUnknown : argumentSpace(c, caller, a, pos.pointer, 0);
            if (isLiteral(tokens[a.begin]) || s.what == Told::What::NotAnAddress) other = true;
            if (s.what == Told::What::Unknown && !other) {
                c.diagnostics.error(tokens[a.begin].location,
                                    "cannot tell which overload of " + name + " this call means: they differ " +
                                        (acrossShapes ? "" : "only ") + "in the address space of parameter " + std::to_string(pos.index + 1) +
                                    ", and metalcpu, which runs every address space as one memory, cannot tell this "
                                    "argument's (pass a variable, parameter or threadgroup variable of the calling "
                                    "function, or give the overloads different names)");
                c.diagnostics.note(tokens[f.nameToken].location, "the overloads of " + name + " are here");
                other = true;
            }
            if (s.what == Told::What::Space) spaces.push_back(s.space);
        }
        if (other || spaces.size() != plan->positions.size()) continue;
        const auto rival = std::find_if(rivals.begin(), rivals.end(), [&](const Rival& r) {
            return args.size() >= r.minArguments && args.size() <= r.maxArguments;
        });
        if (rival != rivals.end()) {
            c.diagnostics.error(tokens[k].location,
                                "cannot tell which function " + name + " this call means: some overloads of " + name +
                                    " differ only in address spaces, which metalcpu tells apart by the argument, "
                                    "and another takes a pointer or reference in the same place (give the "
                                    "overloads different names)");
            c.diagnostics.note(tokens[unit.module().functions[rival->function].nameToken].location,
                               "the other " + name + " is here");
            continue;
        }
        auto chosen = std::find_if(plan->versions.begin(), plan->versions.end(),
                                   [&](const Version& v) { return v.spaces == spaces; });
        if (chosen == plan->versions.end()) {
            std::string what;
            for (std::size_t i = 0; i < spaces.size(); ++i)
                what += std::string(i == 0 ? "" : ", ") + std::string(spellingOf(spaces[i]));
            c.diagnostics.error(tokens[k].location, "no overload of " + name + " takes arguments in the " + what +
                                                        " address space here");
            c.diagnostics.note(tokens[f.nameToken].location, "the overloads of " + name + " are here");
            continue;
        }
        if (chosen != plan->versions.begin()) c.edits.insertAfter(open, tagType(*chosen) + "{}, ");
    }
    return true;
}

} // namespace metalcpu::msl
