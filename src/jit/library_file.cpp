#include "jit/library_file.h"

#include "jit/elf_check.h"
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
/// The first bytes of a .metallib that Apple's metallib tool wrote.
constexpr std::string_view kAppleMagic = "MTLB";
constexpr std::uint32_t kVersion = 1;
/// Far more than any kernel library; a bound on what a damaged or planted file makes us read.
constexpr std::uint64_t kMaxLibraryBytes = std::uint64_t(1) << 30;

/// The last bytes of every kernel library file, little-endian as the machine.
struct Trailer {
    std::uint64_t imageSize; ///< the bytes before the trailer: the linker's output
    char cacheKey[32];       ///< the cache key (hex) it was built for; zeros when the tools built it
    char digest[32];         ///< support::Hasher (hex) of the image and the fields above
    std::uint32_t version;
    std::uint32_t trailerSize;
    char magic[8];
};
static_assert(sizeof(Trailer) == 88, "the trailer is a file format");

std::string digestOf(std::string_view image, const Trailer& trailer) {
    return support::Hasher()
        .add(image)
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

/// Copies `size` bytes of `from` into the memory file `to` and checks them there; on success
/// `digest` is the content hash the trailer holds. `unavailable` is set when this process,
/// not the file, is at fault.
std::string copyAndCheck(int from, int to, std::uint64_t size, const std::string& cacheKey, std::string* digest,
                         bool& unavailable) {
    unavailable = true;
    if (ftruncate(to, static_cast<off_t>(size)) != 0) return "cannot make a memory file of its size";
    void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, to, 0);
    if (mapped == MAP_FAILED) return "cannot map a memory file of its size";
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
    std::string reason = done == size ? checkLibraryFile(std::string_view(bytes, size), cacheKey)
                                      : "it changed while it was read";
    if (reason.empty()) {
        Trailer trailer{};
        std::memcpy(&trailer, bytes + size - sizeof trailer, sizeof trailer);
        digest->assign(trailer.digest, sizeof trailer.digest);
    }
    munmap(mapped, size);
    return reason;
}

} // namespace

std::string sealLibraryFile(const std::string& path, const std::string& cacheKey) {
    std::optional<std::string> image = support::readFile(path);
    if (!image) return "cannot read " + path;
    if (std::string reason = checkKernelElf(*image); !reason.empty()) return path + " is refused: " + reason;
    Trailer trailer{};
    trailer.imageSize = image->size();
    storeKey(trailer.cacheKey, cacheKey);
    trailer.version = kVersion;
    trailer.trailerSize = sizeof(Trailer);
    std::memcpy(trailer.magic, kMagic, sizeof kMagic);
    const std::string digest = digestOf(*image, trailer);
    std::memcpy(trailer.digest, digest.data(), sizeof trailer.digest);
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out.write(reinterpret_cast<const char*>(&trailer), sizeof trailer);
    out.close();
    return out ? std::string() : "cannot write " + path;
}

std::string checkLibraryFile(std::string_view file, const std::string& cacheKey) {
    if (file.empty()) return "it is empty";
    // A library a Mac's tools built (Apple's container of AIR bitcode) is the likeliest
    // foreign file: a project that ships its prebuilt default.metallib.
    if (file.starts_with(kAppleMagic))
        return "it is a macOS metallib (Apple's format, which begins with MTLB); rebuild it from its .metal sources "
               "with metalcpu's metal and metallib tools (or metal_add_library())";
    Trailer trailer{};
    if (file.size() >= sizeof trailer) std::memcpy(&trailer, file.data() + file.size() - sizeof trailer, sizeof trailer);
    if (file.size() < sizeof trailer || std::memcmp(trailer.magic, kMagic, sizeof kMagic) != 0)
        return "it does not end with a metalcpu library trailer: truncated, or not built by this metalcpu's "
               "metal or metallib tool (rebuild it)";
    if (trailer.version != kVersion || trailer.trailerSize != sizeof trailer)
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
    const std::string_view image = file.substr(0, trailer.imageSize);
    if (digestOf(image, trailer) != std::string_view(trailer.digest, sizeof trailer.digest))
        return "its contents do not match the hash written when it was built (damaged)";
    return checkKernelElf(image);
}

int readVerifiedLibrary(const std::string& path, const std::string& cacheKey, std::string* error, std::string* digest,
                        bool* unavailable) {
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
    std::string checkedDigest;
    if (reason.empty())
        reason = copyAndCheck(file, memory, static_cast<std::uint64_t>(info.st_size), cacheKey, &checkedDigest,
                              *unavailable);
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
    return memory;
}

} // namespace metalcpu::jit
