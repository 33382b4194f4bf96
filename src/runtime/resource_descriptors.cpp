#include "runtime/resource_descriptors.h"

#include <metalcpu/kernel_abi.h>

#include <cstring>

namespace metalcpu::rt {

static_assert(sizeof(mc_texture) <= ResourceDescriptors::kSlotSize);
static_assert(sizeof(mc_sampler) <= ResourceDescriptors::kSlotSize);

ResourceDescriptors& ResourceDescriptors::shared() {
    static ResourceDescriptors* table = new ResourceDescriptors; // outlives textures freed at exit
    return *table;
}

std::uint64_t ResourceDescriptors::publish(const Texture* owner, const void* view, std::size_t size) {
    return publishFor(Owner{owner, nullptr}, view, size);
}

std::uint64_t ResourceDescriptors::publish(const SamplerState* owner, const void* view, std::size_t size) {
    return publishFor(Owner{nullptr, owner}, view, size);
}

std::uint64_t ResourceDescriptors::publishFor(Owner owner, const void* view, std::size_t size) {
    if (size > kSlotSize) return 0;
    std::lock_guard lock(mutex_);
    if (free_.empty()) {
        auto slab = std::make_unique<BufferMemory>(BufferMemory::kGranule);
        if (!slab->bytes()) return 0;
        const auto begin = reinterpret_cast<std::uint64_t>(slab->bytes());
        for (std::uint64_t offset = slab->size(); offset >= kSlotSize; offset -= kSlotSize)
            free_.push_back(begin + offset - kSlotSize);
        slabs_.push_back(std::move(slab));
    }
    const std::uint64_t id = free_.back();
    free_.pop_back();
    std::memcpy(reinterpret_cast<void*>(id), view, size);
    owners_[id] = owner;
    return id;
}

void ResourceDescriptors::withdraw(std::uint64_t id) {
    if (!id) return;
    std::lock_guard lock(mutex_);
    if (owners_.erase(id) == 0) return;
    // A kernel still holding the ID reads zeros: a texture of no extent, whose reads are 0.
    std::memset(reinterpret_cast<void*>(id), 0, kSlotSize);
    free_.push_back(id);
}

Texture* ResourceDescriptors::texture(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    auto found = owners_.find(id);
    return found == owners_.end() ? nullptr : const_cast<Texture*>(found->second.texture);
}

SamplerState* ResourceDescriptors::sampler(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    auto found = owners_.find(id);
    return found == owners_.end() ? nullptr : const_cast<SamplerState*>(found->second.sampler);
}

} // namespace metalcpu::rt
