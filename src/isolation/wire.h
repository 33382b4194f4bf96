// The byte format of messages between a host and its device process: fixed-width integers
// in the machine's byte order (both ends are the same build on the same machine) and
// length-prefixed strings. The host reads what a device process wrote as untrusted: a kernel
// may have overwritten it, so every read is bounds-checked and a bad message fails whole.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace metalcpu::iso {

class Writer {
public:
    template <typename T>
    void value(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(&v);
        bytes_.insert(bytes_.end(), bytes, bytes + sizeof(T));
    }
    void string(const std::string& text) {
        value(static_cast<std::uint64_t>(text.size()));
        bytes_.insert(bytes_.end(), text.begin(), text.end());
    }
    std::vector<std::uint8_t>& bytes() { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
};

class Reader {
public:
    /// The longest string a message may hold; a longer one fails the message.
    static constexpr std::uint64_t kMaxString = std::uint64_t(16) << 20;

    Reader(const std::uint8_t* data, std::size_t size) : at_(data), end_(data + size) {}
    explicit Reader(const std::vector<std::uint8_t>& bytes) : Reader(bytes.data(), bytes.size()) {}

    template <typename T>
    T value() {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        if (!ok_ || std::size_t(end_ - at_) < sizeof(T)) {
            ok_ = false;
            return v;
        }
        std::memcpy(&v, at_, sizeof(T));
        at_ += sizeof(T);
        return v;
    }
    std::string string() {
        const auto size = value<std::uint64_t>();
        if (!ok_ || size > kMaxString || size > std::uint64_t(end_ - at_)) {
            ok_ = false;
            return {};
        }
        std::string text(reinterpret_cast<const char*>(at_), static_cast<std::size_t>(size));
        at_ += size;
        return text;
    }
    /// A count of items of at least `itemBytes` each that the rest of the message can hold;
    /// fails the message when it cannot (so a forged count allocates nothing).
    std::uint64_t count(std::uint64_t itemBytes) {
        const auto n = value<std::uint64_t>();
        if (ok_ && itemBytes && n > std::uint64_t(end_ - at_) / itemBytes) ok_ = false;
        return ok_ ? n : 0;
    }
    bool ok() const { return ok_; }
    bool atEnd() const { return ok_ && at_ == end_; }
    void fail() { ok_ = false; }

private:
    const std::uint8_t* at_;
    const std::uint8_t* end_;
    bool ok_ = true;
};

} // namespace metalcpu::iso
