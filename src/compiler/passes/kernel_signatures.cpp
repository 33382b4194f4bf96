#include "compiler/passes/kernel_signatures.h"

#include "compiler/syntax.h"

namespace metalcpu::msl {

namespace {

void erase(TokenList& tokens, std::size_t begin, std::size_t endInclusive) {
    for (std::size_t i = begin; i <= endInclusive && i < tokens.size(); ++i) tokens[i].erased = true;
}

} // namespace

void rewriteKernelSignatures(TokenList& tokens, const std::vector<std::size_t>& partner,
                             const Module& module) {
    for (const FunctionDecl& f : module.functions) {
        if (!f.isKernel) continue;
        if (f.kernelKeyword != kNoToken) tokens[f.kernelKeyword].erased = true;
        for (const AttributeSpec& spec : f.attributes) erase(tokens, spec.open, spec.close);
        for (std::size_t i = f.parametersOpen + 1; i < f.parametersClose; ++i) {
            if (startsAttributeSpec(tokens, i)) {
                erase(tokens, i, partner[i]);
                i = partner[i];
            }
        }
        Token& close = tokens[f.parametersClose];
        bool empty = f.parametersClose == f.parametersOpen + 1;
        if (f.parametersClose == f.parametersOpen + 2 && tokens[f.parametersOpen + 1].isIdentifier("void")) {
            tokens[f.parametersOpen + 1].erased = true;
            empty = true;
        }
        close.prefix = (empty ? "[[maybe_unused]] const ::mc_group* __mc_group"
                              : ", [[maybe_unused]] const ::mc_group* __mc_group") +
                       close.prefix;
    }
}

std::string addMaxThreadsHelper(TokenList& tokens, const FunctionDecl& kernel, std::size_t id,
                                TokenRange expression) {
    std::string name = "__mc_max_threads_" + std::to_string(id);
    std::string helper = " namespace { template <" +
                         sourceText(tokens, kernel.templateParameters.begin, kernel.templateParameters.end) +
                         "> constexpr unsigned " + name + "() { return (" +
                         sourceText(tokens, expression.begin, expression.end) + "); } }";
    tokens[kernel.bodyClose].suffix += helper;
    return name;
}

void eraseKernelInstantiations(TokenList& tokens, const Module& module) {
    for (const ExplicitInstantiation& inst : module.instantiations) {
        bool kernel = inst.marksKernel || (inst.target != kNoToken && module.functions[inst.target].isKernel);
        if (!kernel) continue;
        for (std::size_t i = inst.tokens.begin; i < inst.tokens.end; ++i) tokens[i].erased = true;
    }
}

} // namespace metalcpu::msl
