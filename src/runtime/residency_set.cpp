#include "runtime/residency_set.h"

#include "runtime/resource_core.h"

#include <algorithm>

namespace metalcpu::rt {

ResidencySet::~ResidencySet() {
    releaseAll(staged_);
    releaseAll(committed_);
}

void ResidencySet::releaseAll(Allocations& allocations) {
    for (ResourceCore* allocation : allocations) allocation->release();
    allocations.clear();
}

void ResidencySet::add(ResourceCore* allocation) {
    if (!allocation) return;
    std::lock_guard lock(mutex_);
    if (std::find(staged_.begin(), staged_.end(), allocation) != staged_.end()) return;
    allocation->retain();
    staged_.push_back(allocation);
}

void ResidencySet::remove(ResourceCore* allocation) {
    std::lock_guard lock(mutex_);
    auto found = std::find(staged_.begin(), staged_.end(), allocation);
    if (found == staged_.end()) return;
    staged_.erase(found);
    allocation->release();
}

void ResidencySet::removeAll() {
    std::lock_guard lock(mutex_);
    releaseAll(staged_);
}

bool ResidencySet::contains(const ResourceCore* allocation) const {
    std::lock_guard lock(mutex_);
    return std::find(staged_.begin(), staged_.end(), allocation) != staged_.end();
}

void ResidencySet::commit() {
    Allocations previous;
    {
        std::lock_guard lock(mutex_);
        for (ResourceCore* allocation : staged_) allocation->retain();
        previous.swap(committed_);
        committed_ = staged_;
    }
    releaseAll(previous); // outside the lock: this may free an allocation
}

bool ResidencySet::containsCommitted(const void* allocationImpl) const {
    std::lock_guard lock(mutex_);
    return std::any_of(committed_.begin(), committed_.end(), [allocationImpl](const ResourceCore* allocation) {
        return static_cast<const void*>(static_cast<const ns::ObjectBase*>(allocation)) == allocationImpl;
    });
}

std::vector<ResourceCore*> ResidencySet::committed() const {
    std::lock_guard lock(mutex_);
    return committed_;
}

std::uint64_t ResidencySet::allocatedSize() const {
    std::lock_guard lock(mutex_);
    std::uint64_t total = 0;
    for (const ResourceCore* allocation : committed_) total += allocation->allocatedSize();
    return total;
}

} // namespace metalcpu::rt
