// The translation unit as every pass sees it: tokens, matched brackets, the declarations the
// scanner found, the statement tree of each function body and one role per token. Built once,
// read-only afterwards; passes ask it instead of re-deriving C++ from nearby tokens.
#pragma once

#include "compiler/scanner.h"
#include "compiler/statements.h"
#include "compiler/token.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace metalcpu::msl {

/// What a token is in the C++ around it, as far as the front end can tell without types.
/// Where C++ itself needs types to decide (`a * b;`, `(x)(y)`), the role is the one a
/// kernel's code makes likely and the passes' tests pin down.
enum class TokenRole : std::uint8_t {
    Unknown,
    Keyword,            ///< a C++ keyword (MSL's address spaces are names here)
    Attribute,          ///< inside `[[...]]` or `__attribute__((...))`, the brackets included
    Name,               ///< a name used in an expression or a type
    Declarator,         ///< the name a declaration introduces: variable, parameter, function
    Member,             ///< a name after `.`, `->`, `.*` or `->*` (past `template`: `f` in `a.template f<T>()`)
    QualifiedPart,      ///< a name after `::` (`b` in `a::b`, `x` in `::x`, `g` in `n::template g<T>`)
    Callee,             ///< the name of a called function: `f` in `f(x)`, `f<T>(x)` (`a.f()`, `ns::f()`: member, qualified-part)
    CallOpen,           ///< the `(` of a call
    CastOpen,           ///< the `(` of a C-style cast or of a named cast's operand
    Subscript,          ///< the `[` of a subscript
    ArrayBound,         ///< the `[` of an array declarator
    LambdaIntroducer,   ///< the `[` that starts a lambda
    Assignment,         ///< `=`
    CompoundAssignment, ///< `+=` and the others; for `>>=` (lexed `>` `>=`) the `>`
    Increment,          ///< `++` or `--`
    Dereference,        ///< a unary `*`: `*p`, `a * *p`, `(float)*p`, `if (c) *p = 0;`
    AddressOf,          ///< a unary `&`: `&x`, `f(a, &x[i])`
};

const char* tokenRoleName(TokenRole role);

/// How Unit::postfixStart() reads template arguments on its way back: those of a call,
/// `f<T>(x)`, and of a qualifier, `S<T>::x`.
enum class TemplateArguments : std::uint8_t {
    /// Stop without a start: without name lookup the `>` may as well close a comparison
    /// (`a < b && c > (d)[i]`, `c > ::x[i]`), so a pass that wraps the expression must not
    /// guess where it starts.
    Refuse,
    /// Read them as the unit's roles do (the `(` after them is a call): the expression a
    /// call is made on, `a.template f<T>(x).g()`, `S<T>::f()`.
    Follow,
};

/// What the operators around an expression do to it (Unit::useOf()).
enum class UseKind : std::uint8_t {
    Read,             ///< none of the below: read, or handed on (an argument, an initializer)
    Assigned,         ///< the left operand of `=`; a declarator with `= init` too
    CompoundAssigned, ///< the left operand of `+=` and the others, `>>=` (lexed `>` `>=`) included
    Incremented,      ///< the operand of `++` or `--`, prefix or postfix
    AddressTaken,     ///< the operand of a unary `&`
};

/// Which parts of an object Unit::useOf() counts as the object, so that what is done to them is
/// done to it.
enum class ObjectParts : std::uint8_t {
    None,    ///< the expression alone: `x = 1`, `++x`, `&x`; not `x.y = 1`, `&x[0]`
    Members, ///< and its members named after `.`: `v.x = 1`, `++s.a.b` (what a value holds)
    All,     ///< and those after `->` and subscripts too: `v[0] = 1`, `p->m += 2`, `&a[i].b`
};

/// An expression's use: what is done to it, and by which operator.
struct ExpressionUse {
    UseKind kind = UseKind::Read;
    /// The `=`, the compound assignment (the `>` of `>>=`), the `++`/`--` or the `&`; kNoToken
    /// for UseKind::Read.
    std::size_t operatorToken = kNoToken;
};

/// One preprocessed translation unit's syntax.
class Unit {
public:
    /// `tokens` and `partner` (see matchBrackets()) and `module` (see scanModule()) must
    /// outlive the Unit. Passes change the tokens' output only (Token::text and friends,
    /// through EditList), never their spellings, so the Unit stays valid throughout.
    Unit(const TokenList& tokens, const std::vector<std::size_t>& partner, const Module& module);

    const TokenList& tokens() const { return tokens_; }
    const std::vector<std::size_t>& partner() const { return partner_; }
    const Module& module() const { return module_; }
    std::size_t size() const { return tokens_.size(); }
    const Token& operator[](std::size_t i) const { return tokens_[i]; }

    TokenRole role(std::size_t i) const { return i < roles_.size() ? roles_[i] : TokenRole::Unknown; }
    /// A name that names something by itself: not a member, not a later part of a qualified
    /// name, not a keyword.
    bool isUnqualifiedName(std::size_t i) const;
    /// `=` or a compound assignment starts at `i`.
    bool isAssignmentOperator(std::size_t i) const {
        return role(i) == TokenRole::Assignment || role(i) == TokenRole::CompoundAssignment;
    }

    /// Whether the `*`, `&` or `&&` at `i` belongs to a declarator rather than being an
    /// operator: the name it leads to (past more of them and cv-qualifiers) is a Declarator,
    /// as `*p` in `T* p;` and `*b` in `float a, *b;` (TokenRole::Declarator says where).
    bool isDeclaratorOperator(std::size_t i) const;

    /// A name that is or continues an operand: a name, callee, declarator, member or
    /// qualified part that is no keyword (`this` is one; `template` in `a.template f` is not).
    bool isOperandName(std::size_t i) const;
    /// A member named after `.` or `->`, which continues the postfix expression before it
    /// (after `.*` and `->*` the name is an operand of its own, of lower precedence than `[]`).
    bool isAccessedMember(std::size_t i) const;
    /// Whether the `->` at `arrow` starts a trailing return type: it follows (past `mutable`,
    /// `const`, `noexcept(...)`, ref-qualifiers and attributes) a lambda's introducer, a
    /// lambda's parameters or a function declarator's, rather than an operand (`(p + 1)->m`,
    /// `a > (p)->m`, `f()->m`).
    bool startsTrailingReturnType(std::size_t arrow) const;
    /// Whether the `)` at `close` ends a C-style cast `(type)`, whose operand follows it (a
    /// named cast's `(`, after its `>`, is CastOpen too but holds the operand).
    bool closesCStyleCast(std::size_t close) const;
    /// Whether the `)` at `close` ends the condition of `if`, `while`, `for` or `switch`.
    bool closesCondition(std::size_t close) const;

    // Expressions, names and types, read off the roles (unit_expressions.cpp).

    /// The first token of the postfix expression whose last token is `last` (a name, or the `]`
    /// or `)` of a subscript, a call or a parenthesised expression): back over subscripts,
    /// calls, member accesses (`.`, `->`, `.template`) and qualifications (`ns::`, `::`),
    /// to `a` in `a[i].b[j]`, `p->f(x)`, `this->x`, `ns::v[i]`, `(*p)[i]`, `f(x)[0]`, to `::` in
    /// `::v[i]`, to the cast in `static_cast<S&>(s).x`. A C-style cast stays outside: the
    /// expression of `(T)a[i]` starts at `a`. kNoToken when `last` ends no such expression (a
    /// lambda's introducer, an array bound, a literal) or at template arguments that
    /// `templateArguments` refuses; then `refusedTemplateArguments`, when given, is set.
    std::size_t postfixStart(std::size_t last, TemplateArguments templateArguments,
                             bool* refusedTemplateArguments = nullptr) const;
    /// The last token of the postfix expression that starts at `first` (a name, `::`, a named
    /// cast, or `(`): forwards over subscripts, calls, member accesses and postfix `++`/`--`,
    /// `a[i].b[j]` from `a`, `p->f(x)` from `p`, `f<T>(x)[0]` from `f`, `(p + 1)[i]` from `(`.
    /// After a C-style cast it is the end of the expression the cast applies to (`(T)a[i]`
    /// from `(`: the `]`). kNoToken when no such expression starts at `first`.
    std::size_t postfixEnd(std::size_t first) const;
    /// The first token of the name whose last part is at `last` with its qualification:
    /// `a` in `a::b::last`, `::` in `::a::last`, `S` in `S<T>::last` and `a::template last`;
    /// `last` itself when nothing qualifies it. A member stays what it is: for `x.last` and
    /// `x.ns::last` the result is the member (TokenRole::Member), not `x`.
    std::size_t qualifiedNameStart(std::size_t last) const;
    /// The first token of the assignment operator that ends just before token `i`: `=`, `+=`
    /// and the others, the `>` of `>>=` (lexed `>` `>=`); kNoToken when none does.
    std::size_t assignmentBefore(std::size_t i) const;
    /// How the expression [first, last] (a name, a postfix expression, `*p`) is used where it
    /// stands: assigned, compound-assigned, incremented or decremented, its address taken, or
    /// read. Parentheses that only group it are looked through (`(x) = 1`, `++(a[i])`; not
    /// those of a call, a cast or a condition: `f(x) = 1`, `if (x) ++y;`), and so are the parts
    /// `parts` names, so that with ObjectParts::All `x` is assigned in `x.y[i] = 1`. A prefix
    /// `++`, `--` or `&` applies to what it stands before only where that is a whole operand,
    /// not the start of a longer postfix expression: `x` is not incremented in `++x.f()`, nor
    /// `a[i]` in `++a[i][j]`. A call or a reference binding may write too; that takes the
    /// callee's or the reference's type, which the syntax layer does not know.
    ExpressionUse useOf(std::size_t first, std::size_t last, ObjectParts parts) const;
    /// The `(` of the call whose callee's name is at `name` (`f(x)`, `f<T>(x)`, `a.f(x)`,
    /// `ns::f(x)`; TokenRole::CallOpen), or kNoToken when that name is not called there.
    std::size_t callOpen(std::size_t name) const;
    /// One past the type that starts at `first`, read forwards: cv-qualifiers, address spaces,
    /// type keywords, `typename`, names with their qualification and template arguments
    /// (`const device metal::vec<float, 4>`), up to the declared name (TokenRole::Declarator)
    /// or whatever else no type holds (`*`, `&`, `(`, `[`, `,`, `)`, `;`). `first` when no type
    /// starts there.
    std::size_t typeEnd(std::size_t first) const;

    /// The statements of function `function`'s body (Module::functions index), or nullptr when
    /// it has no body or the statement parser could not delimit it.
    const std::vector<Statement>* body(std::size_t function) const;
    /// The statements of the body of a lambda or of a local class's member function written in
    /// a function body, by the `{` that opens it (NestedBody::open, NestedBody::memberBodies), or
    /// nullptr when there is no such body or the statement parser could not delimit it. A
    /// function's tree stops at the simple statement that holds the lambda or the class; this
    /// is the tree inside.
    const std::vector<Statement>* nestedBody(std::size_t open) const;
    /// Whether token `i` is the first token of a statement (after its pragmas and attributes)
    /// in a function body, a lambda's body or a local class's member function's. Bodies the
    /// statement parser could not delimit are judged by the tokens before `i` (counted in
    /// lexicalBodies(), nested bodies not counted).
    bool startsStatement(std::size_t i) const;
    /// How many function bodies startsStatement() judges by their tokens alone.
    std::size_t lexicalBodies() const { return lexicalBodies_; }
    /// The innermost function (Module::functions index) whose body holds token `i`, or kNoToken.
    std::size_t functionAt(std::size_t i) const;

private:
    void classify();
    /// Whether the `(` at `open` starts a C-style cast `(type)operand`, judged by the group
    /// (nothing but names, `*`, `&`, `::`, `<`, `>` and `,`) and what follows it: the start of
    /// an operand when the type carries a mark (a type keyword, an address space or a trailing
    /// `*`/`&`), or a name or a literal, which no parenthesised expression is followed by
    /// (`(fptr)p`, `(T)1`).
    bool castsOperand(std::size_t open) const;
    /// Dereference or AddressOf for the `*` or `&` at `i` where it is a unary operator, judged
    /// after every other role is known (a declarator's `*` is none).
    TokenRole unaryRole(std::size_t i) const;
    /// Whether a declaration can start with the type whose last name is at `typeEnd` (where a
    /// statement, a parameter or a member starts).
    bool startsDeclaration(std::size_t typeEnd) const;
    /// Whether the `(` at `open` only groups the expression inside it: no call's, cast's,
    /// condition's, parameter list's or keyword's parentheses (`sizeof(x)`, `T v(x)`).
    bool groupsExpression(std::size_t open) const;
    /// Whether a postfix expression that ends at `last` goes on after it: a subscript, a call or
    /// a member access follows.
    bool continuesPostfix(std::size_t last) const;
    /// Whether a `;` lies between `open` and `i` outside nested brackets.
    bool semicolonBetween(std::size_t open, std::size_t i) const;
    /// Whether the `,` at `comma` separates the declarators of one declaration
    /// (`float x[4], y[4];`): a declarator precedes it in the same statement, at its depth,
    /// with no template argument list open in between.
    bool continuesDeclaratorList(std::size_t comma) const;
    void markStatements(const std::vector<Statement>& statements);
    /// The `.`, `->` or `::` that joins the name at `name` to what comes before it (past the
    /// `template` of `a.template f`, `a::template f`), or kNoToken when nothing does.
    std::size_t joinBefore(std::size_t name) const;
    /// The name before the `::` at `colons` that the `::` continues: a name (`a` in `a::b`),
    /// or the name whose template arguments end there (`S` in `S<T>::b`) unless
    /// `templateArguments` refuses them (then kNoToken and `*refused`); kNoToken when the `::`
    /// is global (`::b`, `c > ::b` where no `<` opens what the `>` would close).
    std::size_t qualifierBefore(std::size_t colons, TemplateArguments templateArguments, bool* refused) const;

    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const Module& module_;
    std::vector<TokenRole> roles_;
    std::vector<std::optional<std::vector<Statement>>> bodies_;
    std::map<std::size_t, std::vector<Statement>> nestedBodies_; ///< by the `{` of the body
    std::vector<std::uint8_t> statementStart_; ///< 1: starts a statement; 2: in a lexically judged body
    std::vector<std::size_t> bodyOwner_;       ///< per token: the innermost function whose body holds it
    std::size_t lexicalBodies_ = 0;
};

} // namespace metalcpu::msl
