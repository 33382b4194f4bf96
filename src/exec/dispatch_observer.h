// What watches a dispatch run. The executor calls its observer through this interface only
// and never knows what it is: shader validation (val::DispatchValidation) today; checks such
// as races, barrier divergence or uninitialised reads would plug in the same way, as
// Oclgrind's plugins do.
#pragma once

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <cstdint>

namespace metalcpu::exec {

/// The thread an observer is told about, as the executor knows it.
struct ObservedThread {
    validation::Position grid, local, group;
    /// The worker's threadgroup memory, for untagged pointers into it.
    std::uint64_t threadgroupBegin = 0, threadgroupEnd = 0;
};

class DispatchObserver {
public:
    virtual ~DispatchObserver() = default;

    /// An instrumented kernel's access of `size` bytes at checked pointer `pointer` +
    /// `byteOffset` (`op`: MC_OP_*) fell outside its region, at `site`. Returns the address
    /// the kernel touches instead: `standIn` (zero-filled, at least `size` bytes), or the
    /// real one when the observer lets the access through.
    virtual void* invalidAccess(std::uint64_t pointer, std::uint64_t byteOffset, std::uint64_t size,
                                std::uint32_t op, const mc_site* site, const ObservedThread& thread,
                                void* standIn) = 0;

    /// Whether pointers into threadgroup memory are checked against their variable or
    /// argument; when not, they may touch anything (MTL_SHADER_VALIDATION_THREADGROUP_MEMORY=0).
    virtual bool checksThreadgroupMemory() const = 0;

    /// A round of a threadgroup barrier in `group` that not all its threads reached at one
    /// barrier (told only of dispatches whose mc_dispatch::checks has MC_CHECK_BARRIERS).
    virtual void barrierRound(const mc_barrier_round& /*round*/, const mc_group& /*group*/) {}
};

} // namespace metalcpu::exec
