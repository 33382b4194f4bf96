// Internal to helper inlining (helper_inlining.h): one round of inlining, which finds the
// kernels' calls of helpers that synchronise (inlining_sites.cpp), reads the kernel's and the
// helper's declarations (inlining_declarations.cpp) and writes each call as a block
// (inlining_block.cpp). helper_inlining.cpp runs the rounds.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/passes/collective_hoisting.h"
#include "compiler/passes/helper_inlining.h"
#include "compiler/statements.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::msl {

/// The unit with the uses of each local type alias of a kernel (its body's, a block's, an
/// inlined helper's: `typedef float U;`, `using mma_t = typename gemm_kernel::mma_t;`)
/// replaced in its scope by the type it names, or nothing when none is (inlining_aliases.cpp).
/// An alias is replaced when its type is one name (`float`, `typename T::value_type`,
/// `vec<float, 4>`: no cv-qualifier, `*`, `&`, bound or multi-word type, so that the spelling
/// means the same in any use), its name is declared nowhere else in the kernel, and its block
/// declares no other name its type spells.
std::optional<TokenList> substituteLocalAliases(const Unit& unit);

} // namespace metalcpu::msl

namespace metalcpu::msl::inlining {

/// A helper's parameter, as the inlined block declares or substitutes it.
struct HelperParameter {
    TokenRange tokens;                ///< the whole parameter, attributes excluded below
    std::size_t name = kNoToken;      ///< its declarator
    bool reference = false;           ///< `&` or `&&` in its declarator
    std::size_t firstBound = kNoToken; ///< the `[` of an array parameter (it is a pointer)
    bool pointer = false;             ///< a pointer: `*` in its declarator, or an array
    TokenRange defaultValue;          ///< after its `=`, or empty
};

/// One template parameter of a helper's own header.
struct HelperTemplateParameter {
    std::string name;
    bool isType = false;
    TokenRange defaultValue;
};

/// What the class of a member function called on an object declares at its own scope, as the
/// inlined body names it (inlining_members.cpp).
struct ClassScope {
    std::vector<HelperTemplateParameter> templateParameters; ///< the class template's, or none
    std::set<std::string> members; ///< non-static data members and member functions: `obj.name`
    std::set<std::string> statics; ///< static data members: `S<args>::name`
    std::set<std::string> types;   ///< nested classes, aliases and typedefs: `typename S<args>::name`
    bool declares(const std::string& name) const {
        return members.count(name) || statics.count(name) || types.count(name) ||
               std::any_of(templateParameters.begin(), templateParameters.end(),
                           [&](const HelperTemplateParameter& p) { return p.name == name; });
    }
};

/// A call statement to replace.
struct Site {
    std::size_t kernel = 0;
    std::size_t helper = 0;
    TokenRange statement;           ///< the whole statement, `;` included
    std::size_t keyword = 0;        ///< the statement's first token after its pragmas and attributes
    std::size_t callee = 0;         ///< the helper's name at the call
    TokenRange templateArguments;   ///< inside `<...>`, or empty
    bool hasTemplateArguments = false;
    std::size_t open = 0;           ///< the call's `(`
    std::size_t start = 0;          ///< the call's first token: the callee, or a member call's object
    /// A member call `obj.f(args)`: the object's name.
    std::size_t object = kNoToken;
    /// A member call or a static member function called by qualified name (`Q::f(args)`): the
    /// class's body (its `{`), the class as the kernel names it there (the object's declared
    /// type without `thread`, `S<args>` or an alias the kernel declares, or the qualifier `Q`),
    /// and its template arguments as the kernel can write them (aliases followed, the
    /// arguments of the classes they go through substituted).
    std::size_t classBody = kNoToken;
    TokenList classType;
    std::vector<TokenList> classArguments;
    /// Template parameters of the helper that the call deduces, from arguments written
    /// `C<args>{...}` or `C<args>(...)` for parameters of type `C<P, ...>` (MLX's
    /// `LoopAlignment<true, true, true>{}`): each parameter's name and its argument.
    std::map<std::string, TokenList> deduced;
    enum class Form { Call, Assign, Declare } form = Form::Call;
    std::size_t assignment = kNoToken; ///< the `=` (or compound operator) of Assign and Declare
    /// The statement is the last of the kernel's body (not nested): a return in the helper may
    /// stay, as returning from the kernel there is returning from the helper.
    bool endsKernel = false;
};

/// One round: every kernel's calls of helpers that synchronise, found and inlined at once.
class Round {
public:
    Round(const Unit& unit, const CallGraph& graph, std::set<std::string>& usedNames,
          std::vector<InliningRefusal>& refusals)
        : unit_(unit), tokens_(unit.tokens()), partner_(unit.partner()), module_(unit.module()), graph_(graph),
          usedNames_(usedNames), refusals_(refusals) {}

    /// The new token list, or nothing when no call was inlined.
    std::optional<TokenList> run();

private:
    // -- What the kernel and the helper declare (inlining_declarations.cpp) -----------------------

    std::set<std::string> declaredNames(std::size_t begin, std::size_t end) const;

    /// The spellings of tokens [begin, end), attributes and `const` left out, one space apart.
    std::string typeText(const TokenList& tokens, std::size_t begin, std::size_t end,
                         const std::vector<bool>* attribute) const;

    /// Whether the name at `i` (in a kernel's body) may be changed there: it is assigned,
    /// incremented or its address taken, or it is a whole argument of a call that may bind it to
    /// a reference (any call but of the file's functions without reference parameters). With
    /// `throughAlias`, only the last two: what lets other code change it later.
    bool mayChange(std::size_t i, bool throughAlias = false) const;

    /// The parameters of kernel `k` that its body never changes (mayChange()), with their types.
    std::map<std::string, std::string> unchangedParameters(const FunctionDecl& k) const;

    /// Tokens [begin, end) split at the commas outside brackets and template argument lists.
    std::vector<TokenRange> splitAtCommas(std::size_t begin, std::size_t end) const;

    /// The template parameters of `f`'s own header, or nothing when one is a pack, a template
    /// template parameter, unnamed or not read.
    std::optional<std::vector<HelperTemplateParameter>> templateParameters(const FunctionDecl& f) const;

    /// The template parameters written in tokens [begin, end) (a header's, between its `<>`).
    std::optional<std::vector<HelperTemplateParameter>> templateParameters(TokenRange header) const;

    /// The name of the function-pointer parameter declared by tokens [begin, end), `R (*name)(...)`.
    std::optional<std::size_t> functionPointerName(std::size_t begin, std::size_t end) const;

    std::optional<std::vector<HelperParameter>> parameters(const FunctionDecl& f) const;

    /// The call's template arguments, split at their commas (none when it writes none).
    std::vector<TokenRange> templateArguments(const Site& site) const;

    /// Whether `h`'s body calls `name` unqualified (`name(...)`).
    bool calledInBody(const FunctionDecl& h, const std::string& name) const;

    /// The return type of `h`, without the specifiers and attributes before it.
    TokenRange returnType(const FunctionDecl& h) const;

    // -- Which calls are inlined (inlining_sites.cpp) ---------------------------------------------

    void refuse(std::size_t kernel, std::size_t where, std::string reason);

    bool synchronises(std::size_t f) const;

    bool reachesTensorOperation(std::size_t f) const;

    void findSites(std::size_t kernel, const std::vector<Statement>& statements, bool inBlock);

    /// The call of a synchronising helper that statement `s` is, if any, and whether it can be
    /// inlined (a site) or not (a refusal).
    void site(std::size_t kernel, const Statement& s, bool inBlock);

    /// What in the helper keeps the call from being inlined: (where, why).
    std::optional<std::pair<std::size_t, std::string>> helperObstacle(std::size_t kernel, const Site& site);

    // -- Member functions called on an object (inlining_members.cpp) ------------------------------

    /// For a member call `obj.f(args)`: finds the object's declaration in kernel `k` and its
    /// class, and says what keeps the call from being inlined: (where, why), or nothing.
    std::optional<std::pair<std::size_t, std::string>> memberObstacle(const FunctionDecl& k, Site& site) const;

    /// For a static member function called by qualified name, `Q::f(args)` (MLX's
    /// `gemm_kernel::gemm_loop(...)`): the qualifier's class, which must be f's; (where, why)
    /// of what keeps the call from being inlined, or nothing.
    std::optional<std::pair<std::size_t, std::string>> staticObstacle(const FunctionDecl& k, Site& site) const;

    /// The class a type names, as the kernel `k` writes it before token `before`: a class
    /// (template) of namespace scope, `S` or `S<args>`, an alias the kernel's body declares
    /// once (`using A = ...;`, `typedef ... A;`), or a member alias of a class so named
    /// (`typename A::m`), followed at most a few deep. Its body and its template arguments as
    /// the kernel can write them; nothing when it is none of these.
    struct ClassType {
        std::size_t body = kNoToken;
        std::vector<TokenList> arguments;
    };
    std::optional<ClassType> resolveClass(const FunctionDecl& k, const TokenList& type, std::size_t before,
                                          int depth = 0) const;

    /// The body of the one class (template) named `name` that has member functions, if any.
    std::size_t classNamed(const std::string& name) const;

    /// What the class whose body opens at `open` declares at its own scope; nothing when the class
    /// is not a class (or class template) of namespace scope without bases whose members are read.
    std::optional<ClassScope> classScope(std::size_t open) const;
    std::optional<ClassScope> classScope(const FunctionDecl& h) const { return classScope(h.classBody); }

    /// The substitutions that make text of a class's scope (a member function's body, a member
    /// alias), copied into the kernel, name the class as `type` writes it there: statics
    /// `type::s`, types `typename type::t`, the class's template parameters `arguments` (or
    /// their defaults).
    void classSubstitutions(const ClassScope& scope, const TokenList& type, const std::vector<TokenList>& arguments,
                            Location at, std::map<std::string, TokenList>& subst) const;

    /// The substitutions that make member function `h`'s body, copied into the kernel, name the
    /// object of `site` and its class: members `obj.m` (for a call on an object), statics and
    /// types through the class as the kernel names it, the class's template parameters its
    /// arguments.
    void memberSubstitutions(const FunctionDecl& h, const Site& site, std::map<std::string, TokenList>& subst) const;

    /// Whether helper `h`, of another namespace than kernel `k`, means in the kernel what it
    /// means in its namespace: a `using namespace` of the helper's namespace comes before the
    /// kernel (MLX's `using namespace mlx::steel;`), and each function the helper calls by
    /// name is declared in that namespace only. (where, why), or nothing.
    std::optional<std::pair<std::size_t, std::string>> namespaceObstacle(const FunctionDecl& h,
                                                                         const FunctionDecl& k) const;

    /// Binds the template parameters of `h` that `site` does not write from its arguments
    /// written `C<args>{...}` or `C<args>(...)` to parameters of type `C<P, ...>` (site.deduced).
    void deduceTemplateArguments(const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ,
                                 Site& site) const;

    /// A type template argument written with `*` or `&` (`float*`, `constant kargs &`) that the
    /// helper qualifies (`const T x`, `T const`, `T::x`): pasted in as written, the qualifier
    /// would apply to the pointee instead of the pointer. (where, why), or nothing.
    std::optional<std::pair<std::size_t, std::string>> typeArgumentObstacle(
        const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ, const Site& site) const;

    /// A non-type template parameter that `h` calls (`deq(x, v)`) whose argument, the call's or
    /// the default, is not a plain name of a function it can be called as: the kernel's own
    /// template parameter, or the file's only function of that name, not a template nor a
    /// member. Inlined, the call is of that name, which the call graph follows as it would the
    /// parameter. (where, why), or nothing.
    std::optional<std::pair<std::size_t, std::string>> functionArgumentObstacle(
        const FunctionDecl& h, const std::vector<HelperTemplateParameter>& templ, const Site& site) const;

    /// A return of `statements` (nested ones included) other than `last`.
    std::optional<std::size_t> earlyReturn(const std::vector<Statement>& statements, const Statement* last) const;

    /// The `threadgroup` of a threadgroup variable declared in `h`'s body (not of a pointer or
    /// reference to threadgroup memory), if any.
    std::optional<std::size_t> threadgroupVariable(const FunctionDecl& h) const;

    bool hasLabel(const std::vector<Statement>& statements) const;

    /// One past the last token in the scope of the local that `h` declares at `declarator`:
    /// its block's `}`, or the end of the `for`/`if`/`while`/`switch` whose header declares it;
    /// kNoToken when it is declared anywhere else (a lambda's parameters).
    std::size_t scopeEnd(const FunctionDecl& h, std::size_t declarator) const;

    /// The tokens of `h` that name a local declared again with the name of one of `h`'s
    /// parameters (llama.cpp's `for (short k = 0; ...)` in a helper with a parameter `k`), each
    /// with the local's declarator (the innermost one whose scope holds the token). Empty
    /// when a scope is not found (then `unscoped` is the declarator).
    std::map<std::size_t, std::size_t> shadowingUses(const FunctionDecl& h, const std::set<std::string>& parameters,
                                                     std::size_t& unscoped) const;

    // -- Writing the inlined block (inlining_block.cpp) -------------------------------------------

    std::string freshName(const std::string& base);

    /// Tokens [begin, end) with the substitutions applied to the names that stand by themselves.
    void copy(std::size_t begin, std::size_t end, const std::map<std::string, TokenList>& substitutions,
              TokenList& out) const;

    /// Whether by-value parameter `param` (the k-th) of `h`, given the name `args[k]`, can be
    /// that name instead of a copy: the helper never changes the parameter (nor asks its size,
    /// which differs for an array), and nothing can change what the name holds while the helper
    /// runs. A pointer that is a variable of its own would be a thread pointer living across the
    /// barriers, which has no slots.
    bool aliasable(const FunctionDecl& h, const HelperParameter& param, const std::vector<TokenRange>& args,
                   std::size_t k) const;

    /// Whether by-value parameter `param` is given, as `arg`, a kernel parameter of the same type
    /// (const aside) that the kernel never changes: then the copy would always equal it, and the
    /// split keeps knowing what it knows of the kernel's parameter (a uniform builtin's value).
    bool sameUnchangedValue(const Site& site, const HelperParameter& param, TokenRange arg,
                            const std::map<std::string, TokenList>& subst) const;

    /// The type of `param` (the tokens before its name) with the substitutions made, and which
    /// of them are attributes.
    TokenList substitutedType(const HelperParameter& param, const std::map<std::string, TokenList>& subst,
                              std::vector<bool>& attribute) const;

    /// Whether `type` has `punct` of its own (outside template arguments and brackets): a
    /// template argument may make a parameter a reference (`args_t args`, args_t =
    /// `constant kargs &`) or a pointer.
    static bool hasOwn(const TokenList& type, const std::vector<bool>& attribute, std::string_view punct);

    void emit(const Site& site, TokenList& out);

    static Token made(std::string spelling, TokenKind kind, Location at) {
        return syntheticToken(std::move(spelling), kind, at);
    }
    static Token punct(std::string spelling, Location at) { return made(std::move(spelling), TokenKind::Punctuator, at); }
    static Token name(std::string spelling, Location at) { return made(std::move(spelling), TokenKind::Identifier, at); }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<std::size_t>& partner_;
    const Module& module_;
    const CallGraph& graph_;
    std::set<std::string>& usedNames_;
    std::vector<InliningRefusal>& refusals_;
    std::set<std::string> kernelNames_;
    const std::vector<Statement>* kernelBody_ = nullptr; ///< the statements of the kernel findSites() reads
    /// While emit() copies a helper: its tokens that name a local shadowing a parameter, with
    /// the local's new name (copy() writes that instead of the parameter's substitution).
    std::map<std::size_t, std::string> shadowed_;
    /// While emit() copies a member function: the object `this` points to (`this` is `(&obj)`).
    std::string thisObject_;
    std::size_t kernel_ = 0; ///< the kernel whose call emit() writes
    /// Per kernel: its parameters its body never changes, by name, with their types' text.
    std::map<std::size_t, std::map<std::string, std::string>> unchangedParameters_;
    std::vector<Site> sites_;
    std::size_t counter_ = 0;
};

} // namespace metalcpu::msl::inlining
