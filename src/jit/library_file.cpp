#include "jit/library_file.h"

#include "jit/elf_check.h"
#include "jit/isa.h"
#include "support/config.h"
#include "support/files.h"
#include "support/hash.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

namespace metalcpu::jit {
namespace {

constexpr char kMagic[8] = {'m', 'e', 't', 'a', 'l', 'c', 'p', 'u'};
/// 1: one image, then the trailer. 2: images, their table, then the trailer.
constexpr std::uint32_t kVersion = 2;
constexpr std::uint32_t kSingleImageVersion = 1;
/// More images than levels any architecture has; a bound on what a damaged table makes us read.
constexpr std::uint32_t kMaxImages = 16;
/// Far more than any kernel library; a bound on what a damaged or planted file makes us read.
constexpr std::uint64_t kMaxLibraryBytes = std::uint64_t(1) << 30;

/// The last bytes of every kernel library file, little-endian as the machine.
struct Trailer {
    std::uint64_t imageSize; ///< the bytes before the trailer: the images (and from version 2 their table)
    char cacheKey[32];       ///< the cache key (hex) it was built for; zeros when the tools built it
    char digest[32];         ///< support::Hasher (hex) of the image and the fields above
    std::uint32_t version;
    std::uint32_t trailerSize;
    char magic[8];
};
static_assert(sizeof(Trailer) == 88, "the trailer is a file format");

/// An entry of a table of images, which ends with a TableEnd.
struct ImageEntry {
    char level[24]; ///< the level's name, NUL-padded (isa.h)
    std::uint64_t offset;
    std::uint64_t size;
};
static_assert(sizeof(ImageEntry) == 40, "the table of images is a file format");

struct TableEnd {
    std::uint32_t count;     ///< entries before this
    std::uint32_t entrySize; ///< sizeof(ImageEntry)
};
static_assert(sizeof(TableEnd) == 8, "the table of images is a file format");

std::string digestOf(std::string_view body, const Trailer& trailer) {
    return support::Hasher()
        .add(body)
        .add(trailer.imageSize)
        .add(std::string_view(trailer.cacheKey, sizeof trailer.cacheKey))
        .add(std::uint64_t(trailer.version))
        .hex();
}

/// A cache key as the trailer stores it: exactly 32 characters, zeros for none.
void storeKey(char (&stored)[32], const std::string& key) {
    std::memset(stored, 0, sizeof stored);
    std::memcpy(stored, key.data(), std::min(key.size(), sizeof stored));
}

/// A new memory file that can be sealed, named after the library for /proc/<pid>/maps.
int createMemoryFile(const std::string& path) {
    const std::string name = "metalcpu:" + std::filesystem::path(path).filename().string().substr(0, 200);
    int fd = memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
    // Where vm.memfd_noexec forbids executable memory files: mapping the library's code
    // still works, only execve() of the file does not.
    if (fd < 0 && (errno == EACCES || errno == EINVAL))
        fd = memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
    return fd;
}

/// Whether a failed call's errno says this process is short of something for now.
bool shortOfResources(int error) {
    return error == EMFILE || error == ENFILE || error == ENOMEM || error == EAGAIN || error == EINTR ||
           error == ENOBUFS || error == ENOSPC;
}

/// Writes `size` bytes at `bytes` to the start of the empty memory file `to`; false with errno set.
bool writeAll(int to, const char* bytes, std::uint64_t size) {
    for (std::uint64_t done = 0; done < size;) {
        const ssize_t n = pwrite(to, bytes + done, size - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::uint64_t>(n);
    }
    return true;
}

/// Reads `size` bytes of `from` into private memory, checks them there and writes the image
/// selectImage() takes, alone, into the empty memory file `to`: the bytes checked are the
/// bytes written. On success `digest` is the content hash the trailer holds. `unavailable`
/// is set when this process, not the file, is at fault.
/// The memory file is never mapped shared and writable: a child that another thread forks
/// meanwhile (a compiler's supervisor, which lives as long as its compile) would keep such a
/// mapping, and sealing the file fails (EBUSY) while any exists. Eight threads compiling at
/// once failed so (LibraryCacheConcurrencyTest.ThreadsCompilingNewSources).
std::string copyAndCheck(int from, int to, std::uint64_t size, const std::string& cacheKey, std::string* digest,
                         std::string* level, bool& unavailable) {
    unavailable = true;
    void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return "cannot map memory of its size";
    unavailable = false;
    char* bytes = static_cast<char*>(mapped);
    std::uint64_t done = 0;
    while (done < size) {
        ssize_t n = pread(from, bytes + done, size - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) unavailable = shortOfResources(errno);
        if (n <= 0) break;
        done += static_cast<std::uint64_t>(n);
    }
    std::vector<LibraryImage> images;
    std::string reason = done == size ? checkLibraryFile(std::string_view(bytes, size), cacheKey, &images)
                                      : "it changed while it was read";
    const LibraryImage* chosen = reason.empty() ? selectImage(images, &reason) : nullptr;
    if (chosen) {
        Trailer trailer{};
        std::memcpy(&trailer, bytes + size - sizeof trailer, sizeof trailer);
        digest->assign(trailer.digest, sizeof trailer.digest);
        *level = chosen->level;
        // The memory file holds the chosen image alone, from its start, where the loader reads it.
        if (!writeAll(to, bytes + chosen->offset, chosen->size)) {
            reason = "cannot write a memory file of its size: " + std::string(std::strerror(errno));
            unavailable = true;
        }
    }
    munmap(mapped, size);
    return reason;
}

} // namespace

std::string appendImageTable(std::string& body, const std::vector<LibraryImage>& images) {
    if (images.empty() || images.size() > kMaxImages) return "a file holds 1 to 16 images";
    for (const LibraryImage& image : images) {
        ImageEntry entry{};
        if (image.level.empty() || image.level.size() >= sizeof entry.level) return "no level is named " + image.level;
        std::memcpy(entry.level, image.level.data(), image.level.size());
        entry.offset = image.offset;
        entry.size = image.size;
        body.append(reinterpret_cast<const char*>(&entry), sizeof entry);
    }
    const TableEnd end{static_cast<std::uint32_t>(images.size()), sizeof(ImageEntry)};
    body.append(reinterpret_cast<const char*>(&end), sizeof end);
    return {};
}

std::string readImageTable(std::string_view body, std::vector<LibraryImage>& images) {
    TableEnd end{};
    if (body.size() < sizeof end) return "its table of images is missing";
    std::memcpy(&end, body.data() + body.size() - sizeof end, sizeof end);
    if (end.count == 0 || end.count > kMaxImages || end.entrySize != sizeof(ImageEntry) ||
        std::uint64_t(end.count) * sizeof(ImageEntry) > body.size() - sizeof end)
        return "its table of images is damaged";
    const std::uint64_t tableStart = body.size() - sizeof end - std::uint64_t(end.count) * sizeof(ImageEntry);
    for (std::uint32_t i = 0; i < end.count; ++i) {
        ImageEntry entry{};
        std::memcpy(&entry, body.data() + tableStart + i * sizeof entry, sizeof entry);
        const std::size_t length = strnlen(entry.level, sizeof entry.level);
        if (length == 0 || length == sizeof entry.level || entry.offset > tableStart ||
            entry.size > tableStart - entry.offset)
            return "its table of images is damaged";
        images.push_back(LibraryImage{std::string(entry.level, length), entry.offset, entry.size});
    }
    return {};
}

std::string writeLibraryFile(const std::string& path, const std::vector<ImageSource>& images,
                             const std::string& cacheKey) {
    std::string body;
    std::vector<LibraryImage> table;
    for (const ImageSource& source : images) {
        std::optional<std::string> image = support::readFile(source.path);
        if (!image) return "cannot read " + source.path;
        if (std::string reason = checkKernelElf(*image); !reason.empty()) return source.path + " is refused: " + reason;
        table.push_back(LibraryImage{source.level, body.size(), image->size()});
        body += *image;
    }
    if (std::string reason = appendImageTable(body, table); !reason.empty()) return reason;
    Trailer trailer{};
    trailer.imageSize = body.size();
    storeKey(trailer.cacheKey, cacheKey);
    trailer.version = kVersion;
    trailer.trailerSize = sizeof(Trailer);
    std::memcpy(trailer.magic, kMagic, sizeof kMagic);
    const std::string digest = digestOf(body, trailer);
    std::memcpy(trailer.digest, digest.data(), sizeof trailer.digest);
    body.append(reinterpret_cast<const char*>(&trailer), sizeof trailer);
    return support::writeFile(path, body) ? std::string() : "cannot write " + path;
}

std::string sealLibraryFile(const std::string& path, const std::string& cacheKey, const std::string& level) {
    return writeLibraryFile(path, {ImageSource{level.empty() ? baselineLevel() : level, path}}, cacheKey);
}

std::string appleLibraryDescription(std::string_view bytes) {
    // The first bytes of a .metallib that Apple's metallib tool wrote.
    if (!bytes.starts_with("MTLB")) return {};
    return "a macOS metallib (Apple's format, which begins with MTLB); rebuild it from its .metal sources with "
           "metalcpu's metal and metallib tools (or metal_add_library())";
}

std::string checkLibraryFile(std::string_view file, const std::string& cacheKey, std::vector<LibraryImage>* images) {
    if (file.empty()) return "it is empty";
    // A library a Mac's tools built (Apple's container of AIR bitcode) is the likeliest
    // foreign file: a project that ships its prebuilt default.metallib.
    if (std::string apple = appleLibraryDescription(file); !apple.empty()) return "it is " + apple;
    Trailer trailer{};
    if (file.size() >= sizeof trailer) std::memcpy(&trailer, file.data() + file.size() - sizeof trailer, sizeof trailer);
    if (file.size() < sizeof trailer || std::memcmp(trailer.magic, kMagic, sizeof kMagic) != 0)
        return "it does not end with a metalcpu library trailer: truncated, or not built by this metalcpu's "
               "metal or metallib tool (rebuild it)";
    if ((trailer.version != kVersion && trailer.version != kSingleImageVersion) || trailer.trailerSize != sizeof trailer)
        return "it was built by another metalcpu (library file version " + std::to_string(trailer.version) +
               "; rebuild it)";
    if (trailer.imageSize != file.size() - sizeof trailer)
        return "it has " + std::to_string(file.size()) + " bytes, but " +
               std::to_string(trailer.imageSize + sizeof trailer) + " were written (truncated or extended)";
    if (!cacheKey.empty()) {
        char expected[32];
        storeKey(expected, cacheKey);
        if (std::memcmp(expected, trailer.cacheKey, sizeof expected) != 0)
            return "it was built for another source (cache key " +
                   std::string(trailer.cacheKey, strnlen(trailer.cacheKey, sizeof trailer.cacheKey)) + ")";
    }
    const std::string_view body = file.substr(0, trailer.imageSize);
    if (digestOf(body, trailer) != std::string_view(trailer.digest, sizeof trailer.digest))
        return "its contents do not match the hash written when it was built (damaged)";
    std::vector<LibraryImage> table;
    if (trailer.version == kSingleImageVersion) table.push_back(LibraryImage{baselineLevel(), 0, body.size()});
    else if (std::string reason = readImageTable(body, table); !reason.empty()) return reason;
    for (const LibraryImage& image : table) {
        std::string reason = checkKernelElf(body.substr(image.offset, image.size));
        if (!reason.empty()) return table.size() == 1 ? reason : "its " + image.level + " image: " + reason;
    }
    if (images) *images = std::move(table);
    return {};
}

const LibraryImage* selectImage(const std::vector<LibraryImage>& images, std::string* error) {
    const std::vector<std::string>& levels = knownLevels();
    const LibraryImage* best = nullptr;
    std::ptrdiff_t bestRank = -1;
    for (const LibraryImage& image : images) {
        const std::ptrdiff_t rank = std::find(levels.begin(), levels.end(), image.level) - levels.begin();
        if (cpuRuns(image.level) && rank > bestRank) {
            best = &image;
            bestRank = rank;
        }
    }
    if (best) return best;
    std::string needed;
    for (std::size_t i = 0; i < images.size(); ++i)
        needed += (i == 0 ? "" : i + 1 == images.size() ? " or " : ", ") + images[i].level;
    *error = "it holds code for " + needed + " only, which this CPU cannot run (it runs up to " + hostLevel() +
             (support::config().kernelIsa.empty() ? std::string() : ", as METALCPU_KERNEL_ISA allows") +
             "); rebuild it with the metal tool's default levels or -march=" + hostLevel();
    return nullptr;
}

int readVerifiedLibrary(const std::string& path, const std::string& cacheKey, std::string* error, std::string* digest,
                        bool* unavailable, std::string* level) {
    bool shortOf = false;
    if (!unavailable) unavailable = &shortOf;
    *unavailable = false;
    // A cache entry is reached without following a link, and only its owner may write it.
    // O_NONBLOCK: opening a FIFO (planted, or named by mistake) must not wait for a writer.
    int file = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | (cacheKey.empty() ? 0 : O_NOFOLLOW));
    if (file < 0) {
        *unavailable = shortOfResources(errno);
        *error = errno == ELOOP ? "it is a symbolic link" : "cannot open it: " + std::string(std::strerror(errno));
        return -1;
    }
    struct stat info {};
    std::string reason = fstat(file, &info) != 0                 ? "cannot inspect it"
                         : !S_ISREG(info.st_mode)                 ? "it is not a regular file"
                         : !cacheKey.empty()                      ? support::untrustedFile(path, info)
                                                                  : std::string();
    if (reason.empty() && static_cast<std::uint64_t>(info.st_size) > kMaxLibraryBytes)
        reason = "it is larger than any kernel library (" + std::to_string(info.st_size) + " bytes)";
    int memory = -1;
    if (reason.empty() && info.st_size == 0) reason = "it is empty";
    if (reason.empty() && (memory = createMemoryFile(path)) < 0) {
        reason = "cannot create a memory file to load it from: " + std::string(std::strerror(errno));
        *unavailable = true;
    }
    std::string checkedDigest, checkedLevel;
    if (reason.empty())
        reason = copyAndCheck(file, memory, static_cast<std::uint64_t>(info.st_size), cacheKey, &checkedDigest,
                              &checkedLevel, *unavailable);
    // Sealed, the bytes just checked are the bytes the loader maps, whatever happens to the file.
    if (reason.empty() &&
        fcntl(memory, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
        reason = "cannot seal the memory file it is loaded from";
        *unavailable = true;
    }
    close(file);
    if (!reason.empty()) {
        if (memory >= 0) close(memory);
        *error = reason;
        return -1;
    }
    if (digest) *digest = std::move(checkedDigest);
    if (level) *level = std::move(checkedLevel);
    return memory;
}

} // namespace metalcpu::jit
