#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace metalcpu::support {

/// A 128-bit content hash (two independent 64-bit FNV-1a lanes), printed as 32 hex digits.
/// Used for cache keys, where collisions only cost a wrong cache hit, so a cryptographic
/// hash is not needed.
class Hasher {
public:
    Hasher& add(std::string_view bytes);
    Hasher& add(std::uint64_t value);
    std::string hex() const;

private:
    std::uint64_t low_ = 0xcbf29ce484222325ull;
    std::uint64_t high_ = 0x84222325cbf29ce4ull;
};

} // namespace metalcpu::support
