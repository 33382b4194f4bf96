#include "jit/elf_check.h"

#include "jit/elf_image.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <optional>
#include <vector>

namespace metalcpu::jit {
namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kIrelative = R_X86_64_IRELATIVE;
#elif defined(__aarch64__)
constexpr std::uint32_t kIrelative = R_AARCH64_IRELATIVE;
#endif

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

/// The dynamic section's entries, and what the check needs from them.
struct Dynamic {
    std::vector<Elf64_Dyn> entries;
    std::optional<std::uint64_t> value(std::int64_t tag) const {
        for (const Elf64_Dyn& entry : entries)
            if (entry.d_tag == tag) return entry.d_un.d_val;
        return std::nullopt;
    }
};

/// Entries that make the loader load another object or run code of this one.
std::string forbiddenEntry(const Dynamic& dynamic) {
    for (const Elf64_Dyn& entry : dynamic.entries) {
        switch (entry.d_tag) {
        case DT_NEEDED:
        case DT_AUXILIARY:
        case DT_FILTER:
        case DT_AUDIT:
        case DT_DEPAUDIT:
            return "it needs other libraries loaded (DT_NEEDED or a filter or audit entry); kernel libraries "
                   "import nothing";
        case DT_INIT:
            return "it runs code while it loads (DT_INIT)";
        case DT_FINI:
            return "it runs code while it unloads (DT_FINI)";
        default:
            break;
        }
    }
    const std::pair<std::int64_t, const char*> arrays[] = {
        {DT_PREINIT_ARRAYSZ, "it runs code while it loads (DT_PREINIT_ARRAY)"},
        {DT_INIT_ARRAYSZ, "it runs code while it loads (DT_INIT_ARRAY: a program-scope variable with a dynamic "
                          "initialiser?)"},
        {DT_FINI_ARRAYSZ, "it runs code while it unloads (DT_FINI_ARRAY: a program-scope variable with a "
                          "destructor?)"}};
    for (const auto& [tag, reason] : arrays)
        if (dynamic.value(tag).value_or(0) != 0) return reason;
    return {};
}

class Checker {
public:
    explicit Checker(std::string_view bytes) : image_(bytes) {}

    std::string check() {
        const std::optional<Elf64_Ehdr> any = image_.read<Elf64_Ehdr>(0);
        if (!any || std::memcmp(any->e_ident, ELFMAG, SELFMAG) != 0) return "it is not an ELF file";
        std::optional<Elf64_Ehdr> header = image_.header();
        if (!header) return "it is an ELF file for another machine";
        if (header->e_type != ET_DYN) return "it is an ELF file but not a shared object";
        if (header->e_phentsize != sizeof(Elf64_Phdr) || header->e_phnum == 0 ||
            !image_.contains(header->e_phoff, std::uint64_t(header->e_phnum) * sizeof(Elf64_Phdr)))
            return "its program headers lie outside the file (truncated?)";
        std::optional<Elf64_Phdr> dynamicHeader;
        for (std::uint16_t i = 0; i < header->e_phnum; ++i) {
            Elf64_Phdr segment = *image_.read<Elf64_Phdr>(header->e_phoff + std::uint64_t(i) * sizeof(Elf64_Phdr));
            if (!image_.contains(segment.p_offset, segment.p_filesz) || segment.p_filesz > segment.p_memsz)
                return "its segment " + std::to_string(i) + " lies outside the file (truncated?)";
            if (segment.p_type == PT_LOAD) loads_.push_back(segment);
            if (segment.p_type == PT_DYNAMIC) dynamicHeader = segment;
            if (segment.p_type == PT_GNU_STACK && (segment.p_flags & PF_X))
                return "it asks for an executable stack";
        }
        if (loads_.empty() || !dynamicHeader) return "it has no loadable segments or no dynamic section";
        Dynamic dynamic;
        for (std::uint64_t at = dynamicHeader->p_offset;; at += sizeof(Elf64_Dyn)) {
            if (at + sizeof(Elf64_Dyn) > dynamicHeader->p_offset + dynamicHeader->p_filesz)
                return "its dynamic section has no end";
            Elf64_Dyn entry = *image_.read<Elf64_Dyn>(at);
            if (entry.d_tag == DT_NULL) break;
            dynamic.entries.push_back(entry);
        }
        if (std::string reason = forbiddenEntry(dynamic); !reason.empty()) return reason;
        return checkRelocations(dynamic);
    }

private:
    /// The file offset of a virtual address inside a loaded segment's file bytes.
    std::optional<std::uint64_t> offsetOf(std::uint64_t address, std::uint64_t size) const {
        for (const Elf64_Phdr& load : loads_)
            if (address >= load.p_vaddr && address - load.p_vaddr <= load.p_filesz &&
                size <= load.p_filesz - (address - load.p_vaddr))
                return load.p_offset + (address - load.p_vaddr);
        return std::nullopt;
    }

    /// Relocations the loader resolves by calling a function of the library: IRELATIVE, or
    /// any relocation against an IFUNC symbol.
    std::string checkRelocations(const Dynamic& dynamic) const {
        const std::pair<std::int64_t, std::int64_t> tables[] = {{DT_RELA, DT_RELASZ}, {DT_JMPREL, DT_PLTRELSZ}};
        const std::optional<std::uint64_t> symbols = dynamic.value(DT_SYMTAB);
        for (const auto& [tableTag, sizeTag] : tables) {
            std::optional<std::uint64_t> address = dynamic.value(tableTag), size = dynamic.value(sizeTag);
            if (!address || !size) continue;
            std::optional<std::uint64_t> at = offsetOf(*address, *size);
            if (!at) return "its relocations lie outside the file (truncated?)";
            for (std::uint64_t r = 0; r + sizeof(Elf64_Rela) <= *size; r += sizeof(Elf64_Rela)) {
                Elf64_Rela relocation = *image_.read<Elf64_Rela>(*at + r);
                if (ELF64_R_TYPE(relocation.r_info) == kIrelative)
                    return "it runs code while it loads (an IFUNC resolver, relocation at " +
                           hex(relocation.r_offset) + ")";
                const std::uint64_t symbol = ELF64_R_SYM(relocation.r_info);
                if (symbol == 0) continue;
                std::optional<std::uint64_t> entry =
                    symbols ? offsetOf(*symbols + symbol * sizeof(Elf64_Sym), sizeof(Elf64_Sym)) : std::nullopt;
                if (!entry) return "a relocation names a symbol outside the file";
                if (ELF64_ST_TYPE(image_.read<Elf64_Sym>(*entry)->st_info) == STT_GNU_IFUNC)
                    return "it runs code while it loads (a relocation against an IFUNC symbol)";
            }
        }
        if (dynamic.value(DT_REL)) return "it has DT_REL relocations, which no kernel library for this machine has";
        return {};
    }

    ElfImage image_;
    std::vector<Elf64_Phdr> loads_;
};

} // namespace

std::string checkKernelElf(std::string_view image) { return Checker(image).check(); }

} // namespace metalcpu::jit
