#include "compiler/passes/program_constants.h"

#include "compiler/kernels.h"

namespace metalcpu::msl {

std::vector<ProgramConstant> findProgramConstants(const TokenList& tokens, const std::vector<std::size_t>& partner,
                                                  const Module& module) {
    std::vector<ProgramConstant> found;
    for (const VariableDecl& v : module.variables) {
        if (v.isTemplate || !v.enclosingClass.empty() || v.nameToken == kNoToken) continue;
        if (!declaresConstant(tokens, partner, v)) continue;
        const std::size_t name = v.nameToken;
        if (name > 0 && tokens[name - 1].isPunct("::")) continue; // `const S T::x = ...` defines a member
        std::vector<std::string> namespaces;
        for (const std::string& n : v.namespaces)
            if (!n.empty()) namespaces.push_back(n); // an unnamed namespace is reached from outside
        const std::string& spelling = tokens[name].spelling;
        found.push_back({namespaces.empty() ? "::" + spelling : qualifiedName(namespaces, spelling), spelling});
    }
    return found;
}

} // namespace metalcpu::msl
