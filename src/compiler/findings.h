// What the front end's analyses find before anything is rewritten, and what the passes
// record for the generated code: the state that flows from one stage to the next.
#pragma once

#include "compiler/call_graph.h"
#include "compiler/kernels.h"
#include "compiler/passes/barrier_coroutines.h"
#include "compiler/passes/checked_accesses.h"
#include "compiler/passes/function_constants.h"
#include "compiler/passes/lane_vectors.h"
#include "compiler/passes/program_constants.h"
#include "compiler/passes/string_literals.h"
#include "compiler/passes/threadgroup_variables.h"
#include "compiler/passes/work_item_loops.h"
#include "compiler/signature.h"
#include "compiler/space_aliases.h"

#include <cstdint>
#include <map>
#include <vector>

namespace metalcpu::msl {

struct Findings {
    std::vector<EntryPoint> entryPoints;
    std::vector<FunctionConstantDecl> functionConstants;
    /// Aliases of types written with an address space (space_aliases.h).
    SpaceAliases spaceAliases;
    /// Per kernel definition (Module::functions index): its parameters and attributes.
    std::map<std::size_t, std::vector<ParamInfo>> parameters;
    std::map<std::size_t, KernelAttributes> attributes;
    std::vector<ThreadgroupDeclaration> threadgroupVariables;
    CallGraph graph;
    /// Barrier kernels, by lowering: each kernel is in at most one of the two.
    std::vector<CoroutineKernel> coroutineKernels;
    std::vector<WorkItemKernel> workItemKernels;
    /// The coroutine kernels and those with SIMD-group functions not split, and why.
    std::vector<WorkItemRefusal> workItemRefusals;
    /// Barrier-free kernels with a uniform loop whose threads are not interleaved, and why
    /// (passes/interleaved_threads.h; those that are are in workItemKernels).
    std::vector<WorkItemRefusal> interleavingRefusals;
    /// Interleaved kernels whose threads also run as vector lanes (passes/lane_vectors.h), and
    /// those that do not, with why.
    std::vector<LaneBody> laneBodies;
    std::vector<WorkItemRefusal> laneRefusals;
    /// Shader validation: pointers into program-scope constants (found before any rewrite).
    std::vector<ProgramConstant> programConstants;
    /// Shader validation: the string literals kept in named objects (the string-literals
    /// pass; each is also in programConstants).
    std::vector<StringLiteral> stringLiterals;
    /// Shader validation: every checked access, in the order of the site table (written by
    /// the checked-accesses pass).
    std::vector<AccessSite> accessSites;
    /// The calls collective-calls wrapped in `(simd_call_site(), ` ... `)`: from the first token
    /// of the callee or of the object it is called on, to the call's `)`. A pass that wraps a
    /// part of such a call starting at the same token (`p` of `p->f()`) opens inside it.
    std::vector<TokenRange> collectiveCallSites;
    /// Shader validation: the members accessed through checked accesses (`qs`, `a.b`), each
    /// once; `::__mc_member_<index>` names the selector of each (checked_accesses.h).
    std::vector<std::string> memberSelectors;
    /// Shader validation: the keys (ThreadgroupDeclarator::key) of the scalar threadgroup
    /// variables whose uses the checked-accesses pass made checked accesses of element 0; the
    /// threadgroup-variables pass declares each as an array of one.
    std::vector<std::uint64_t> watchedThreadgroupScalars;
    /// Shader validation: the accesses the checked-accesses pass recognised but could not
    /// rewrite, which run unchecked (the pass warns once about them).
    std::vector<UncheckedAccess> uncheckedAccesses;
    /// Shader validation: per kernel definition (Module::functions index), the pointer
    /// parameters of its rows' accesses (`p[i]`, checked_accesses.cpp's RowAccesses), which the
    /// group function checks once per group.
    std::map<std::size_t, std::vector<std::string>> rowCheckedPointers;
    /// Per kernel definition on fibers (Module::functions index): the `if`s before which its
    /// SIMD-group's lanes meet, to keep the lockstep the code relies on (passes/lockstep_points.h);
    /// per kernel split into work-item loops, WorkItemKernel::lockstepSplits.
    std::map<std::size_t, std::vector<std::size_t>> lockstepPoints;
};

} // namespace metalcpu::msl
