#include "compiler/passes/program_constants.h"

#include "compiler/kernels.h"
#include "compiler/syntax.h"

namespace metalcpu::msl {

std::vector<ProgramConstant> findProgramConstants(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                  const Module& module) {
    std::vector<ProgramConstant> found;
    for (const VariableDecl& v : module.variables) {
        bool constant = false, isTemplate = false;
        std::size_t name = kNoToken;
        // The declarator's name is the last identifier before its initializer, its array
        // bounds or the end; attributes and parenthesised parts are skipped whole.
        for (std::size_t k = v.tokens.begin; k < v.tokens.end; ++k) {
            const Token& t = tokens[k];
            if (t.isPunct("=") || t.isPunct("{") || t.isPunct("[")) {
                if (t.isPunct("[") && startsAttributeSpec(tokens, k) && partner[k] != kNoToken) {
                    k = partner[k];
                    continue;
                }
                break;
            }
            if (t.isPunct("(") && partner[k] != kNoToken) {
                k = partner[k];
                continue;
            }
            if (t.isIdentifier("template")) isTemplate = true;
            if (t.isIdentifier("constant") || t.isIdentifier("const") || t.isIdentifier("constexpr")) constant = true;
            if (t.isIdentifier() && !isCppKeyword(t.spelling) && !t.isIdentifier("constant")) name = k;
        }
        if (!constant || isTemplate || name == kNoToken) continue;
        std::vector<std::string> namespaces;
        for (const std::string& n : v.namespaces)
            if (!n.empty()) namespaces.push_back(n); // an unnamed namespace is reached from outside
        const std::string& spelling = tokens[name].spelling;
        found.push_back({namespaces.empty() ? "::" + spelling : qualifiedName(namespaces, spelling), spelling});
    }
    return found;
}

} // namespace metalcpu::msl
