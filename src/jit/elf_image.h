// Bounds-checked reading of ELF files (kernel libraries, .air objects): every read of a
// structure says whether it lies inside the bytes, so a truncated or hostile file is an
// error, never a read past its end.
#pragma once

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <optional>
#include <string_view>

namespace metalcpu::jit {

#if defined(__x86_64__)
inline constexpr std::uint16_t kElfMachine = EM_X86_64;
#elif defined(__aarch64__)
inline constexpr std::uint16_t kElfMachine = EM_AARCH64;
#else
#error "kernel libraries are built for x86-64 and AArch64 only"
#endif

class ElfImage {
public:
    explicit ElfImage(std::string_view bytes) : bytes_(bytes) {}
    bool contains(std::uint64_t offset, std::uint64_t size) const {
        return offset <= bytes_.size() && size <= bytes_.size() - offset;
    }
    template <class T>
    std::optional<T> read(std::uint64_t offset) const {
        if (!contains(offset, sizeof(T))) return std::nullopt;
        T value;
        std::memcpy(&value, bytes_.data() + offset, sizeof(T));
        return value;
    }
    /// The 64-bit little-endian ELF header for this machine, or nothing.
    std::optional<Elf64_Ehdr> header() const {
        std::optional<Elf64_Ehdr> h = read<Elf64_Ehdr>(0);
        if (!h || std::memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 || h->e_ident[EI_CLASS] != ELFCLASS64 ||
            h->e_ident[EI_DATA] != ELFDATA2LSB || h->e_machine != kElfMachine)
            return std::nullopt;
        return h;
    }
    std::string_view bytes() const { return bytes_; }

private:
    std::string_view bytes_;
};

} // namespace metalcpu::jit
