#include "compiler/passes/kernel_signatures.h"

#include "compiler/edits.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

namespace metalcpu::msl {

void rewriteKernelSignatures(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (!f.isKernel) continue;
        if (f.kernelKeyword != kNoToken) c.edits.erase(f.kernelKeyword);
        for (const AttributeSpec& spec : f.attributes) c.edits.erase(TokenRange{spec.open, spec.close + 1});
        for (std::size_t i = f.parametersOpen + 1; i < f.parametersClose; ++i) {
            if (startsAttributeSpec(tokens, i)) {
                c.edits.erase(TokenRange{i, partner[i] + 1});
                i = partner[i];
            }
        }
        bool empty = f.parametersClose == f.parametersOpen + 1;
        if (f.parametersClose == f.parametersOpen + 2 && tokens[f.parametersOpen + 1].isIdentifier("void")) {
            c.edits.erase(f.parametersOpen + 1);
            empty = true;
        }
        c.edits.insertBefore(f.parametersClose, empty ? "[[maybe_unused]] const ::mc_group* __mc_group"
                                                      : ", [[maybe_unused]] const ::mc_group* __mc_group");
    }
}

std::string addMaxThreadsHelper(EditList& edits, const FunctionDecl& kernel, std::size_t id, TokenRange expression) {
    const TokenList& tokens = edits.tokens();
    std::string name = "__mc_max_threads_" + std::to_string(id);
    std::string helper = " namespace { template <" +
                         sourceText(tokens, kernel.templateParameters.begin, kernel.templateParameters.end) +
                         "> constexpr unsigned " + name + "() { return (" +
                         sourceText(tokens, expression.begin, expression.end) + "); } }";
    edits.insertAfter(kernel.bodyClose, helper);
    return name;
}

void eraseKernelInstantiations(PassContext& c) {
    const Module& module = c.unit.module();
    for (const ExplicitInstantiation& inst : module.instantiations) {
        bool kernel = inst.marksKernel || (inst.target != kNoToken && module.functions[inst.target].isKernel);
        if (!kernel) continue;
        // An instantiation's own attributes may already be gone with a kernel declaration's.
        for (std::size_t i = inst.tokens.begin; i < inst.tokens.end; ++i)
            if (!c.edits.isRewritten(i)) c.edits.erase(i);
    }
}

} // namespace metalcpu::msl
