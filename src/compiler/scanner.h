// The declaration scanner: finds the structure the translation needs (namespaces, classes,
// templates, functions and their bodies, kernels, explicit instantiations) without parsing
// expressions or statements.
#pragma once

#include "compiler/diagnostics.h"
#include "compiler/syntax.h"
#include "compiler/token.h"

#include <string>
#include <vector>

namespace metalcpu::msl {

/// A function declaration or definition at namespace or class scope.
struct FunctionDecl {
    std::string name;                    ///< unqualified; "operator()" for call operators
    std::size_t nameToken = kNoToken;    ///< the (last) token of the name
    std::size_t headerBegin = 0;         ///< the `template` of its template header, else declarationBegin
    std::size_t declarationBegin = 0;    ///< first token after any template header
    std::vector<std::string> namespaces; ///< enclosing named namespaces, outermost first
    std::string enclosingClass;          ///< "" at namespace scope
    std::size_t classBody = kNoToken;    ///< the `{` of the enclosing class body
    bool isTemplate = false;
    TokenRange templateParameters; ///< between the `<` and `>` of the template header
    /// Type (typename/class/template) parameters of its own template and of enclosing class templates.
    std::vector<std::string> templateTypeParameters;
    /// Non-type parameters (values, function pointers) of the same.
    std::vector<std::string> templateValueParameters;
    std::vector<AttributeSpec>
        attributes; ///< function-level [[...]] (before the name or after the parameters)
    std::size_t kernelKeyword = kNoToken;   ///< the `kernel` keyword, if written
    bool isKernel = false;                  ///< `kernel` or [[kernel]]
    std::size_t renderKeyword = kNoToken;   ///< `vertex`/`fragment` (keyword or attribute)
    std::size_t parametersOpen = kNoToken;  ///< `(`
    std::size_t parametersClose = kNoToken; ///< `)`
    /// Qualifiers after the parameter list: `const`, `volatile`, and MSL's address spaces
    /// (`thread`, `device`, `constant`, `threadgroup`) on member functions.
    std::vector<std::size_t> trailingQualifiers;
    bool isDefaulted = false; ///< `= default`, `= delete` or `= 0` instead of a body
    bool hasBody = false;
    std::size_t bodyOpen = kNoToken;  ///< `{`
    std::size_t bodyClose = kNoToken; ///< `}`
    std::size_t declarationEnd = 0;   ///< one past the `;` or the body's `}`
};

/// `template [[host_name("x")]] kernel void f<A>(...);` and the other explicit-instantiation forms.
struct ExplicitInstantiation {
    TokenRange tokens;                   ///< `template` up to and including the `;`
    std::vector<std::string> namespaces; ///< where the instantiation is written
    std::vector<AttributeSpec> attributes;
    bool marksKernel = false;  ///< `kernel`, [[kernel]] or [[host_name]] present
    std::string qualifiedName; ///< as written: "f", "::ns::f", "metal::f"
    std::size_t nameToken = kNoToken;
    bool hasTemplateArguments = false;
    TokenRange templateArguments; ///< between `<` and `>`
    bool hasParameters = false;
    TokenRange parameters; ///< between `(` and `)`
    /// The kernel template it instantiates (Module::functions), set by findEntryPoints().
    std::size_t target = kNoToken;
};

/// A variable with static storage that is not a local: a declaration at namespace scope that
/// declares no function (a variable, or anything else that is not a class, enum, typedef, using
/// or static_assert), a variable template, or a `static` data member in a class body.
struct VariableDecl {
    TokenRange tokens; ///< the declaration, its template header and `;` excluded
    std::vector<std::string> namespaces;
    /// The first declarator's name: the last identifier before its initializer, its array
    /// bounds or the end (attributes and parenthesised parts skipped); kNoToken if none.
    std::size_t nameToken = kNoToken;
    bool isTemplate = false;    ///< a variable template: the declaration has a template header of its own
    std::string enclosingClass; ///< for a static data member, its class; "" at namespace scope
};

/// What the scanner found in one translation unit.
struct Module {
    std::vector<FunctionDecl> functions;
    std::vector<ExplicitInstantiation> instantiations;
    std::vector<VariableDecl> variables;
};

/// Whether variable `v` is declared `constant`, `const` or `constexpr` (in its own specifiers,
/// not in template arguments or a class body it defines).
bool declaresConstant(const TokenList& tokens, const std::vector<std::size_t>& partner, const VariableDecl& v);

/// Whether variable `v` is declared `extern` or `threadgroup`, which the restricted dialect's checks
/// refuse with diagnostics of their own (the other checks of program-scope variables and the
/// rewrites leave such a declaration alone).
bool declaresExternOrThreadgroup(const TokenList& tokens, const VariableDecl& v);

/// Scans the tokens (whose brackets `partner` matches, see matchBrackets()). Reports what it
/// cannot make sense of and stops there; the Module then holds what was found before.
Module scanModule(const TokenList& tokens, const std::vector<std::size_t>& partner, Diagnostics& diagnostics);

/// The member functions of the class whose body opens at `open` (a `{`), those of the classes
/// nested in it included, as scanModule() finds them in a class at namespace scope: for a local
/// class, which scanModule() does not look into (it is part of a function body). Their
/// `enclosingClass` is "" and their namespaces are none. Nothing when a part of the body makes
/// no sense to the scanner (nothing is reported).
std::vector<FunctionDecl> scanClassMembers(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                           std::size_t open);

} // namespace metalcpu::msl
