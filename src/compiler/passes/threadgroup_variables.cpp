#include "compiler/passes/threadgroup_variables.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/syntax.h"
#include "compiler/translate.h"
#include "compiler/unit.h"

#include <cstdio>

namespace metalcpu::msl {

namespace {

bool endsDeclaratorName(const Token& t) {
    return t.isPunct("[") || t.isPunct(",") || t.isPunct(";") || t.isPunct("=") || t.isPunct("{") ||
           t.isPunct("(");
}

/// The first declarator's name of a declaration whose specifiers start with the `threadgroup`
/// at `i`, or kNoToken; `pointer` tells whether a `*` or `&` comes before it (a pointer or
/// reference to threadgroup memory, not a threadgroup variable).
std::size_t firstDeclarator(const TokenList& tokens, const std::vector<std::size_t>& partner, std::size_t i,
                            std::size_t end, bool& pointer) {
    pointer = false;
    int angle = 0;
    for (std::size_t k = i + 1; k < end; ++k) {
        const Token& t = tokens[k];
        if (t.isPunct(";")) break;
        if (t.isPunct("<"))
            ++angle;
        else if (t.isPunct(">") && angle > 0)
            --angle;
        else if (angle == 0 && (t.isPunct("*") || t.isPunct("&") || t.isPunct("&&")))
            pointer = true;
        else if (angle == 0 && t.isPunct("(") && partner[k] != kNoToken)
            k = partner[k];
        else if (angle == 0 && t.isIdentifier() && k > i + 1 && !isCppKeyword(t.spelling) &&
                 endsDeclaratorName(tokens[k + 1]))
            return k;
    }
    return kNoToken;
}

/// Whether the token before a `threadgroup` ends a statement or a block: what a declaration
/// the statement trees do not hold (in a lambda's or a local class's body) looks like.
bool followsStatementBoundary(const Token& previous) {
    return previous.isPunct("{") || previous.isPunct("}") || previous.isPunct(";") || previous.isPunct(":") ||
           previous.kind == TokenKind::Pragma;
}

/// Whether the `{` at `open` starts a lambda's body: `[...]`, then maybe template parameters,
/// parameters, specifiers and a return type, then `{`.
bool opensLambdaBody(const Unit& unit, std::size_t open) {
    const TokenList& tokens = unit.tokens();
    for (std::size_t k = open; k-- > 0;) {
        const Token& t = tokens[k];
        if ((t.isPunct(")") || t.isPunct("]")) && unit.partner()[k] != kNoToken && unit.partner()[k] < k) {
            k = unit.partner()[k];
            if (unit.role(k) == TokenRole::LambdaIntroducer) return true;
        } else if (t.isPunct(";") || t.isPunct("{") || t.isPunct("}") || t.isPunct("(") || t.isPunct("[") ||
                   t.isPunct("=") || t.isPunct(",")) {
            return false;
        }
    }
    return false;
}

/// Whether token `i` of the body opened at `bodyOpen` is in a lambda's body (rather than in a
/// local class's): the innermost enclosing brace that is either decides.
bool inLambdaBody(const Unit& unit, std::size_t i, std::size_t bodyOpen) {
    const TokenList& tokens = unit.tokens();
    const std::vector<std::size_t>& partner = unit.partner();
    for (std::size_t k = i; k-- > bodyOpen + 1;) {
        const Token& t = tokens[k];
        if ((t.isPunct("}") || t.isPunct(")") || t.isPunct("]")) && partner[k] != kNoToken && partner[k] < k) {
            k = partner[k];
        } else if (t.isPunct("{")) {
            if (opensLambdaBody(unit, k)) return true;
            // `struct L {`, `struct L : B<T> {` (`else {`, `do {` and `try {` are blocks).
            const Token& before = tokens[k - 1];
            if ((before.isIdentifier() && !isCppKeyword(before.spelling)) || before.isPunct(">")) return false;
        }
    }
    return false;
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
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i) {
            // A body nested in this one that the scanner knows has its own turn.
            if (!tokens[i].isIdentifier("threadgroup") || unit.functionAt(i) != fi) continue;
            bool pointer = false;
            const std::size_t name = firstDeclarator(tokens, partner, i, f.bodyClose, pointer);
            // The statement trees hold the function's own statements, not those of the lambdas
            // in it: there the tokens before tell (a lambda sees __mc_group through [&]).
            const bool boundary = followsStatementBoundary(tokens[i - 1]);
            if (!unit.startsStatement(i) && !(boundary && inLambdaBody(unit, i, f.bodyOpen))) {
                // Shaped like a variable declaration, but in a local class's member function
                // (which the scanner does not list): address spaces are erased, so left alone
                // it would silently be a per-thread variable.
                if (!pointer && name != kNoToken && boundary)
                    diagnostics.error(tokens[i].location, "threadgroup variable '" + tokens[name].spelling +
                                                              "' must be declared in a function body or a lambda, "
                                                              "not in a local class");
                continue;
            }
            if (pointer) continue;
            if (name == kNoToken) {
                diagnostics.error(tokens[i].location,
                                  "expected a variable name in this threadgroup declaration");
                continue;
            }
            ThreadgroupDeclaration d;
            d.function = fi;
            d.type = {i + 1, name};
            bool ok = true;
            std::size_t j = name;
            while (ok) {
                ThreadgroupDeclarator declarator;
                if (!tokens[j].isIdentifier() || isCppKeyword(tokens[j].spelling)) {
                    diagnostics.error(tokens[j].location,
                                      "expected a variable name in this threadgroup declaration");
                    ok = false;
                    break;
                }
                declarator.name = tokens[j].spelling;
                declarator.nameToken = j;
                std::size_t boundsBegin = ++j;
                while (tokens[j].isPunct("[") && partner[j] != kNoToken) j = partner[j] + 1;
                declarator.arrayBounds = {boundsBegin, j};
                declarator.key = (fileKey << 20) | ++site;
                d.declarators.push_back(std::move(declarator));
                if (tokens[j].isPunct("=") || tokens[j].isPunct("{") || tokens[j].isPunct("(")) {
                    diagnostics.error(tokens[j].location, "threadgroup variable '" +
                                                              d.declarators.back().name +
                                                              "' cannot have an initializer");
                    ok = false;
                    break;
                }
                if (tokens[j].isPunct(";")) break;
                if (!tokens[j].isPunct(",")) {
                    diagnostics.error(tokens[j].location, "expected ';' after the threadgroup declaration");
                    ok = false;
                    break;
                }
                ++j;
            }
            if (!ok) continue;
            d.statement = {i, j + 1};
            out.push_back(std::move(d));
            i = j;
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
