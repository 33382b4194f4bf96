// The tags of checked pointers: a process-wide table of the memory regions instrumented
// kernels may touch (mc_services::regions). The executor owns it because it hands it to
// kernels and tags the threadgroup memory it places; an observer of a dispatch (shader
// validation) tags the buffers it binds and reads a region's owner to name it in reports.
#pragma once

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace metalcpu::exec {

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

} // namespace metalcpu::exec
