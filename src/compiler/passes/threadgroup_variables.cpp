#include "compiler/passes/threadgroup_variables.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <cstdio>
#include <map>
#include <optional>

namespace metalcpu::msl {

namespace {

// The simple statements of function `function`'s body's statement tree and of the trees of the
// lambdas written in it (a lambda sees __mc_group through [&]; one in a local class does not,
// which the caller checks first), keyed by the token each starts at.
std::map<std::size_t, const Statement*> ownStatements(const Unit& unit, std::size_t function,
                                                      const std::vector<NestedBody>& nested,
                                                      std::vector<std::vector<Statement>>& lambdaTrees) {
    std::map<std::size_t, const Statement*> out;
    auto add = [&](const std::vector<Statement>& statements, auto& self) -> void {
        for (const Statement& s : statements) {
            if (s.kind == StatementKind::Simple) out.emplace(s.keyword, &s);
            self(s.children, self);
        }
    };
    if (const std::vector<Statement>* body = unit.body(function)) add(*body, add);
    for (const NestedBody& b : nested) {
        if (b.kind != NestedBody::Kind::Lambda) continue;
        if (auto tree = parseBlock(unit.tokens(), unit.partner(), b.open)) lambdaTrees.push_back(std::move(*tree));
    }
    for (const std::vector<Statement>& tree : lambdaTrees) add(tree, add);
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
        std::vector<std::vector<Statement>> lambdaTrees;
        const std::map<std::size_t, const Statement*> ownStatement = ownStatements(unit, fi, nested, lambdaTrees);
        EnclosingBlocks enclosing(unit);
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

void rewriteThreadgroupVariables(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const Module& module = c.unit.module();
    const bool validation = c.options.validation;
    for (const ThreadgroupDeclaration& d : c.findings.threadgroupVariables) {
        const char* group = module.functions[d.function].isKernel ? "__mc_group" : "nullptr";
        std::string type = outputText(tokens, d.type.begin, d.type.end);
        std::string replacement;
        for (const ThreadgroupDeclarator& v : d.declarators) {
            if (!replacement.empty()) replacement += ' ';
            replacement += (validation ? "auto&& " : "auto& ") + v.name +
                           (validation ? " = ::metalcpu_kernel::threadgroup_object<"
                                       : " = ::metalcpu_kernel::threadgroup_variable<") +
                           type +
                           outputText(tokens, v.arrayBounds.begin, v.arrayBounds.end) + ", " +
                           siteKeyLiteral(v.key) + ">(" + group + ");";
        }
        // The type and bounds carry the earlier passes' edits (address-spaces erased
        // `threadgroup`, divisions rewrote bounds): the statement is theirs to take over.
        c.edits.takeOver(d.statement, replacement);
    }
}

} // namespace metalcpu::msl
