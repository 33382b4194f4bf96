#pragma once

#include "foundation/object.h"
#include "runtime/label.h"

#include <Metal/MTLResidencySet.hpp>

#include <cstdint>
#include <mutex>
#include <vector>

namespace metalcpu::rt {

class Device;
class ResourceCore;

/// A residency set: the allocations (buffers, textures, tensors) a command buffer or queue
/// promises to keep resident. CPU memory always is, so a set only records membership, which
/// API validation reads to report an MTL4 dispatch using an allocation in no set
/// (mtl4_residency.h). Additions and removals are staged and take effect at commit(), as on
/// Apple GPUs.
class ResidencySet final : public ns::Implements<MTL::ResidencySet> {
public:
    explicit ResidencySet(Device* device) : device_(device) {}
    ~ResidencySet() override;

    const char* className() const override { return "MTLResidencySet"; }
    Device* device() const { return device_; }
    Label& label() { return label_; }

    /// Stages adding or removing `allocation` (its implementation object; others are
    /// ignored). The set retains what it holds.
    void add(ResourceCore* allocation);
    void remove(ResourceCore* allocation);
    void removeAll();
    /// Whether `allocation` is in the staged set (what the program has added, committed or
    /// not).
    bool contains(const ResourceCore* allocation) const;
    /// Makes the staged set the committed one.
    void commit();

    /// Whether the committed set holds the allocation at `allocationImpl` (the address of
    /// its implementation object, which is also its public pointer). Thread-safe: queues
    /// ask while the program stages changes.
    bool containsCommitted(const void* allocationImpl) const;
    /// The committed allocations, in the order they were first added.
    std::vector<ResourceCore*> committed() const;
    /// The memory the committed allocations occupy.
    std::uint64_t allocatedSize() const;

private:
    /// Each entry holds a reference.
    using Allocations = std::vector<ResourceCore*>;
    static void releaseAll(Allocations& allocations);

    Device* device_;
    Label label_;
    mutable std::mutex mutex_;
    Allocations staged_;
    Allocations committed_;
};

} // namespace metalcpu::rt
