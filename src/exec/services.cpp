#include "exec/services.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "exec/dispatch.h"
#include "exec/dispatch_observer.h"
#include "exec/fault_scratch.h"
#include "exec/fiber_scheduler.h"
#include "exec/frame_arena.h"
#include "exec/regions.h"
#include "exec/shader_log.h"
#include "exec/tensor_ops.h"
#include "exec/threadgroup_memory.h"

namespace metalcpu::exec {
namespace {

thread_local const mc_group* t_group = nullptr;

/// mc_services::access_watch: sticky, so that kernels test one word that never changes
/// under them while a dispatch that watches runs (set before its first group), and may keep
/// it in a register. Written once, by a relaxed atomic store; kernels read it as a plain word.
std::atomic<mc_u32> g_accessWatch{0};
static_assert(sizeof(std::atomic<mc_u32>) == sizeof(mc_u32), "kernels read the flag as a plain word");

GroupContext* contextOf(const mc_group* group) { return static_cast<GroupContext*>(group->executor); }

/// The linear index in its group of the thread running now.
std::uint32_t runningThread(const mc_group* group, const GroupContext* context) {
    return context->onFibers && FiberScheduler::current() ? FiberScheduler::current()->currentThread()
                                                          : group->current_thread;
}

/// A thread on fibers reached a threadgroup barrier: the threadgroup watch hears of it.
void tellWatchOfBarrier(mc_u32 memFlags) {
    if (!t_group) return;
    GroupContext* context = contextOf(t_group);
    if (context->watch)
        context->dispatch->observer->threadgroupBarrier(context->watch, runningThread(t_group, context), memFlags);
}

void threadgroupBarrier(mc_u32 memFlags) {
    // All threads of a group run on one worker, so memory is coherent within the group
    // whatever the flags say; the barrier is only about control flow.
    if (FiberScheduler* fibers = FiberScheduler::current()) {
        tellWatchOfBarrier(memFlags);
        fibers->barrier();
        return;
    }
    if (t_group) contextOf(t_group)->unexpectedBarrier = true;
}

/// threadgroup_barrier with its site, as validated kernels call it (the barrier-divergence check).
void threadgroupBarrierAt(mc_u32 memFlags, const mc_simd_site* site) {
    if (FiberScheduler* fibers = FiberScheduler::current()) {
        tellWatchOfBarrier(memFlags);
        fibers->barrier(site);
        return;
    }
    if (t_group) contextOf(t_group)->unexpectedBarrier = true;
}

void barrierRound(const mc_group* group, const mc_barrier_round* round) { reportBarrierRound(group, *round); }

void simdgroupExchange(const void* value, mc_u32 size, const mc_simd_site* site, mc_simd_round* round) {
    if (FiberScheduler* fibers = FiberScheduler::current()) {
        fibers->simdExchange(value, size, site, round);
        // Past the round (a SIMD-group function or simdgroup_barrier): the race check orders
        // this thread's SIMD-group by it, as the thread resumes. Not past a lockstep point
        // the front end inserted, which the kernel's source does not have.
        if (site->kind != MC_SIMD_LOCKSTEP_KIND) tellWatchOfBarrier(MC_SIMD_SYNC);
        return;
    }
    // Only kernels the compiler found collectives in run them, and those run on fibers.
    if (t_group) contextOf(t_group)->unexpectedBarrier = true;
    static thread_local unsigned char alone[METALCPU_SIMD_VALUE_BYTES];
    if (size > 0) std::memcpy(alone, value, std::min<mc_u32>(size, METALCPU_SIMD_VALUE_BYTES));
    *round = mc_simd_round{alone, 1u, 0u, 1u};
}

const mc_simd_call* simdCallPath(const mc_simd_call* innermost) {
    FiberScheduler* fibers = FiberScheduler::current();
    return fibers ? fibers->swapCallPath(innermost) : nullptr;
}

const mc_group* currentGroup() { return t_group; }

void* threadgroupVariable(const mc_group* group, mc_u64 siteKey, mc_u64 size, mc_u64 align) {
    if (!group) group = t_group;
    return contextOf(group)->memory->variable(siteKey, size, align);
}

void* coroutineFrame(mc_u64 size) { return contextOf(t_group)->frames->allocate(static_cast<std::size_t>(size)); }

// ---- Checked pointers (shader validation, through the dispatch's observer) ------------

validation::Position positionOf(const mc_u32 (&p)[3]) { return {p[0], p[1], p[2]}; }

/// The thread of `group` running now, as observers are told of it.
ObservedThread observedThread(const mc_group* group, const GroupContext* context) {
    ObservedThread thread;
    const std::uint32_t linear = runningThread(group, context);
    const mc_u32 sx = group->size[0], sy = group->size[1];
    thread.local = {linear % sx, (linear / sx) % sy, linear / (sx * sy)};
    thread.group = positionOf(group->position);
    const mc_u32* tg = group->dispatch->threads_per_threadgroup;
    thread.grid = {group->position[0] * tg[0] + thread.local.x, group->position[1] * tg[1] + thread.local.y,
                   group->position[2] * tg[2] + thread.local.z};
    thread.threadgroupBegin = context->memory->begin();
    thread.threadgroupEnd = context->memory->end();
    return thread;
}

void* validationFault(mc_u64 pointer, mc_u64 byteOffset, mc_u64 size, mc_u32 op, const mc_site* site) {
    const mc_group* group = t_group;
    GroupContext* context = group ? contextOf(group) : nullptr;
    // Never without a context in practice: validated kernels run only in validated dispatches.
    static thread_local FaultScratch fallback;
    FaultScratch* scratch = context && context->scratch ? context->scratch : &fallback;
    void* stand_in = scratch->zeroed(static_cast<std::size_t>(size));
    if (!context || !context->dispatch || !context->dispatch->observer) return stand_in;
    return context->dispatch->observer->invalidAccess(pointer, byteOffset, size, op, site,
                                                      observedThread(group, context), stand_in);
}

void threadgroupAccess(mc_u64 bits, mc_u64 size, mc_u32 op, const mc_site* site) {
    const mc_group* group = t_group;
    GroupContext* context = group ? contextOf(group) : nullptr;
    if (!context || !context->watch) return;
    context->dispatch->observer->threadgroupAccess(context->watch, runningThread(group, context), bits, size, op, site);
}

void deviceAccess(mc_u64 bits, mc_u64 size, mc_u32 op, const mc_site* site) {
    const mc_group* group = t_group;
    GroupContext* context = group ? contextOf(group) : nullptr;
    if (!context || !context->watchesDevice) return;
    context->dispatch->observer->deviceAccess(bits, size, op, site, observedThread(group, context));
}

void threadgroupBarrierPassed(mc_u32 memFlags, mc_u32 wholeGroup) {
    const mc_group* group = t_group;
    GroupContext* context = group ? contextOf(group) : nullptr;
    if (!context || !context->watch) return;
    context->dispatch->observer->threadgroupBarrier(
        context->watch, wholeGroup ? kWholeGroup : runningThread(group, context), memFlags);
}

/// When the observer does not check threadgroup memory (MTL_SHADER_VALIDATION_THREADGROUP_MEMORY=0),
/// threadgroup pointers may touch anything.
mc_u64 uncheckedUnlessEnabled(const GroupContext* context, mc_u64 tagged) {
    if (context->dispatch && context->dispatch->observer && !context->dispatch->observer->checksThreadgroupMemory())
        RegionTable::shared().set(static_cast<std::uint32_t>(tagged >> METALCPU_REGION_TAG_SHIFT), 0, ~std::uint64_t(0));
    return tagged;
}

mc_u64 checkedThreadgroupArgument(const mc_group* group, mc_u32 index) {
    if (!group) group = t_group;
    GroupContext* context = contextOf(group);
    const mc_kernel* kernel = context->dispatch ? context->dispatch->kernel : nullptr;
    return uncheckedUnlessEnabled(context, context->memory->checkedArgument(*group, index, kernel));
}

mc_u64 checkedThreadgroupVariable(const mc_group* group, mc_u64 siteKey, mc_u64 size, mc_u64 align) {
    if (!group) group = t_group;
    GroupContext* context = contextOf(group);
    return uncheckedUnlessEnabled(context, context->memory->checkedVariable(siteKey, size, align));
}

// ---- Shader logging -------------------------------------------------------------------

void logMessage(mc_u32 level, const char* subsystem, const char* category, const char* format,
                const mc_log_argument* args, mc_u32 argCount) {
    const GroupContext* context = t_group ? contextOf(t_group) : nullptr;
    if (!context || !context->dispatch || !context->dispatch->log) return;
    context->dispatch->log->record(level, subsystem, category, format, args, argCount);
}

// ---- Tensor operations ----------------------------------------------------------------

void failTensorOperation(const char* failure) {
    if (failure && t_group) contextOf(t_group)->serviceFailure = failure;
}

/// A failure worded at run time; the executor reads it on this worker when the group ends.
void failTensorOperation(std::string failure) {
    thread_local std::string t_failure;
    t_failure = std::move(failure);
    failTensorOperation(t_failure.c_str());
}

void scopeCall(mc_u32 simdgroups, const mc_scope_record* mine, mc_scope_fn fn, void* context) {
    if (FiberScheduler* fibers = FiberScheduler::current()) {
        fibers->scopeCall(simdgroups, mine, fn, context);
        return;
    }
    // Only kernels the compiler found collectives in call it, and those run on fibers (or
    // as coroutines, which gather their scopes without this service).
    if (t_group) contextOf(t_group)->unexpectedBarrier = true;
    fn(context, mine, 1);
}
/// Shader validation of a product (validated kernels pass the site of `run` and checked
/// pointers): each tensor operand's footprint is checked once against the region its pointer
/// came from, not element by element. One that leaves it is reported as a load (inputs) or a
/// store (destination) at `run`; unless the fail mode lets the access through, the product is
/// skipped, its destination left as it was (the executor has no per-element stand-in).
bool tensorOperandsInside(const mc_matmul_call& call) {
    if (!call.site) return true;
    const mc_region* regions = RegionTable::shared().regions();
    constexpr mc_u64 kAddressMask = (mc_u64(1) << METALCPU_REGION_TAG_SHIFT) - 1;
    bool inside = true;
    for (int which : {MC_SCOPE_LEFT, MC_SCOPE_RIGHT, MC_SCOPE_DESTINATION}) {
        const mc_tensor_operand& operand =
            which == MC_SCOPE_LEFT ? call.left : which == MC_SCOPE_RIGHT ? call.right : call.destination;
        long long offset = 0;
        unsigned long long size = 0;
        if (!operand.checked || !tensorFootprint(call, which, &offset, &size)) continue;
        const mc_region& region = regions[operand.checked >> METALCPU_REGION_TAG_SHIFT];
        const mc_u64 from = (operand.checked & kAddressMask) + static_cast<mc_u64>(offset);
        const mc_u64 into = from - region.begin;
        if (into < region.length && region.length - into >= size) continue;
        const mc_u32 op = which == MC_SCOPE_DESTINATION ? MC_OP_STORE : MC_OP_LOAD;
        if (validationFault(operand.checked, static_cast<mc_u64>(offset), size, op, call.site) !=
            reinterpret_cast<void*>(from))
            inside = false;
    }
    return inside;
}

/// The cooperative layouts are defined for Apple's 32-lane SIMD-groups, while the scopes that
/// meet are METALCPU_SIMD_WIDTH lanes wide: with another width an operation on cooperative
/// operands would combine the wrong threads' slots, so the dispatch fails instead.
bool cooperativeScopesFit(std::initializer_list<const mc_tensor_operand*> operands) {
    bool cooperative = false;
    for (const mc_tensor_operand* operand : operands) cooperative = cooperative || operand->kind == MC_OPERAND_COOPERATIVE;
    if (!cooperative || !t_group || t_group->dispatch->simd_width == 32) return true;
    failTensorOperation("cooperative tensors need 32-thread SIMD-groups, as on Apple GPUs; "
                        "METALCPU_SIMD_WIDTH makes them another width");
    return false;
}

/// An operation of execution_simdgroups<N> is done by N SIMD-groups together; Apple leaves it
/// undefined when the threadgroup dispatched holds another number (MPPTensorOpsMatMul2d.h,
/// "Note on scope of operation"). A GPU then computes part of the result; the executor would
/// compute all of it with the threads present, hiding the mistake, so the dispatch fails
/// when the scope of the thread running the operation reaches past the last SIMD-group of
/// the threadgroup size dispatched. execution_simdgroup (N = 1) fits any group. The size is
/// the one dispatched, not an edge group's of dispatchThreads, whose partial groups are the
/// grid's shape rather than the program's choice.
bool scopeInsideGroup(const mc_scope_record* records, mc_u32 count, const char* operation) {
    const mc_group* group = t_group;
    if (!group || count == 0 || records[0].scope_simdgroups <= 1) return true;
    const std::uint32_t wanted = records[0].scope_simdgroups;
    const std::uint32_t width = group->dispatch->simd_width ? group->dispatch->simd_width : 32;
    const mc_u32* dispatched = group->dispatch->threads_per_threadgroup;
    const std::uint32_t threads = dispatched[0] * dispatched[1] * dispatched[2];
    const std::uint32_t simdgroups = (threads + width - 1) / width;
    const std::uint32_t first = (group->current_thread / width) / wanted * wanted;
    if (first + wanted <= simdgroups) return true;
    const std::string n = std::to_string(wanted);
    failTensorOperation(std::string(operation) + " with execution_simdgroups<" + n + "> ran in a threadgroup of " +
                        std::to_string(threads) + " threads (" + std::to_string(simdgroups) + " SIMD-group" +
                        (simdgroups == 1 ? "" : "s") + "), which holds " +
                        (first == 0 ? "fewer than " + n + " SIMD-groups" : "a last scope of fewer than " + n) +
                        ": the number of SIMD-groups dispatched must match the operation's (undefined behaviour on "
                        "a GPU); dispatch " +
                        n + " x " + std::to_string(width) + " threads per threadgroup");
    return false;
}

void tensorMatmul(const mc_matmul_call* call) {
    if (!cooperativeScopesFit({&call->left, &call->right, &call->destination})) return;
    if (!scopeInsideGroup(call->records, call->records ? call->record_count : 0, "matmul2d")) return;
    if (tensorOperandsInside(*call)) failTensorOperation(runTensorMatmul(*call));
}
void cooperativeReduce(const mc_reduce_call* call) {
    if (!cooperativeScopesFit({&call->source, &call->destination})) return;
    if (!scopeInsideGroup(call->records, call->records ? call->record_count : 0,
                          call->columns ? "reduce_columns" : "reduce_rows"))
        return;
    failTensorOperation(runCooperativeReduce(*call));
}

} // namespace

const mc_services* kernelServices() {
    static const mc_services services = {
    METALCPU_KERNEL_ABI_VERSION,
    &threadgroupBarrier,
    &currentGroup,
    &threadgroupVariable,
    &coroutineFrame,
    RegionTable::shared().regions(),
    &validationFault,
    &checkedThreadgroupArgument,
    &checkedThreadgroupVariable,
    &simdgroupExchange,
    &logMessage,
    &scopeCall,
    &tensorMatmul,
    &cooperativeReduce,
    &simdCallPath,
    reinterpret_cast<const mc_u32*>(&g_accessWatch),
    &threadgroupAccess,
    &threadgroupBarrierPassed,
    &threadgroupBarrierAt,
    &barrierRound,
    &deviceAccess,
    };
    return &services;
}

void setCurrentGroup(const mc_group* group) { t_group = group; }

void watchAccesses() { g_accessWatch.store(1, std::memory_order_relaxed); }

void reportBarrierRound(const mc_group* group, const mc_barrier_round& round) {
    GroupContext* context = group ? contextOf(group) : nullptr;
    if (!context || !context->dispatch || !context->dispatch->observer) return;
    context->dispatch->observer->barrierRound(round, *group);
}

const Dispatch* currentDispatch() noexcept {
    const mc_group* group = t_group;
    return group && group->executor ? contextOf(group)->dispatch : nullptr;
}

} // namespace metalcpu::exec
