#pragma once

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
    /// Prepares for a new group: zero-fills and lays out the argument regions.
    /// Returns false (with `error`) when the lengths exceed `limit`.
    bool beginGroup(const std::uint64_t (&argumentLengths)[METALCPU_MAX_THREADGROUP_BINDINGS], std::uint64_t limit,
                    mc_group& group, std::string& error);

    /// The storage of the variable declared at `siteKey`; the same pointer for every thread
    /// of the group. When the group's memory would exceed the limit, records an error and
    /// returns scratch storage so that the kernel keeps running safely.
    void* variable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align);

    bool overflowed() const { return overflowed_; }
    std::uint64_t limit() const { return limit_; }
    std::uint64_t used() const { return used_; }

private:
    struct Site {
        std::uint64_t key;
        std::uint64_t offset;
    };
    std::vector<unsigned char> storage_;
    std::vector<std::unique_ptr<unsigned char[]>> scratch_; ///< stand-ins for variables that did not fit
    std::vector<Site> sites_;
    std::uint64_t used_ = 0;
    std::uint64_t limit_ = 0;
    bool overflowed_ = false;
};

} // namespace metalcpu::exec
