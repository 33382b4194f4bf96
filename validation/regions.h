// The tags of checked pointers: a process-wide table of the memory regions kernels may touch,
// and the live buffers, for addresses that carry no tag.
#pragma once

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <map>
#include <string>
#include <vector>

namespace metalcpu::val {

/// What a region stands for, for reports.
struct RegionOwner {
    validation::AddressSpace space = validation::AddressSpace::Device;
    bool isNull = false;              ///< an unbound buffer argument
    std::string label;                ///< the buffer's label as reported ("<unnamed>" when none)
    std::uint64_t resourceBegin = 0;  ///< the address offsets are measured from
    std::uint64_t resourceLength = 0; ///< the whole buffer or allocation
    std::int32_t bindingIndex = -1;
    std::string argumentName;
};

/// mc_services::regions: tag -> the bytes a pointer with that tag may touch. Tag 0 is the
/// empty region of untagged pointers. Tags are handed out while a dispatch runs (buffers)
/// or for the life of a worker (threadgroup memory).
class RegionTable {
public:
    static RegionTable& shared();

    const mc_region* regions() const { return regions_; }
    /// A free tag, or 0 when all are in use (the pointer is then checked by address).
    std::uint32_t acquire(const RegionOwner* owner);
    void release(std::uint32_t tag);
    /// Sets the bytes tag may touch. Only the tag's holder calls this, before kernels use it.
    void set(std::uint32_t tag, std::uint64_t begin, std::uint64_t length);
    const RegionOwner* owner(std::uint32_t tag) const;
    void setOwner(std::uint32_t tag, const RegionOwner* owner);

    static std::uint64_t tagged(std::uint32_t tag, std::uint64_t address) {
        return (std::uint64_t(tag) << METALCPU_REGION_TAG_SHIFT) | address;
    }

private:
    RegionTable();
    mc_region regions_[METALCPU_REGION_COUNT];
    const RegionOwner* owners_[METALCPU_REGION_COUNT];
    std::mutex mutex_;
    std::vector<std::uint32_t> free_;
};

/// Every live MTL::Buffer's memory, and the program-scope constants of loaded kernel
/// libraries, so an address read from memory (a gpuAddress stored in an argument buffer) can
/// be checked against the allocation it points into.
class AllocationRegistry {
public:
    static AllocationRegistry& shared();

    struct Allocation {
        std::uint64_t begin = 0, length = 0;
        std::function<std::string()> label; ///< the label as reported, read when needed
        std::uint32_t registrations = 1;    ///< a library opened twice maps its constants once
    };
    /// Registers [begin, begin + length); registering the same begin again counts, and each
    /// registration needs its remove().
    void add(std::uint64_t begin, std::uint64_t length, std::function<std::string()> label);
    void remove(std::uint64_t begin);
    /// The allocation holding `address`, else the nearest one below it (an access just past
    /// its end is reported against it), else nothing.
    std::optional<Allocation> find(std::uint64_t address) const;
    /// Whether [address, address + size) lies inside one allocation.
    bool contains(std::uint64_t address, std::uint64_t size) const;

    /// Finds allocations this registry does not hold: in a device process, the buffers of the
    /// host program (src/isolation), the nearest at or below `address`. Set once, before any
    /// kernel runs.
    using ExternalFinder = std::optional<Allocation> (*)(std::uint64_t address);
    void setExternalFinder(ExternalFinder finder) { external_ = finder; }

private:
    ExternalFinder external_ = nullptr;
    mutable std::shared_mutex mutex_;
    std::map<std::uint64_t, Allocation> allocations_;
};

} // namespace metalcpu::val
