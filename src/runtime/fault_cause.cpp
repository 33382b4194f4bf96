#include "runtime/fault_cause.h"

#include "runtime/buffer_memory.h"

#include <algorithm>

namespace metalcpu::rt {
namespace {

using Memory = FaultSuspects::Memory;

/// How far past a buffer a fault is still charged to it: the free granule after each buffer,
/// which a device process never maps, so that the first byte a kernel reads or writes past a
/// buffer's last granule faults there. Further on lies another buffer's memory, or none.
constexpr std::uint64_t kReach = BufferMemory::kGranule;

/// Whether a fault at `address` is an access through a null pointer: within 4 GiB above
/// address 0 (nothing is mapped there in a device process: its program is position
/// independent and the arena starts at 16 TiB or above) or a little below it.
bool throughNull(std::uint64_t address) {
    constexpr std::uint64_t kNullReach = std::uint64_t(1) << 32;
    return address < kNullReach || address >= ~std::uint64_t(0) - kNullReach;
}

/// `argument 'src' [[buffer(0)]] (a buffer of 4096 bytes, bound at offset 0)`, naming every
/// argument bound to the same memory as `memory`.
std::string memoryText(const Memory& memory, const FaultSuspects& suspects) {
    std::string text = "argument " + memory.argument;
    for (const Memory& other : suspects.memory)
        if (&other != &memory && other.begin == memory.begin) text += " (also bound to " + other.argument + ")";
    if (memory.bytes) return text + " (" + std::to_string(memory.length) + " bytes from setBytes)";
    return text + " (a buffer of " + std::to_string(memory.length) + " bytes, bound at offset " +
           std::to_string(memory.offset) + ")";
}

/// What follows the message for a fault at `address`; empty when it is charged to a lone
/// buffer argument with nothing bound (`unbound` is then that argument).
std::string chargedTo(const FaultSuspects& suspects, std::uint64_t address, const FaultSuspects::Null*& unbound) {
    const Memory* holding = nullptr;
    const Memory* below = nullptr; // the memory ending nearest before the address
    for (const Memory& memory : suspects.memory) {
        const std::uint64_t end = memory.begin + std::max(memory.size, memory.length);
        if (address >= memory.begin && address < end) holding = holding ? holding : &memory;
        else if (end <= address && (!below || end > below->begin + std::max(below->size, below->length)))
            below = &memory;
    }
    if (holding)
        return "the address is in the memory of " + memoryText(*holding, suspects) + ", " +
               std::to_string(address - holding->begin) + " bytes from its start";
    const std::uint64_t belowEnd = below ? below->begin + std::max(below->size, below->length) : 0;
    if (below && address - belowEnd < kReach)
        return "the address is " + std::to_string(address - (below->begin + below->length)) +
               " bytes past the end of " + memoryText(*below, suspects);
    if (throughNull(address) && !suspects.null.empty()) {
        if (suspects.null.size() == 1) {
            const FaultSuspects::Null& only = suspects.null.front();
            if (only.buffer) {
                unbound = &only;
                return {};
            }
            return "argument " + only.argument + " has " + only.lack;
        }
        std::string text = "the address is near 0, where arguments with nothing bound point:";
        for (std::size_t i = 0; i < suspects.null.size(); ++i)
            text += std::string(i ? "," : "") + " argument " + suspects.null[i].argument + " has " +
                    suspects.null[i].lack;
        return text;
    }
    if (throughNull(address))
        return "the address is near 0, a null pointer's, and no argument is null: no argument is charged with it "
               "(a threadgroup pointer made from nullptr is one: a GPU reads the group's memory there, shader "
               "validation reports the access as an invalid threadgroup load)";
    std::string text = "the address is in no argument's memory nor within " + std::to_string(kReach / 1024) +
                       " KiB past it, so no argument is charged with it";
    // The nearest memory, when near enough to be what the kernel meant to index (a row or
    // a plane too far), not a host address's distance from the arena.
    constexpr std::uint64_t kNear = std::uint64_t(1) << 30;
    if (below && address - belowEnd < kNear)
        text += " (the nearest memory below it, of " + memoryText(*below, suspects) + ", ends " +
                std::to_string(address - belowEnd) + " bytes before it)";
    return text;
}

} // namespace

std::string argumentText(const std::string& name, const char* kind, std::uint64_t index) {
    return "'" + name + "' [[" + kind + "(" + std::to_string(index) + ")]]";
}

std::string unboundAccess(const std::string& kernel, const std::string& argument) {
    return std::string(kPageFaultError) + ": kernel '" + kernel + "' accessed argument " + argument +
           ", which has no buffer bound";
}

std::string describeFault(const std::string& message, const std::string& kernel, const FaultSuspects& suspects,
                          std::optional<std::uint64_t> address) {
    if (!address) {
        std::string text = message;
        for (const std::string& hint : suspects.withoutAddress) text += "; " + hint;
        return text;
    }
    const FaultSuspects::Null* unbound = nullptr;
    const std::string charge = chargedTo(suspects, *address, unbound);
    if (unbound) return unboundAccess(kernel, unbound->argument);
    return message + "; " + charge;
}

} // namespace metalcpu::rt
