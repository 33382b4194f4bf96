// Which argument a kernel's page fault came through, judged from the fault's address and what
// the dispatch bound (docs/troubleshooting.md, "Isolation and the device process").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::rt {

/// What a dispatch bound, as far as a page fault's address can be charged to it: filled when
/// the dispatch is encoded, read only when it faults.
struct FaultSuspects {
    /// A buffer argument with memory bound: a buffer, or setBytes' copy.
    struct Memory {
        std::string argument;   ///< `'name' [[buffer(n)]]`
        std::uint64_t begin = 0; ///< the buffer's first byte (the binding's offset is not counted)
        std::uint64_t length = 0;
        std::uint64_t size = 0;  ///< what it occupies: whole granules for a buffer
        std::uint64_t offset = 0; ///< where the binding starts
        bool bytes = false;       ///< setBytes' copy, not a buffer
    };
    std::vector<Memory> memory;
    /// An argument whose pointer is null: a buffer argument with nothing bound that runs so
    /// (DispatchCommand::unboundArgument), a threadgroup argument with no memory.
    struct Null {
        std::string argument; ///< `'name' [[buffer(n)]]`, `'name' [[threadgroup(n)]]`
        std::string lack;     ///< what it has not: "no buffer bound", "no threadgroup memory (...)"
        bool buffer = false;
    };
    std::vector<Null> null;
    /// What a fault with no address most likely comes from (an argument bound at an offset
    /// its type's alignment does not divide, whose aligned vector access raises a
    /// general-protection fault).
    std::vector<std::string> withoutAddress;
};

/// What a command buffer's page fault of `kernel` says: `message` (the device process's
/// text, which names the address) followed by the argument the address belongs to. That is
/// the argument whose memory holds `address` or ends less than a granule (16 KiB, the free
/// granule after each buffer that a device process never maps) before it, the nearest; else,
/// for an address near 0, the argument whose pointer is null; else it says that no argument's
/// memory is near. Charged to a lone buffer argument with nothing bound, the text is
/// unboundAccess()'s instead. Without an address, `withoutAddress` follows the message.
std::string describeFault(const std::string& message, const std::string& kernel, const FaultSuspects& suspects,
                          std::optional<std::uint64_t> address);

/// `'name' [[kind(index)]]`: how messages name an argument.
std::string argumentText(const std::string& name, const char* kind, std::uint64_t index);

/// What a command buffer says of an access through `argument` (`'name' [[buffer(n)]]`), which
/// has nothing bound.
std::string unboundAccess(const std::string& kernel, const std::string& argument);

/// The first words of every page fault's message, as Metal's.
inline constexpr const char* kPageFaultError =
    "Caused GPU Address Fault Error (0000000b:kIOGPUCommandBufferCallbackErrorPageFault)";

} // namespace metalcpu::rt
