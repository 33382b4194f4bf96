#include "compiler/passes/threadgroup_variables.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/signature.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

namespace metalcpu::msl {

namespace {

// The simple statements of function `function`'s body's statement tree and of the trees of the
// lambdas written in it (a lambda sees __mc_group through [&]; one in a local class does not,
// which the caller checks first), keyed by the token each starts at.
std::map<std::size_t, const Statement*> ownStatements(const Unit& unit, std::size_t function,
                                                      const std::vector<NestedBody>& nested) {
    std::map<std::size_t, const Statement*> out;
    auto add = [&](const std::vector<Statement>& statements, auto& self) -> void {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Simple) out.emplace(s.keyword, &s);
            self(s.children, self);
        }
    };
    if (const std::vector<Statement>* body = unit.body(function)) add(*body, add);
    for (const NestedBody& b : nested)
        if (const std::vector<Statement>* tree = b.kind == NestedBody::Kind::Lambda ? unit.nestedBody(b.open) : nullptr)
            add(*tree, add);
    return out;
}

// The innermost `{` that holds token `i` with nothing but other braces' contents in between
// (a block, a class body), or kNoToken when a `(` or `[` is nearer: where a declaration
// statement could stand.
std::size_t enclosingBrace(const Unit& unit, std::size_t i) {
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t k = i; k-- > 0;) {
        if (partner[k] != kNoToken && partner[k] < k)
            k = partner[k];
        else if (partner[k] != kNoToken)
            return unit[k].isPunct("{") ? k : kNoToken;
    }
    return kNoToken;
}

// The simple statement that starts at token `i` in `statements` or nested in them, or nullptr.
const Statement* simpleStatementAt(const std::vector<Statement>& statements, std::size_t i) {
    for (const Statement& s : statements) {
        if (s.tokens.end <= i || i < s.tokens.begin) continue;
        if (s.kind == StatementKind::Simple) return s.keyword == i ? &s : nullptr;
        return simpleStatementAt(s.children, i);
    }
    return nullptr;
}

// For code the trees of ownStatements() do not hold (a local class's member function, a block
// of a body the parser could not delimit as a whole): the statements of the block around a
// token as the statement parser delimits them, each block parsed once.
class EnclosingBlocks {
public:
    explicit EnclosingBlocks(const Unit& unit) : unit_(unit) {}

    /// The simple statement that starts at token `i` in its innermost block, or nullptr.
    const Statement* statementAt(std::size_t i) {
        const std::size_t open = enclosingBrace(unit_, i);
        if (open == kNoToken) return nullptr;
        auto parsed = blocks_.find(open);
        if (parsed == blocks_.end())
            parsed = blocks_.emplace(open, parseBlock(unit_.tokens(), unit_.partner(), open)).first;
        return parsed->second ? simpleStatementAt(*parsed->second, i) : nullptr;
    }

private:
    const Unit& unit_;
    std::map<std::size_t, std::optional<std::vector<Statement>>> blocks_;
};

// Whether statement `s` is or holds the simple statement that starts at token `i`; the `if`
// statements on the way down are appended to `out`.
bool leadsTo(const Statement& s, std::size_t i, std::vector<EnclosingBranch>& out) {
    if (s.tokens.end <= i || i < s.tokens.begin) return false;
    if (s.kind == StatementKind::Simple) return s.keyword == i;
    // An if's children are its then-statement and its else-statement.
    const bool branches = s.kind == StatementKind::If && !s.header.empty();
    for (std::size_t c = 0; c < s.children.size(); ++c) {
        if (branches) out.push_back({s.header, c == 0});
        if (leadsTo(s.children[c], i, out)) return true;
        if (branches) out.pop_back();
    }
    return false;
}

// The `if` statements around the simple statement at token `i` in `trees`, outermost first.
std::vector<EnclosingBranch> enclosingBranches(const std::vector<const std::vector<Statement>*>& trees, std::size_t i) {
    std::vector<EnclosingBranch> out;
    for (const std::vector<Statement>* tree : trees)
        for (const Statement& s : *tree) {
            if (leadsTo(s, i, out)) return out;
            out.clear();
        }
    return out;
}

// Whether condition `c` can be copied into a template argument of the declaration: made of
// the function's template parameters, constexpr locals and function constants (`names`),
// qualified names, literals and operators, no assignment, lambda or declaration, and
// untouched by the passes before this one.
bool constantShaped(const PassContext& c, TokenRange condition, const std::vector<std::string>& names) {
    const TokenList& tokens = c.unit.tokens();
    static constexpr std::string_view kWords[] = {"true", "false", "sizeof", "alignof", "static_cast", "nullptr"};
    for (std::size_t k = condition.begin; k < condition.end; ++k) {
        const Token& t = tokens[k];
        if (c.edits.isRewritten(k)) return false;
        if (t.kind == TokenKind::Punctuator) {
            const std::string& p = t.spelling;
            const bool comparison = p == "==" || p == "!=" || p == "<=" || p == ">=";
            if (p == "{" || p == "}" || p == ";" || p == "[" || p == "." || p == "->" || p == "++" || p == "--" ||
                (p.back() == '=' && !comparison))
                return false;
            continue;
        }
        if (!t.isIdentifier()) continue; // a literal
        const bool qualified = (k + 1 < condition.end && tokens[k + 1].isPunct("::")) ||
                               (k > condition.begin && tokens[k - 1].isPunct("::"));
        if (qualified || isTypeKeyword(t.spelling) || std::ranges::find(kWords, t.spelling) != std::end(kWords) ||
            std::ranges::find(names, t.spelling) != names.end())
            continue;
        return false;
    }
    return !condition.empty();
}

// The names function `f`'s body declares `constexpr` (`constexpr bool kUse = false;`): like
// template parameters, constants wherever a later pass moves a threadgroup declaration to.
std::vector<std::string> constexprLocals(const Unit& unit, const FunctionDecl& f) {
    const TokenList& tokens = unit.tokens();
    std::vector<std::string> out;
    for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
        if (!tokens[i].isIdentifier("constexpr") || tokens[i - 1].isIdentifier("if")) continue;
        const std::size_t end = simpleStatementEnd(tokens, unit.partner(), i, f.bodyClose);
        if (end == kNoToken) continue;
        if (const auto d = parseDeclaration(tokens, unit.partner(), i, end))
            for (std::size_t name : d->names) out.push_back(tokens[name].spelling);
        i = end;
    }
    return out;
}

// The template parameters of function `f`, split; empty for a non-template.
std::vector<TokenRange> templateParameters(const Unit& unit, const FunctionDecl& f) {
    if (!f.isTemplate || f.templateParameters.empty()) return {};
    return splitParameters(unit.tokens(), unit.partner(), f.templateParameters.begin - 1, f.templateParameters.end);
}

// The name a template parameter declares (`T` of `typename T`, `N` of `int N = 4`, `Ts` of
// `class... Ts`), with whether it is a pack; kNoToken when it has none the body could name.
std::pair<std::size_t, bool> templateParameterName(const Unit& unit, TokenRange p) {
    const TokenList& tokens = unit.tokens();
    for (std::size_t k = p.begin; k < p.end; ++k)
        if (tokens[k].isIdentifier("template")) return {kNoToken, false};
    const std::size_t end = parameterDefault(tokens, unit.partner(), p);
    if (end < p.begin + 2) return {kNoToken, false};
    const Token& name = tokens[end - 1];
    const Token& before = tokens[end - 2];
    if (!name.isIdentifier() || isCppKeyword(name.spelling)) return {kNoToken, false};
    if (before.isPunct("...")) return {end - 1, true};
    return {before.isIdentifier() ? end - 1 : kNoToken, false};
}

} // namespace

std::string siteKeyLiteral(std::uint64_t key) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llxull", static_cast<unsigned long long>(key));
    return buffer;
}

std::vector<ThreadgroupDeclaration> findThreadgroupVariables(const Unit& unit, std::uint64_t fileKey,
                                                             Diagnostics& diagnostics) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    const Module& module = unit.module();
    std::vector<ThreadgroupDeclaration> out;
    std::uint64_t site = 0;

    for (const VariableDecl& v : module.variables) {
        if (v.tokens.empty()) continue;
        for (std::size_t i = v.tokens.begin; i < v.tokens.end; ++i) {
            if (!tokens[i].isIdentifier("threadgroup")) continue;
            bool pointer = false;
            for (std::size_t k = i + 1; k < v.tokens.end; ++k)
                if (tokens[k].isPunct("*") || tokens[k].isPunct("&")) pointer = true;
            if (!pointer)
                diagnostics.error(tokens[i].location,
                                  "threadgroup variables must be declared inside a function");
            break;
        }
    }

    for (std::size_t fi = 0; fi < module.functions.size(); ++fi) {
        const FunctionDecl& f = module.functions[fi];
        if (!f.hasBody) continue;
        const std::vector<NestedBody> nested = findNestedBodies(unit, fi);
        const std::map<std::size_t, const Statement*> ownStatement = ownStatements(unit, fi, nested);
        EnclosingBlocks enclosing(unit);
        std::vector<const std::vector<Statement>*> trees;
        if (const std::vector<Statement>* body = unit.body(fi)) trees.push_back(body);
        for (const NestedBody& b : nested)
            if (const std::vector<Statement>* tree = b.kind == NestedBody::Kind::Lambda ? unit.nestedBody(b.open) : nullptr)
                trees.push_back(tree);
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            // A body nested in this one that the scanner knows has its own turn.
            if (!tokens[i].isIdentifier("threadgroup") || unit.functionAt(i) != fi) continue;
            // The `;` of the statement that starts at this `threadgroup`, if one does.
            std::size_t end = kNoToken;
            const auto own = ownStatement.find(i);
            if (const Statement* s = own != ownStatement.end() ? own->second : enclosing.statementAt(i)) {
                end = s->tokens.end - 1;
            } else if (unit.startsStatement(i)) {
                // A block the statement parser cannot delimit, in a body the unit judges by
                // its tokens (Unit::lexicalBodies()): the statement ends at its `;`.
                end = simpleStatementEnd(tokens, partner, i, f.bodyClose);
                if (end == kNoToken) {
                    diagnostics.error(tokens[i].location, "expected ';' after the threadgroup declaration");
                    continue;
                }
            }
            if (end == kNoToken) continue;
            if (inNestedBody(nested, NestedBody::Kind::LocalClass, i)) {
                // A declaration in a local class's member function (which the scanner does not
                // list) cannot be given its group, and left alone it would silently be a
                // per-thread variable.
                const auto d = parseDeclaration(tokens, partner, i, end);
                if (d && declaratorParts(tokens, partner, *d, 0, end).pointer.empty())
                    diagnostics.error(tokens[i].location, "threadgroup variable '" + tokens[d->names.front()].spelling +
                                                              "' must be declared in a function body or a lambda, "
                                                              "not in a local class");
                continue;
            }
            const auto d = parseDeclaration(tokens, partner, i, end);
            if (!d) {
                diagnostics.error(tokens[i].location, "expected a variable name in this threadgroup declaration");
                continue;
            }
            // A pointer or a reference to threadgroup memory is rewriteAddressSpaces()'s.
            if (!declaratorParts(tokens, partner, *d, 0, end).pointer.empty()) continue;
            ThreadgroupDeclaration declaration;
            declaration.function = fi;
            declaration.type = {i + 1, d->names.front()};
            declaration.statement = {i, end + 1};
            if (own != ownStatement.end()) declaration.branches = enclosingBranches(trees, i);
            bool ok = true;
            for (std::size_t k = 0; k < d->names.size() && ok; ++k) {
                const DeclaratorParts parts = declaratorParts(tokens, partner, *d, k, end);
                ThreadgroupDeclarator declarator;
                declarator.name = tokens[parts.name].spelling;
                declarator.nameToken = parts.name;
                declarator.arrayBounds = parts.bounds;
                declarator.key = (fileKey << 20) | ++site;
                if (!parts.pointer.empty()) {
                    diagnostics.error(tokens[parts.pointer.begin].location,
                                      "expected a variable name in this threadgroup declaration");
                    ok = false;
                } else if (!parts.initializer.empty()) {
                    const Token& first = tokens[parts.initializer.begin];
                    diagnostics.error(first.location, first.isPunct("=") || first.isPunct("{") || first.isPunct("(")
                                                          ? "threadgroup variable '" + declarator.name +
                                                                "' cannot have an initializer"
                                                          : std::string("expected ';' after the threadgroup declaration"));
                    ok = false;
                }
                declaration.declarators.push_back(std::move(declarator));
            }
            if (!ok) continue;
            out.push_back(std::move(declaration));
            i = end;
        }
    }
    return out;
}

std::optional<ThreadgroupOwnerHelper> threadgroupOwnerHelper(const Unit& unit, std::size_t function) {
    const FunctionDecl& f = unit.module().functions[function];
    if (!f.isKernel || !f.isTemplate || f.templateParameters.begin < 2 ||
        !unit[f.templateParameters.begin - 2].isIdentifier("template"))
        return std::nullopt;
    ThreadgroupOwnerHelper helper;
    helper.name = "__mc_tg_owner_" + std::to_string(function);
    for (TokenRange p : templateParameters(unit, f)) {
        const auto [name, pack] = templateParameterName(unit, p);
        if (name == kNoToken) return std::nullopt;
        if (!helper.bodyArguments.empty()) helper.bodyArguments += ", ";
        helper.bodyArguments += unit[name].spelling + (pack ? "..." : "");
        ++helper.parameters;
        helper.pack = helper.pack || pack;
        if (!pack && parameterDefault(unit.tokens(), unit.partner(), p) == p.end) helper.required = helper.parameters;
    }
    if (helper.parameters == 0) return std::nullopt;
    return helper;
}

bool namesThreadgroupOwner(const ThreadgroupOwnerHelper& helper, const Unit& unit, TokenRange arguments) {
    if (arguments.empty()) return false;
    const std::size_t given =
        splitParameters(unit.tokens(), unit.partner(), arguments.begin - 1, arguments.end).size();
    return given >= helper.required && (given <= helper.parameters || helper.pack);
}

void rewriteThreadgroupVariables(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const Module& module = c.unit.module();
    const bool validation = c.options.validation;
    std::map<std::size_t, std::optional<ThreadgroupOwnerHelper>> owners; // by kernel template
    for (const ThreadgroupDeclaration& d : c.findings.threadgroupVariables) {
        const FunctionDecl& f = module.functions[d.function];
        const char* group = f.isKernel ? "__mc_group" : "nullptr";
        std::string type = outputText(tokens, d.type.begin, d.type.end);
        // The template arguments after the key: the owner, then whether the branch can run.
        auto owner = owners.find(d.function);
        if (owner == owners.end()) {
            owner = owners.emplace(d.function, threadgroupOwnerHelper(c.unit, d.function)).first;
            if (owner->second) {
                // Before the kernel's template header, where the body can name it.
                c.edits.insertBefore(f.templateParameters.begin - 2,
                                     "namespace { template <" +
                                         sourceText(tokens, f.templateParameters.begin, f.templateParameters.end) +
                                         "> constexpr mc_u64 " + owner->second->name +
                                         "() { return ::metalcpu_kernel::instantiation_owner(__PRETTY_FUNCTION__); } } ");
            }
        }
        std::vector<std::string> constants = constexprLocals(c.unit, f);
        // A function constant is a constant of the library compiled with its values.
        for (const FunctionConstantDecl& fc : c.findings.functionConstants) constants.push_back(fc.name);
        for (TokenRange p : templateParameters(c.unit, f))
            if (const std::size_t name = templateParameterName(c.unit, p).first; name != kNoToken)
                constants.push_back(tokens[name].spelling);
        std::string live;
        for (const EnclosingBranch& b : d.branches) {
            if (!constantShaped(c, b.condition, constants)) continue;
            const std::string condition = "(" + sourceText(tokens, b.condition.begin, b.condition.end) + ")";
            live += std::string(live.empty() ? "" : " && ") + "!(__builtin_constant_p" + condition + " && " +
                    (b.then ? "!" : "") + condition + ")";
        }
        std::string extra;
        if (owner->second || !live.empty())
            extra = std::string(", ") + (owner->second ? owner->second->name + "<" + owner->second->bodyArguments + ">()" : "0");
        if (!live.empty()) extra += ", " + live;
        std::string replacement;
        for (const ThreadgroupDeclarator& v : d.declarators) {
            if (!replacement.empty()) replacement += ' ';
            replacement += (validation ? "auto&& " : "auto& ") + v.name +
                           (validation ? " = ::metalcpu_kernel::threadgroup_object<"
                                       : " = ::metalcpu_kernel::threadgroup_variable<") +
                           type +
                           outputText(tokens, v.arrayBounds.begin, v.arrayBounds.end) + ", " +
                           siteKeyLiteral(v.key) + extra + ">(" + group + ");";
        }
        // The type and bounds carry the earlier passes' edits (address-spaces erased
        // `threadgroup`, divisions rewrote bounds): the statement is theirs to take over.
        c.edits.takeOver(d.statement, replacement);
    }
}

} // namespace metalcpu::msl
