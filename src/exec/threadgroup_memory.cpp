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

bool ThreadgroupMemory::beginGroup(const std::uint64_t (&argumentLengths)[METALCPU_MAX_THREADGROUP_BINDINGS],
                                   std::uint64_t limit, mc_group& group, std::string& error) {
    limit_ = limit;
    overflowed_ = false;
    sites_.clear();
    scratch_.clear();
    // Sized once for the largest legal group, so that the pointers handed to kernels
    // never move while a group runs.
    if (storage_.size() < limit + 64) storage_.assign(limit + 64, 0);
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
        group.threadgroup_arguments[i] = reinterpret_cast<char*>(storage_.data()) + offset;
        offset += argumentLengths[i];
    }
    used_ = offset;
    // Metal leaves threadgroup memory undefined; zero makes runs reproducible.
    std::memset(storage_.data(), 0, static_cast<size_t>(alignUp(used_, 16)));
    return true;
}

void* ThreadgroupMemory::variable(std::uint64_t siteKey, std::uint64_t size, std::uint64_t align) {
    for (const Site& site : sites_) {
        if (site.key != siteKey) continue;
        if (site.offset >= kScratch) return scratch_[site.offset - kScratch].get();
        return storage_.data() + site.offset;
    }
    std::uint64_t offset = alignUp(used_, align);
    if (offset + size > limit_) {
        overflowed_ = true;
        scratch_.push_back(std::make_unique<unsigned char[]>(static_cast<size_t>(size)));
        sites_.push_back(Site{siteKey, kScratch + scratch_.size() - 1});
        return scratch_.back().get();
    }
    std::memset(storage_.data() + offset, 0, static_cast<size_t>(size));
    sites_.push_back(Site{siteKey, offset});
    used_ = offset + size;
    return storage_.data() + offset;
}

} // namespace metalcpu::exec
