#include "exec/threadgroup_memory.h"

#include <cstring>

namespace metalcpu::exec {
namespace {

/// Site offsets from here on index scratch_ instead of the group's storage.
constexpr std::uint64_t kScratch = std::uint64_t(1) << 62;

std::uint64_t alignUp(std::uint64_t value, std::uint64_t align) {
    if (align < 16) align = 16;
    return (value + align - 1) / align * align;
}

} // namespace

bool ThreadgroupMemory::bindArguments(const std::uint64_t (&argumentLengths)[METALCPU_MAX_THREADGROUP_BINDINGS],
                                      std::uint64_t limit, mc_group& group, std::string& error) {
    limit_ = limit;
    for (int i = 0; i < METALCPU_MAX_THREADGROUP_BINDINGS; ++i) argumentLengths_[i] = argumentLengths[i];
    // Sized once for the largest legal group, so that the pointers handed to kernels
    // never move while a group runs.
    if (storage_.size() < limit + kBaseAlignment + 64) storage_.assign(limit + kBaseAlignment + 64, 0);
    const auto data = reinterpret_cast<std::uintptr_t>(storage_.data());
    base_ = storage_.data() + ((kBaseAlignment - data % kBaseAlignment) % kBaseAlignment);
    std::uint64_t offset = 0;
    for (int i = 0; i < METALCPU_MAX_THREADGROUP_BINDINGS; ++i) {
        if (argumentLengths[i] == 0) {
            group.threadgroup_arguments[i] = nullptr;
            continue;
        }
        offset = alignUp(offset, 16);
        if (offset + argumentLengths[i] > limit) {
            error = "threadgroup memory of " + std::to_string(offset + argumentLengths[i]) +
                    " bytes exceeds the maximum of " + std::to_string(limit);
            return false;
        }
        group.threadgroup_arguments[i] = reinterpret_cast<char*>(base_) + offset;
        offset += argumentLengths[i];
    }
    argumentsEnd_ = offset;
    return true;
}

void ThreadgroupMemory::beginGroup(unsigned char fill) {
    overflowed_ = false;
    fill_ = fill;
    sites_.clear();
    scratch_.clear();
    used_ = argumentsEnd_;
    // Metal leaves threadgroup memory undefined; zero makes runs reproducible.
    std::memset(base_, fill_, static_cast<size_t>(alignUp(used_, 16)));
}

void* ThreadgroupMemory::variable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align) {
    for (const Site& site : sites_) {
        if (site.key != siteKey) continue;
        if (site.offset >= kScratch) return scratch_[site.offset - kScratch].get();
        return base_ + site.offset;
    }
    std::uint64_t offset = alignUp(used_, align);
    if (offset + size > limit_) {
        overflowed_ = true;
        scratch_.push_back(std::make_unique<unsigned char[]>(static_cast<size_t>(size)));
        sites_.push_back(Site{siteKey, kScratch + scratch_.size() - 1});
        return scratch_.back().get();
    }
    std::memset(base_ + offset, fill_, static_cast<size_t>(size));
    sites_.push_back(Site{siteKey, offset});
    used_ = offset + size;
    return base_ + offset;
}

ThreadgroupMemory::~ThreadgroupMemory() {
    for (auto& [key, region] : checked_) RegionTable::shared().release(region.tag);
}

ThreadgroupMemory::CheckedRegion& ThreadgroupMemory::checkedRegion(std::uint64_t key) {
    for (auto& [k, region] : checked_)
        if (k == key) return region;
    CheckedRegion region;
    region.owner = std::make_unique<RegionOwner>();
    region.owner->space = validation::AddressSpace::Threadgroup;
    region.tag = RegionTable::shared().acquire(region.owner.get());
    checked_.emplace_back(key, std::move(region));
    return checked_.back().second;
}

// Argument keys are their index; site keys are at least 1 << 20 (see TranslateOptions::fileKey).
std::uint64_t ThreadgroupMemory::checkedArgument(const mc_group& group, std::uint32_t index, const mc_kernel* kernel) {
    if (index >= METALCPU_MAX_THREADGROUP_BINDINGS) return 0;
    const std::uint64_t address = reinterpret_cast<std::uint64_t>(group.threadgroup_arguments[index]);
    CheckedRegion& region = checkedRegion(index);
    RegionOwner& owner = *region.owner;
    owner.bindingIndex = static_cast<std::int32_t>(index);
    owner.resourceBegin = address;
    owner.resourceLength = argumentLengths_[index];
    owner.argumentName.clear();
    for (mc_u32 i = 0; kernel && i < kernel->param_count; ++i)
        if (kernel->params[i].kind == MC_PARAM_THREADGROUP && kernel->params[i].index == index)
            owner.argumentName = kernel->params[i].name;
    RegionTable::shared().set(region.tag, address, argumentLengths_[index]);
    return RegionTable::tagged(region.tag, address);
}

std::uint64_t ThreadgroupMemory::checkedVariable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align) {
    const std::uint64_t address = reinterpret_cast<std::uint64_t>(variable(siteKey, size, align));
    CheckedRegion& region = checkedRegion(siteKey);
    region.owner->resourceBegin = address;
    region.owner->resourceLength = size;
    RegionTable::shared().set(region.tag, address, size);
    return RegionTable::tagged(region.tag, address);
}

} // namespace metalcpu::exec
