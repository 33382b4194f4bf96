#pragma once

#include "exec/regions.h"

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace metalcpu::exec {

/// The threadgroup memory of the group a worker is running: [[threadgroup(n)]] arguments
/// first, then `threadgroup` variables, placed when the first thread reaches their
/// declaration. Reused from group to group by one worker.
class ThreadgroupMemory {
public:
    /// Lays out the argument regions of a dispatch for the groups this worker runs next, in
    /// `group`, the record they reuse (its pointers stay valid until the next call). Returns
    /// false (with `error`) when the lengths exceed `limit`. Once per run of groups, not per
    /// group: laying out 31 bindings cost more than a small group's threads.
    bool bindArguments(const std::uint64_t (&argumentLengths)[METALCPU_MAX_THREADGROUP_BINDINGS],
                       std::uint64_t limit, mc_group& group, std::string& error);

    /// Prepares for the next group of those: fills the argument regions with `fill` (0, or
    /// shader validation's poison) and forgets the variables the last group placed, which
    /// get the same fill when placed.
    void beginGroup(unsigned char fill = 0);

    /// The storage of the variable declared at `siteKey`; the same pointer for every thread
    /// of the group. When the group's memory would exceed the limit, records an error and
    /// returns scratch storage so that the kernel keeps running safely.
    void* variable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align);

    /// Shader validation: [[threadgroup(index)]] of `group` and the variable at `siteKey` as
    /// checked pointers (tag | address). The tags belong to this worker for its lifetime and
    /// are re-pointed at each group's memory; `kernel` names the arguments in reports.
    std::uint64_t checkedArgument(const mc_group& group, std::uint32_t index, const mc_kernel* kernel);
    std::uint64_t checkedVariable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align);
    /// The bytes the group's threadgroup memory spans (for untagged pointers into it).
    std::uint64_t begin() const { return reinterpret_cast<std::uint64_t>(base_); }
    std::uint64_t end() const { return begin() + limit_; }

    ThreadgroupMemory() = default;
    ~ThreadgroupMemory();
    ThreadgroupMemory(const ThreadgroupMemory&) = delete;
    ThreadgroupMemory& operator=(const ThreadgroupMemory&) = delete;

    bool overflowed() const { return overflowed_; }
    std::uint64_t limit() const { return limit_; }
    std::uint64_t used() const { return used_; }

private:
    struct Site {
        std::uint64_t key;
        std::uint64_t offset;
    };
    /// Where the group's memory starts in storage_: aligned to kBaseAlignment, so that a
    /// variable's alignment (`__attribute__((aligned(64)))`) holds for its address, not only
    /// for its offset.
    static constexpr std::uint64_t kBaseAlignment = 4096;
    std::vector<unsigned char> storage_;
    unsigned char* base_ = nullptr;
    std::vector<std::unique_ptr<unsigned char[]>> scratch_; ///< stand-ins for variables that did not fit
    std::vector<Site> sites_;
    std::uint64_t argumentLengths_[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    struct CheckedRegion {
        std::uint32_t tag = 0;
        std::unique_ptr<RegionOwner> owner;
    };
    CheckedRegion& checkedRegion(std::uint64_t key);
    std::vector<std::pair<std::uint64_t, CheckedRegion>> checked_; ///< by argument index or site key
    std::uint64_t argumentsEnd_ = 0; ///< where the arguments end and the variables begin
    std::uint64_t used_ = 0;
    std::uint64_t limit_ = 0;
    bool overflowed_ = false;
    unsigned char fill_ = 0;
};

} // namespace metalcpu::exec
