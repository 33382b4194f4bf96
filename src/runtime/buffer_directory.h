#pragma once

#include <cstdint>
#include <map>
#include <shared_mutex>

namespace metalcpu::rt {

class Buffer;

/// The device's buffers by GPU address (the host address of their memory): how an MTL4
/// argument table, which binds bare addresses, finds the buffer and offset a dispatch uses.
/// Buffers add themselves when they are made and remove themselves when they die; lookups
/// come from any encoding thread.
class BufferDirectory {
public:
    struct Location {
        Buffer* buffer = nullptr; ///< null: no buffer holds the address
        std::uint64_t offset = 0; ///< of the address in the buffer
    };

    void add(Buffer* buffer);
    void remove(Buffer* buffer);
    /// The buffer whose memory holds `address` (its end is not inside it).
    Location find(std::uint64_t address) const;

private:
    mutable std::shared_mutex mutex_;
    std::map<std::uint64_t, Buffer*> byBegin_;
};

} // namespace metalcpu::rt
