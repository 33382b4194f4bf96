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
            // A body nested in this one (a local class's member function) has its own turn.
            if (!tokens[i].isIdentifier("threadgroup") || !unit.startsStatement(i) || unit.functionAt(i) != fi)
                continue;
            // Find the first declarator's name; a `*` or `&` before it makes this a pointer
            // (or reference) to threadgroup memory, not a threadgroup variable.
            std::size_t name = kNoToken;
            bool pointer = false;
            int angle = 0;
            std::size_t k = i + 1;
            for (; k < f.bodyClose; ++k) {
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
                         endsDeclaratorName(tokens[k + 1])) {
                    name = k;
                    break;
                }
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
