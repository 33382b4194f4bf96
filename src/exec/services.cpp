#include "exec/services.h"

#include "exec/fiber_scheduler.h"
#include "exec/frame_arena.h"
#include "exec/threadgroup_memory.h"

namespace metalcpu::exec {
namespace {

thread_local const mc_group* t_group = nullptr;

GroupContext* contextOf(const mc_group* group) { return static_cast<GroupContext*>(group->executor); }

void threadgroupBarrier(mc_u32 /*memFlags*/) {
    // All threads of a group run on one worker, so memory is coherent within the group
    // whatever the flags say; the barrier is only about control flow.
    if (FiberScheduler* fibers = FiberScheduler::current()) {
        fibers->barrier();
        return;
    }
    if (t_group) contextOf(t_group)->unexpectedBarrier = true;
}

const mc_group* currentGroup() { return t_group; }

void* threadgroupVariable(const mc_group* group, mc_u64 siteKey, mc_u64 size, mc_u64 align) {
    if (!group) group = t_group;
    return contextOf(group)->memory->variable(siteKey, size, align);
}

void* coroutineFrame(mc_u64 size) { return contextOf(t_group)->frames->allocate(static_cast<std::size_t>(size)); }

const mc_services kServices = {
    METALCPU_KERNEL_ABI_VERSION,
    &threadgroupBarrier,
    &currentGroup,
    &threadgroupVariable,
    &coroutineFrame,
};

} // namespace

const mc_services* kernelServices() { return &kServices; }

void setCurrentGroup(const mc_group* group) { t_group = group; }

} // namespace metalcpu::exec
