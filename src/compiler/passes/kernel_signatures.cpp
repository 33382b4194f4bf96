#include "compiler/passes/kernel_signatures.h"

#include "compiler/edits.h"
#include "compiler/findings.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>

namespace metalcpu::msl {

namespace {

/// Whether tokens [begin, end) say the function's linkage or inlining themselves.
bool declaresLinkage(const TokenList& tokens, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
        if (tokens[i].isIdentifier("inline") || tokens[i].isIdentifier("static") || tokens[i].isIdentifier("extern"))
            return true;
    return false;
}

/// Whether `f` is a coroutine kernel, or a prototype of one.
bool isCoroutineKernel(const PassContext& c, const FunctionDecl& f) {
    const std::vector<FunctionDecl>& functions = c.unit.module().functions;
    return std::any_of(c.findings.coroutineKernels.begin(), c.findings.coroutineKernels.end(),
                       [&](const CoroutineKernel& k) {
                           const FunctionDecl& definition = functions[k.function];
                           return definition.name == f.name && definition.namespaces == f.namespaces;
                       });
}

} // namespace

void rewriteKernelSignatures(PassContext& c) {
    const TokenList& tokens = c.unit.tokens();
    const std::vector<std::size_t>& partner = c.unit.partner();
    for (const FunctionDecl& f : c.unit.module().functions) {
        if (!f.isKernel) continue;
        // Only the group function calls a kernel, and inlines it whole (flatten): inline, the
        // kernel has no code of its own left to compile. With external linkage the host
        // compiler built it a second time, standalone: 0.15-0.3 s of a 1.1 s compile of the
        // 4x4 matmul kernel. (A template kernel is instantiated by that call alone already.)
        // `inline` takes the place of `kernel`, or of the `[[kernel]]` before the name, so
        // that the line keeps its columns. A coroutine is called, not inlined, and its return
        // type takes that place (barrier_coroutines.h).
        bool inlined = f.isTemplate || declaresLinkage(tokens, f.declarationBegin, f.nameToken) ||
                       isCoroutineKernel(c, f);
        if (f.kernelKeyword != kNoToken && !inlined) {
            c.edits.replace(f.kernelKeyword, "inline");
            inlined = true;
        } else if (f.kernelKeyword != kNoToken) {
            c.edits.erase(f.kernelKeyword);
        }
        for (const AttributeSpec& spec : f.attributes) {
            if (!inlined && spec.open < f.nameToken && spec.find("kernel")) {
                c.edits.replace(TokenRange{spec.open, spec.close + 1}, "inline");
                inlined = true;
            } else {
                c.edits.erase(TokenRange{spec.open, spec.close + 1});
            }
        }
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
