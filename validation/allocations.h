// The live buffers and program-scope constants, against which shader validation checks an
// address that carries no tag (the tag table itself is the executor's: exec/regions.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>

#include <metalcpu/Validation.hpp>

namespace metalcpu::val {

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
        /// Buffers are device memory; program-scope constants and string literals constant.
        validation::AddressSpace space = validation::AddressSpace::Device;
    };
    /// Registers [begin, begin + length); registering the same begin again counts, and each
    /// registration needs its remove().
    void add(std::uint64_t begin, std::uint64_t length, std::function<std::string()> label,
             validation::AddressSpace space = validation::AddressSpace::Device);
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
