#include "compiler/kernel_descriptions.h"

#include "compiler/edits.h"
#include "compiler/passes/kernel_signatures.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/syntax.h"
#include "compiler/unit.h"

#include <algorithm>
#include <map>
#include <set>

namespace metalcpu::msl {

std::vector<EntryPointCode> describeEntryPoints(const Unit& unit, EditList& edits, const Findings& found,
                                                const FileTable& files) {
    const TokenList& tokens = unit.tokens();
    const Module& module = unit.module();
    std::set<std::size_t> coroutines, workItemLoops;
    std::map<std::size_t, unsigned> interleaved; // function: lanes
    for (const CoroutineKernel& k : found.coroutineKernels) coroutines.insert(k.function);
    for (const WorkItemKernel& k : found.workItemKernels) {
        if (k.interleaved)
            interleaved[k.function] = k.lanes;
        else
            workItemLoops.insert(k.function);
    }
    std::map<std::size_t, std::vector<std::uint64_t>> sitesByFunction;
    for (const ThreadgroupDeclaration& d : found.threadgroupVariables)
        for (const ThreadgroupDeclarator& v : d.declarators) sitesByFunction[d.function].push_back(v.key);

    std::map<std::size_t, std::string> maxThreadsHelpers;
    // The helpers' edits are this stage's, not the last pass's (overlap reports name the owner).
    edits.beginPass("kernel-descriptions");
    std::vector<EntryPointCode> codes;
    for (const EntryPoint& e : found.entryPoints) {
        const FunctionDecl& f = module.functions[e.function];
        const auto attributes = found.attributes.find(e.function);
        const KernelAttributes a = attributes == found.attributes.end() ? KernelAttributes{} : attributes->second;
        EntryPointCode code;
        KernelInfo& info = code.info;
        info.hostName = e.hostName;
        info.functionExpression = e.functionExpression;
        info.frameName = tokens[f.nameToken].spelling;
        if (!e.templateArguments.empty()) info.frameName += "<" + e.templateArguments + ">";
        const Location where = tokens[f.nameToken].location;
        info.file = files.reportedName(where.file);
        info.line = static_cast<int>(where.line);
        info.column = static_cast<int>(where.column);
        if (auto params = found.parameters.find(e.function); params != found.parameters.end())
            info.params = params->second;
        info.maxTotalThreadsPerThreadgroup = a.maxThreads;
        info.userAnnotation = e.userAnnotation ? e.userAnnotation : a.userAnnotation;
        if (auto rows = found.rowCheckedPointers.find(e.function); rows != found.rowCheckedPointers.end())
            for (std::size_t i = 0; i < info.params.size(); ++i)
                if (std::find(rows->second.begin(), rows->second.end(), info.params[i].name) != rows->second.end())
                    code.rowCheckedParams.push_back(i);
        std::set<std::uint64_t> sites;
        // Per instantiation: `k<deq>` that calls through its function-pointer parameter
        // reaches deq's barriers and threadgroup variables, not every passed function's.
        for (std::size_t r : reachableFromInstantiation(found.graph, e.function, tokens, unit.partner(),
                                                        e.templateArgumentTokens.begin, e.templateArgumentTokens.end)) {
            if (found.graph.usesBarriersDirectly[r]) info.usesBarriers = true;
            if (auto s = sitesByFunction.find(r); s != sitesByFunction.end()) sites.insert(s->second.begin(), s->second.end());
        }
        info.threadgroupSites.assign(sites.begin(), sites.end());
        info.usesCoroutines = coroutines.count(e.function) != 0;
        info.interleavesThreads = interleaved.count(e.function) != 0;
        info.interleavedLanes = info.interleavesThreads ? interleaved.at(e.function) : 0;
        info.usesWorkItemLoops = info.interleavesThreads || workItemLoops.count(e.function) != 0;
        const auto place = [&](std::size_t token) {
            const Location at = tokens[token].location;
            return files.reportedName(at.file) + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
        };
        const auto refusalOf = [&](const std::vector<WorkItemRefusal>& refusals) {
            std::string text;
            for (const WorkItemRefusal& r : refusals) {
                if (r.function != e.function) continue;
                text = place(r.token == kNoToken ? f.nameToken : r.token) + ": " + r.reason;
                if (r.related != kNoToken) text += " (" + place(r.related) + ")" + r.afterRelated;
            }
            return text;
        };
        // An instantiation that reaches no barrier runs as a plain loop: nothing to explain.
        if (info.usesBarriers) info.workItemLoopsRefusal = refusalOf(found.workItemRefusals);
        info.interleavingRefusal = refusalOf(found.interleavingRefusals);
        info.runsLaneVectors = std::any_of(found.laneBodies.begin(), found.laneBodies.end(),
                                           [&](const LaneBody& b) { return b.function == e.function; });
        info.laneVectorRefusal = refusalOf(found.laneRefusals);
        if (auto points = found.lockstepPoints.find(e.function); points != found.lockstepPoints.end())
            for (std::size_t keyword : points->second) {
                const Location at = tokens[keyword].location;
                info.lockstepPoints.push_back(files.reportedName(at.file) + ":" + std::to_string(at.line) + ":" +
                                              std::to_string(at.column));
            }
        for (std::size_t i = f.bodyOpen + 1; i < f.bodyClose && !info.loopsInBody; ++i)
            info.loopsInBody = tokens[i].isIdentifier("for") || tokens[i].isIdentifier("while") || tokens[i].isIdentifier("do");
        if (a.maxThreadsExpression) {
            if (f.isTemplate) {
                auto it = maxThreadsHelpers.find(e.function);
                if (it == maxThreadsHelpers.end())
                    it = maxThreadsHelpers
                             .emplace(e.function, addMaxThreadsHelper(edits, f, e.function, *a.maxThreadsExpression))
                             .first;
                code.maxThreadsExpression = qualifiedName(f.namespaces, it->second) + "<" + e.templateArguments + ">()";
            } else {
                code.maxThreadsExpression = sourceText(tokens, a.maxThreadsExpression->begin, a.maxThreadsExpression->end);
            }
        }
        // The instantiation's number for its own body's threadgroup variables (the helper is
        // the threadgroup-variables pass's, inserted when the body declares one).
        if (sitesByFunction.count(e.function) && !e.templateArguments.empty()) {
            const auto owner = threadgroupOwnerHelper(unit, e.function);
            if (owner && namesThreadgroupOwner(*owner, unit, e.templateArgumentTokens))
                code.threadgroupOwnerExpression =
                    qualifiedName(f.namespaces, owner->name) + "<" + e.templateArguments + ">()";
        }
        if (!e.templateArguments.empty()) {
            code.instantiationFile = files.reportedName(e.nameLocation.file);
            code.instantiationLine = static_cast<int>(e.nameLocation.line);
        }
        code.namespaces = e.glueNamespaces;
        codes.push_back(std::move(code));
    }
    return codes;
}

} // namespace metalcpu::msl
