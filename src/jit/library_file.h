#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

/// A kernel library file (.metallib, or a cache entry) holds one or more images — shared
/// objects the linker wrote, each for an instruction-set level (isa.h) — then a table of
/// them and a trailer that metalcpu appends when it publishes the file: the cache key it was
/// built for and a content hash (docs/kernel-abi.md, "The library file"). The loader takes
/// the best image this CPU runs into a memory file of its own and maps only that.

/// One image of a library file.
struct LibraryImage {
    std::string level;        ///< the instruction-set level its code needs (isa.h)
    std::uint64_t offset = 0; ///< where it starts in the file
    std::uint64_t size = 0;
};

/// One image to write: the shared object at `path`, compiled for `level`.
struct ImageSource {
    std::string level;
    std::string path;
};

/// Appends to `body` the table of `images` (their levels, offsets and sizes in `body`),
/// which a library file and an .air hold after their images (object_file.h). Returns what is
/// wrong (no image, too many, a level's name too long), or empty.
std::string appendImageTable(std::string& body, const std::vector<LibraryImage>& images);
/// The table of images at the end of `body`, appended to `images`; what is wrong, or empty.
std::string readImageTable(std::string_view body, std::vector<LibraryImage>& images);

/// Writes the library file `path` from `images` (best last, by convention), after checking
/// each ELF image (elf_check.h); `cacheKey` is empty for libraries the tools build. Returns
/// what is wrong, or empty on success.
std::string writeLibraryFile(const std::string& path, const std::vector<ImageSource>& images,
                             const std::string& cacheKey = {});

/// Makes the shared object the linker just wrote at `path`, compiled for `level` (default:
/// the baseline), a library file of one image.
std::string sealLibraryFile(const std::string& path, const std::string& cacheKey = {}, const std::string& level = {});

/// What `bytes` (a file's start is enough) is when a Mac's tools built it — a .metallib of
/// Apple's (it begins with MTLB) — and how to rebuild it, after "it is "; empty for any other
/// file. The loader and the linker (object_file.h) both refuse such a file in these words.
std::string appleLibraryDescription(std::string_view bytes);

/// Checks a whole library file: the trailer (size, magic, version, hash, and `cacheKey`
/// when one is expected), its table of images and each image's ELF. Returns what is wrong,
/// or empty; `images`, when given, receives the table (a version-1 file, of one image
/// without a level, has one baseline image).
std::string checkLibraryFile(std::string_view file, const std::string& cacheKey = {},
                             std::vector<LibraryImage>* images = nullptr);

/// The image of `images` this CPU should run: the best level it runs (isa.h, cpuRuns()).
/// nullptr when it runs none, with the reason in `error`, naming the levels the file has.
const LibraryImage* selectImage(const std::vector<LibraryImage>& images, std::string* error);

/// Reads the library at `path` into a sealed memory file (memfd: nobody can change it
/// afterwards), checks it with checkLibraryFile() and keeps in it the image selectImage()
/// takes, alone. With `cacheKey` the file is a cache
/// entry and must also be a regular file of this user that no one else can write, reached
/// without a symbolic link. Returns the memory file's descriptor, or -1 with the reason in
/// `error`; `digest`, when given, receives the content hash the file was sealed with, and
/// `level` the level of the image kept.
/// `unavailable`, when given, says whether a failure was this process's for now (out of
/// descriptors or memory), not the file's: such a file may well be sound.
int readVerifiedLibrary(const std::string& path, const std::string& cacheKey, std::string* error,
                        std::string* digest = nullptr, bool* unavailable = nullptr, std::string* level = nullptr);

} // namespace metalcpu::jit
