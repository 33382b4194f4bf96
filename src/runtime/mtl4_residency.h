#pragma once

#include "runtime/commands.h"

#include <Metal/MTLResidencySet.hpp>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

struct mc_kernel;

namespace metalcpu::rt {

struct Bindings;
class ResidencySet;
class ResourceCore;

/// The residency sets an MTL4 command buffer uses (useResidencySet) or an MTL4 queue has
/// (addResidencySet): each held once, retained. Thread-safe: a queue's commit reads them
/// while the program may add or remove others.
class ResidencySets {
public:
    ResidencySets() = default;
    ~ResidencySets();
    ResidencySets(const ResidencySets&) = delete;
    ResidencySets& operator=(const ResidencySets&) = delete;

    void add(const MTL::ResidencySet* const* sets, std::uint64_t count);
    void remove(const MTL::ResidencySet* const* sets, std::uint64_t count);
    void clear();
    /// Whether a set holds `allocation` as committed (ResidencySet::commit) by now.
    bool holdCommitted(const ResourceCore* allocation) const;
    /// A set that holds `allocation` added but not committed, or nullptr: the debug layer
    /// names it when the program forgot to call commit() after addAllocation.
    ResidencySet* stagingOnly(const ResourceCore* allocation) const;

private:
    mutable std::mutex mutex_;
    std::vector<ResidencySet*> sets_;
};

/// Metal 4's residency rule, which API validation checks at commit: every allocation a
/// dispatch reads through its argument table (buffers, textures, tensors, or the buffer or
/// texture they are made over) must be in a committed residency set that the command buffer
/// uses or its queue has. CPU memory is always resident, so breaking the rule changes
/// nothing here; Apple's GPU would fault. An MTL4 command buffer notes what its dispatches
/// use while the layer is on, and its queue checks the notes when it commits it.
class ResidencyUses {
public:
    /// Notes the allocations `kernel` reads through `bindings` in the dispatch recorded as
    /// command `command` of the command buffer.
    void note(std::size_t command, const mc_kernel& kernel, const Bindings& bindings);
    void clear() { uses_.clear(); }
    /// Reports (as API validation does) each noted allocation that neither `own` nor
    /// `queue` holds; a dispatch the layer reports fails when the command buffer runs.
    void check(const ResidencySets& own, const ResidencySets& queue, std::vector<Command>& commands) const;

private:
    struct Use {
        std::size_t command;
        /// The allocation bound (kept alive by the dispatch), then those it is made over: any
        /// of them in a set makes it resident.
        std::vector<const ResourceCore*> chain;
        std::string what; ///< "the buffer bound at index 0 for out[0]"
        std::string kernel;
    };
    std::vector<Use> uses_;
};

} // namespace metalcpu::rt
