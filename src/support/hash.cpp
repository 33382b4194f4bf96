#include "support/hash.h"

#include <cstdio>

namespace metalcpu::support {

Hasher& Hasher::add(std::string_view bytes) {
    // Length first, so that ("ab","c") and ("a","bc") hash differently.
    add(static_cast<std::uint64_t>(bytes.size()));
    for (unsigned char c : bytes) {
        low_ = (low_ ^ c) * 0x100000001b3ull;
        high_ = (high_ ^ (c + 0x9eu)) * 0x00000100000001b3ull + 0x7f4a7c15ull;
    }
    return *this;
}

Hasher& Hasher::add(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        unsigned char c = static_cast<unsigned char>(value >> (8 * i));
        low_ = (low_ ^ c) * 0x100000001b3ull;
        high_ = (high_ ^ (c + 0x9eu)) * 0x00000100000001b3ull + 0x7f4a7c15ull;
    }
    return *this;
}

std::string Hasher::hex() const {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(high_),
                  static_cast<unsigned long long>(low_));
    return text;
}

} // namespace metalcpu::support
