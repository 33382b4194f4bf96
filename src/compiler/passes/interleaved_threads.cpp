#include "compiler/passes/interleaved_threads.h"

#include "compiler/statements.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <set>
#include <string>

namespace metalcpu::msl {

namespace {

// The `return` keywords of the body's statement tree (not of its lambdas and local classes,
// which the tree does not hold).
void collectReturns(const Unit& unit, const std::vector<Statement>& statements, std::vector<std::size_t>& out) {
    for (const Statement& s : statements) {
        if (s.kind == StatementKind::Return && unit.tokens()[s.keyword].isIdentifier("return")) out.push_back(s.keyword);
        collectReturns(unit, s.children, out);
    }
}

class UniformLoops {
public:
    UniformLoops(const Unit& unit, const FunctionDecl& f, const std::vector<ParamInfo>& params)
        : unit_(unit), tokens_(unit.tokens()), params_(params) {
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (unit_.role(i) == TokenRole::Declarator) bodyNames_.insert(tokens_[i].spelling);
    }

    /// Whether loop `s` (a statement of the body's own block) has a header every thread
    /// evaluates alike; else `why` says what differs or may differ.
    bool uniform(const Statement& s, std::size_t& where, std::string& why) const {
        std::set<std::string> own; // the variables its init-statement declares
        for (std::size_t i = s.header.begin; i < s.header.end; ++i)
            if (unit_.role(i) == TokenRole::Declarator) own.insert(tokens_[i].spelling);
        bool namesParameter = false;
        for (std::size_t i = s.header.begin; i < s.header.end; ++i) {
            where = i;
            const TokenRole r = unit_.role(i);
            if (r == TokenRole::CallOpen) return refuse(why, "is not uniform: its header calls a function");
            if (r == TokenRole::Subscript || r == TokenRole::Dereference || tokens_[i].isPunct("->"))
                return refuse(why, "is not uniform: its header reads memory through a pointer");
            if (!unit_.isUnqualifiedName(i) || isCppKeyword(tokens_[i].spelling)) continue;
            const std::string& name = tokens_[i].spelling;
            if (own.count(name)) continue;
            if (const ParamInfo* p = parameter(name)) {
                if (p->kind == ParamKind::Builtin && !isUniformBuiltin(p->builtin))
                    return refuse(why, "is not uniform: its header names per-thread builtin '" + name + "'");
                if (p->isReference && (p->addressSpace == AddressSpace::Device || p->addressSpace == AddressSpace::Threadgroup))
                    return refuse(why, "is not uniform: its header reads '" + name + "', a reference into memory threads may write");
                namesParameter = true;
                continue;
            }
            if (bodyNames_.count(name)) return refuse(why, "is not uniform: its header names '" + name + "', which the body declares");
        }
        // A loop whose bounds are all known when the kernel is compiled (literals, constants,
        // template parameters) is the host compiler's to unroll, and the thread loop around
        // it then vectorises across threads as it did: interleaving pays where a run-time
        // bound (a matrix's inner dimension) keeps a long loop in each thread.
        where = s.header.begin;
        if (!namesParameter) return refuse(why, "is the host compiler's to unroll: its bounds are known when the kernel is compiled");
        return true;
    }

private:
    static bool refuse(std::string& why, std::string reason) {
        why = std::move(reason);
        return false;
    }
    const ParamInfo* parameter(const std::string& name) const { return parameterNamed(params_, name); }

    const Unit& unit_;
    const TokenList& tokens_;
    const std::vector<ParamInfo>& params_;
    std::set<std::string> bodyNames_; ///< every name the body declares (per-thread variables, its constants)
};

// A name an atomic operation or type starts with, in the kernel or anything it reaches.
std::size_t namedAtomic(const Unit& unit, const std::vector<std::size_t>& functions) {
    const TokenList& tokens = unit.tokens();
    for (std::size_t fi : functions) {
        const FunctionDecl& f = unit.module().functions[fi];
        if (!f.hasBody) continue;
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose; ++i)
            if (tokens[i].isIdentifier() && tokens[i].spelling.compare(0, 6, "atomic") == 0) return i;
    }
    return kNoToken;
}

} // namespace

std::vector<WorkItemKernel> findInterleavedKernels(const Unit& unit, const CallGraph& graph,
                                                   const std::map<std::size_t, std::vector<ParamInfo>>& parameters,
                                                   const std::vector<ThreadgroupDeclaration>& threadgroupVariables,
                                                   bool enabled, unsigned lanes, std::vector<WorkItemRefusal>& refusals) {
    const Module& module = unit.module();
    std::vector<WorkItemKernel> out;
    static const std::vector<ParamInfo> kNoParameters;
    for (std::size_t fi = 0; fi < module.functions.size(); ++fi) {
        const FunctionDecl& f = module.functions[fi];
        if (!f.isKernel || !f.hasBody) continue;
        const std::vector<std::size_t> reachable = reachableFunctions(graph, fi);
        if (std::any_of(reachable.begin(), reachable.end(), [&](std::size_t r) { return graph.usesBarriersDirectly[r]; }))
            continue;
        const std::vector<Statement>* body = unit.body(fi);
        if (!body) continue;
        auto params = parameters.find(fi);
        const std::vector<ParamInfo>& kernelParams = params == parameters.end() ? kNoParameters : params->second;
        const UniformLoops headers(unit, f, kernelParams);
        std::vector<std::size_t> loops;
        WorkItemRefusal refusal{fi, kNoToken, ""};
        for (const Statement& s : *body) {
            if (s.kind != StatementKind::For && s.kind != StatementKind::While && s.kind != StatementKind::Do) continue;
            std::size_t where = s.keyword;
            std::string why;
            // A break for the loop, a goto or a label: its lanes would leave it at different
            // iterations, which the loop run once per block cannot follow (a continue can).
            const bool leaves = std::any_of(s.children.begin(), s.children.end(), [&](const Statement& c) {
                return jumpsOut(unit.tokens(), c, false, true);
            });
            if (leaves && refusal.reason.empty())
                refusal = {fi, s.keyword, "a loop with a break, goto or label cannot interleave its threads"};
            else if (!leaves && headers.uniform(s, where, why))
                loops.push_back(s.keyword);
            else if (refusal.reason.empty())
                refusal = {fi, where, "a loop of its body " + why};
        }
        if (loops.empty()) {
            if (!refusal.reason.empty()) refusals.push_back(refusal);
            continue;
        }
        if (!enabled) {
            refusals.push_back({fi, loops.front(), "interleaving threads is turned off (METALCPU_INTERLEAVE_THREADS=0)"});
            continue;
        }
        if (const std::size_t atomic = namedAtomic(unit, reachable); atomic != kNoToken) {
            refusals.push_back({fi, atomic, "it uses atomics, whose order between threads interleaving would change"});
            continue;
        }
        CoroutineKernel kernel;
        kernel.function = fi;
        collectReturns(unit, *body, kernel.returns);
        WorkItemKernel planned;
        if (planInterleavedKernel(unit, kernel, loops, threadgroupVariables, kernelParams, lanes, planned, refusal))
            out.push_back(std::move(planned));
        else
            refusals.push_back(refusal);
    }
    return out;
}

} // namespace metalcpu::msl
