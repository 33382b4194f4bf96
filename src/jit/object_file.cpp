#include "jit/object_file.h"

#include "compiler/translate.h"
#include "jit/elf_image.h"
#include "jit/isa.h"
#include "support/files.h"

#include <charconv>
#include <map>
#include <string_view>

namespace metalcpu::jit {

namespace {

constexpr std::string_view kArchiveMagic = "!<arch>\n";
constexpr std::string_view kThinArchiveMagic = "!<thin>\n";

/// Why `bytes`, named `name`, is not an object metalcpu links; empty when it is one.
std::string notAnObject(std::string_view bytes, const std::string& name) {
    const auto startsWith = [&](std::string_view magic) { return bytes.substr(0, magic.size()) == magic; };
    if (startsWith("BC\xC0\xDE") || startsWith("\xDE\xC0\x17\x0B"))
        return name + " is Apple's AIR (LLVM bitcode) from Apple's metal: compile its .metal source with "
                      "metalcpu's metal -c instead";
    if (std::string apple = appleLibraryDescription(bytes); !apple.empty()) return name + " is " + apple;
    if (!startsWith(ELFMAG))
        return name + " is not an .air object made by metalcpu's metal -c, nor an archive of them";
    const std::optional<Elf64_Ehdr> header = ElfImage(bytes).header();
    if (!header) return name + " is an object for another machine";
    if (header->e_type == ET_DYN) return name + " is a library; metallib links the .air objects metal -c makes";
    if (header->e_type != ET_REL) return name + " is not an object file";
    return {};
}

/// The host names of the kernels an ELF relocatable object defines: its defined symbols that
/// msl::kernelNameOfSymbol() reads.
std::optional<std::vector<std::string>> kernelsOf(std::string_view bytes) {
    const ElfImage image(bytes);
    const std::optional<Elf64_Ehdr> header = image.header();
    if (!header || header->e_shentsize != sizeof(Elf64_Shdr) ||
        !image.contains(header->e_shoff, std::uint64_t(header->e_shnum) * sizeof(Elf64_Shdr)))
        return std::nullopt;
    std::vector<std::string> kernels;
    for (std::uint16_t i = 0; i < header->e_shnum; ++i) {
        const Elf64_Shdr table = *image.read<Elf64_Shdr>(header->e_shoff + std::uint64_t(i) * sizeof(Elf64_Shdr));
        if (table.sh_type != SHT_SYMTAB) continue;
        if (table.sh_link >= header->e_shnum || !image.contains(table.sh_offset, table.sh_size)) return std::nullopt;
        const Elf64_Shdr strings =
            *image.read<Elf64_Shdr>(header->e_shoff + std::uint64_t(table.sh_link) * sizeof(Elf64_Shdr));
        if (!image.contains(strings.sh_offset, strings.sh_size)) return std::nullopt;
        const std::string_view names = bytes.substr(strings.sh_offset, strings.sh_size);
        for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.sh_size; at += sizeof(Elf64_Sym)) {
            const Elf64_Sym symbol = *image.read<Elf64_Sym>(table.sh_offset + at);
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= names.size()) continue;
            const std::string_view name = names.substr(symbol.st_name, names.find('\0', symbol.st_name) - symbol.st_name);
            if (std::optional<std::string> kernel = msl::kernelNameOfSymbol(name)) kernels.push_back(std::move(*kernel));
        }
    }
    return kernels;
}

std::optional<ObjectKernels> readObject(std::string_view bytes, const std::string& name, std::string* error) {
    if (std::string problem = notAnObject(bytes, name); !problem.empty()) {
        *error = problem;
        return std::nullopt;
    }
    std::optional<std::vector<std::string>> kernels = kernelsOf(bytes);
    if (!kernels) {
        *error = name + " is a damaged object file (its symbol table lies outside it)";
        return std::nullopt;
    }
    ObjectKernels object{name, std::move(*kernels), {}};
    if (!bytes.ends_with(std::string_view(kBundleMagic, sizeof kBundleMagic))) {
        object.images.push_back(ObjectImage{baselineLevel(), std::string(bytes)});
        return object;
    }
    std::vector<LibraryImage> table;
    std::string problem = readImageTable(bytes.substr(0, bytes.size() - sizeof kBundleMagic), table);
    for (std::size_t i = 0; problem.empty() && i < table.size(); ++i) {
        const std::string_view image = bytes.substr(table[i].offset, table[i].size);
        problem = notAnObject(image, table[i].level + " object");
        object.images.push_back(ObjectImage{table[i].level, std::string(image)});
    }
    if (!problem.empty()) {
        *error = name + " is a damaged .air (" + problem + ")";
        return std::nullopt;
    }
    return object;
}

/// A decimal field of an archive member's header, blank-padded.
std::optional<std::uint64_t> headerNumber(std::string_view field) {
    while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
    std::uint64_t value = 0;
    auto [end, problem] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (problem != std::errc() || end != field.data() + field.size()) return std::nullopt;
    return value;
}

/// The objects of an `ar` archive (System V/GNU names, "/" long names, BSD "#1/" names);
/// the symbol tables ("/", "/SYM64/", "__.SYMDEF") are skipped.
std::optional<LinkInput> readArchive(std::string_view bytes, const std::string& name, std::string* error) {
    LinkInput input;
    input.archive = true;
    std::string_view longNames;
    constexpr std::size_t kHeader = 60;
    for (std::size_t at = kArchiveMagic.size(); at < bytes.size();) {
        const std::optional<std::uint64_t> size =
            at + kHeader <= bytes.size() ? headerNumber(bytes.substr(at + 48, 10)) : std::nullopt;
        if (!size || bytes.substr(at + 58, 2) != "`\n" || *size > bytes.size() - at - kHeader) {
            *error = name + " is a damaged archive (a member's header or size is wrong)";
            return std::nullopt;
        }
        std::string_view field = bytes.substr(at, 16), data = bytes.substr(at + kHeader, *size);
        while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
        at += kHeader + *size + (*size % 2);
        std::string member;
        if (field == "//") {
            longNames = data;
            continue;
        }
        if (field == "/" || field == "/SYM64/" || field.starts_with("__.SYMDEF")) continue;
        if (field.starts_with("#1/")) { // BSD: the name leads the data
            const std::optional<std::uint64_t> length = headerNumber(field.substr(3));
            if (!length || *length > data.size()) {
                *error = name + " is a damaged archive (a member's name is wrong)";
                return std::nullopt;
            }
            member = std::string(data.substr(0, *length));
            member = member.substr(0, member.find('\0'));
            data.remove_prefix(*length);
        } else if (field.size() > 1 && field[0] == '/') { // GNU: an offset into the long names
            const std::optional<std::uint64_t> offset = headerNumber(field.substr(1));
            if (!offset || *offset >= longNames.size()) {
                *error = name + " is a damaged archive (a member's name is wrong)";
                return std::nullopt;
            }
            member = std::string(longNames.substr(*offset, longNames.find('\n', *offset) - *offset));
            if (!member.empty() && member.back() == '/') member.pop_back();
        } else {
            member = std::string(field.ends_with("/") ? field.substr(0, field.size() - 1) : field);
        }
        std::optional<ObjectKernels> object = readObject(data, name + "(" + member + ")", error);
        if (!object) return std::nullopt;
        input.objects.push_back(std::move(*object));
    }
    return input;
}

} // namespace

std::optional<LinkInput> readLinkInput(const std::string& path, const std::string& name, std::string* error) {
    const std::optional<std::string> bytes = support::readFile(path);
    if (!bytes) {
        *error = "cannot read " + name;
        return std::nullopt;
    }
    const std::string_view view(*bytes);
    if (view.starts_with(kThinArchiveMagic)) {
        *error = name + " is a thin archive, which holds only the names of its objects: make it without T "
                        "(metal-ar rcs " + name + " a.air ...)";
        return std::nullopt;
    }
    if (view.starts_with(kArchiveMagic)) return readArchive(view, name, error);
    std::optional<ObjectKernels> object = readObject(view, name, error);
    if (!object) return std::nullopt;
    return LinkInput{false, {std::move(*object)}};
}

std::string writeObjectBundle(const std::string& path, const std::vector<ImageSource>& images) {
    std::string body;
    std::vector<LibraryImage> table;
    for (const ImageSource& source : images) {
        std::optional<std::string> object = support::readFile(source.path);
        if (!object) return "cannot read " + source.path;
        table.push_back(LibraryImage{source.level, body.size(), object->size()});
        body += *object;
    }
    if (std::string problem = appendImageTable(body, table); !problem.empty()) return problem;
    body.append(kBundleMagic, sizeof kBundleMagic);
    return support::writeFile(path, body) ? std::string() : "cannot write " + path;
}

std::string duplicateKernels(const std::vector<ObjectKernels>& objects) {
    std::map<std::string, const ObjectKernels*> definedBy;
    std::string problems;
    for (const ObjectKernels& object : objects) {
        for (const std::string& kernel : object.kernels) {
            auto [first, added] = definedBy.emplace(kernel, &object);
            if (!added)
                problems += "kernel '" + kernel + "' is defined in both " + first->second->name + " and " + object.name +
                            "\n";
        }
    }
    return problems;
}

} // namespace metalcpu::jit
