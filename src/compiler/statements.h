// The statement structure of a function body: compound statements, selections, loops, jumps,
// labels and "simple" statements (expressions and declarations, not looked into). Enough for
// a pass that restructures a body around some of its statements without parsing expressions.
#pragma once

#include "compiler/token.h"

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::msl {

class Unit;

enum class StatementKind {
    Compound, ///< `{ ... }`; children are its statements
    If,       ///< children: the then-statement and, with `else`, the else-statement
    For,      ///< children: the body
    While,    ///< children: the body
    Do,       ///< children: the body; `header` is the condition after `while`
    Switch,   ///< children: the body
    Return,
    Break,
    Continue,
    Goto,
    Labeled, ///< `name:`, `case x:`, `default:`; children: the labelled statement
    Empty,   ///< `;`, or pragmas with no statement after them before the block ends
    Simple,  ///< an expression statement or a declaration, up to its `;`
};

/// One statement. Pragma lines and attribute specifiers written before it belong to it.
struct Statement {
    StatementKind kind = StatementKind::Simple;
    TokenRange tokens;               ///< the whole statement, leading pragmas included
    std::size_t keyword = kNoToken;  ///< its first token after the pragmas and attributes
    TokenRange header;               ///< inside the parentheses of if/for/while/switch/do-while
    std::vector<Statement> children; ///< see StatementKind
};

/// The statements of the compound statement whose `{` is at `open` (`partner` matches the
/// brackets). Nothing when a statement cannot be delimited (an unexpected token where one
/// starts, a missing `;`).
std::optional<std::vector<Statement>> parseBlock(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                 std::size_t open);

/// The `;` that ends the simple statement (an expression or a declaration) starting at `i`,
/// brackets skipped whole; kNoToken when a `}`, a pragma or `limit` comes first.
std::size_t simpleStatementEnd(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                               std::size_t limit);

/// A declaration statement `specifiers type declarator [= init | {init} | (init)], ...;` as
/// far as a pass that moves variables needs it.
struct Declaration {
    TokenRange type;                  ///< the specifiers and type, `*`/`&` of the first declarator included
    std::vector<std::size_t> names;   ///< the name token of each declarator
    bool hasInitializer = false;      ///< of the first declarator
    bool isArray = false;             ///< the first declarator has `[...]`
};

/// The declaration that Simple statement `s` is, or nothing when it is an expression statement
/// (or a declaration of a shape this does not know: structured bindings, function pointers).
std::optional<Declaration> parseDeclaration(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                            const Statement& s);

/// The same for the tokens from `begin` up to `end` (the declaration's `;`, or the end of a
/// for-init or condition), which need not be a statement of their own.
std::optional<Declaration> parseDeclaration(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                            std::size_t begin, std::size_t end);

/// The parts of one declarator of a declaration: what a pass needs to give that variable a
/// type of its own (`device float *p, v[4] = {0};`: `v` is a `device float[4]`).
struct DeclaratorParts {
    TokenRange specifiers;  ///< the specifiers and type the declarators share (`device float`)
    TokenRange pointer;     ///< this declarator's `*`, `&`, `&&` and `const` before its name
    std::size_t name = kNoToken;
    TokenRange bounds;      ///< its array bounds, `[4][2]` (empty when it is not an array)
    TokenRange initializer; ///< `= x`, `{...}` or `(...)`, or empty
};

/// Declarator `k` of `d`, whose declaration ends at `end` (its `;`, as given to
/// parseDeclaration()).
DeclaratorParts declaratorParts(const TokenList& tokens, const std::vector<std::size_t>& partner, const Declaration& d,
                                std::size_t k, std::size_t end);

/// A `static` variable declared in a function body.
struct StaticLocal {
    TokenRange tokens;                ///< from `static` up to its `;` (excluded)
    std::size_t nameToken = kNoToken; ///< the first declarator's name, when parseDeclaration() reads it
    bool isConstant = false;          ///< declared `const`, `constexpr` or `constant`
    bool isConstexpr = false;
};

/// The static variables of the function body `body` (its braces included), in its lambdas and
/// in the member functions of its local classes too. Static member functions of local classes
/// are not variables and are left out.
std::vector<StaticLocal> findStaticLocals(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                          TokenRange body);

/// A lambda or a local class written in a function body: code the function's statement tree
/// does not look into (it stops at simple statements), whose statements are not the function's.
struct NestedBody {
    enum class Kind { Lambda, LocalClass };
    Kind kind = Kind::Lambda;
    TokenRange tokens;           ///< from the lambda's introducer or the class's keyword to its closing `}`
    std::size_t open = kNoToken; ///< the `{` of its body
    /// For a local class: the `{` of the body of each member function defined in it (not in the
    /// classes nested in it, which are listed themselves), as scanClassMembers() finds them.
    std::vector<std::size_t> memberBodies;
};

/// The lambdas (TokenRole::LambdaIntroducer, then template parameters, parameters, specifiers
/// and a trailing return type before the `{`) and the local class definitions (`struct`,
/// `class` or `union` with a body) written in function `function`'s body, those nested in
/// others included, in source order (so an outer one before those inside it).
std::vector<NestedBody> findNestedBodies(const Unit& unit, std::size_t function);

/// Whether token `i` lies in one of `bodies` of kind `kind`.
bool inNestedBody(const std::vector<NestedBody>& bodies, NestedBody::Kind kind, std::size_t i);

/// Whether the identifier at `i` names something by itself: it is not a member (`.x`, `->x`)
/// or a qualified name's later part (`ns::x`).
bool isUnqualifiedName(const TokenList& tokens, std::size_t i);

} // namespace metalcpu::msl
