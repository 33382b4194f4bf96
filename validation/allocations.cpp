#include "validation/allocations.h"

namespace metalcpu::val {

AllocationRegistry& AllocationRegistry::shared() {
    static AllocationRegistry* registry = new AllocationRegistry; // buffers may outlive statics
    return *registry;
}

void AllocationRegistry::add(std::uint64_t begin, std::uint64_t length, std::function<std::string()> label,
                             validation::AddressSpace space) {
    std::unique_lock lock(mutex_);
    auto [it, inserted] = allocations_.try_emplace(begin, Allocation{begin, length, std::move(label), 1, space});
    if (!inserted) ++it->second.registrations;
}

void AllocationRegistry::remove(std::uint64_t begin) {
    std::unique_lock lock(mutex_);
    auto it = allocations_.find(begin);
    if (it != allocations_.end() && --it->second.registrations == 0) allocations_.erase(it);
}

std::optional<AllocationRegistry::Allocation> AllocationRegistry::find(std::uint64_t address) const {
    std::optional<Allocation> found;
    {
        std::shared_lock lock(mutex_);
        auto it = allocations_.upper_bound(address);
        if (it != allocations_.begin()) found = std::prev(it)->second;
    }
    if (external_) {
        // The nearer of the two below the address.
        std::optional<Allocation> outside = external_(address);
        if (outside && outside->begin <= address && (!found || outside->begin > found->begin)) found = outside;
    }
    return found;
}

bool AllocationRegistry::contains(std::uint64_t address, std::uint64_t size) const {
    auto inside = [&](const Allocation& a) {
        return address - a.begin < a.length && a.length - (address - a.begin) >= size;
    };
    {
        std::shared_lock lock(mutex_);
        auto it = allocations_.upper_bound(address);
        if (it != allocations_.begin() && inside(std::prev(it)->second)) return true;
    }
    if (!external_) return false;
    std::optional<Allocation> outside = external_(address);
    return outside && inside(*outside);
}

} // namespace metalcpu::val
