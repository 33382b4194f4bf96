// The kernel library file: its trailer (library_file.h) and the checks of its ELF image
// (elf_check.h). Every damaged or foreign file is refused with a reason before anything of
// it is loaded, and a library that would run code as it loads is refused even when sealed.
#include "jit/elf_check.h"
#include "jit/isa.h"
#include "jit/kernel_library.h"
#include "jit/library_file.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/hash.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace metalcpu::jit {
namespace {

using testing::ScopedEnvironmentVariable;

class LibraryFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        sound_ = support::readFile(METALCPU_SAFE_PROBE_METALLIB).value_or("");
        ASSERT_GT(sound_.size(), 1000u);
    }

    /// Writes `bytes` as a file and opens it as a kernel library; returns the error, which
    /// must be there.
    std::string refusal(const std::string& bytes, const std::string& cacheKey = {}) {
        const std::string path = (scratch_.path() / "library.metallib").string();
        EXPECT_TRUE(support::writeFileAtomically(path, bytes));
        std::string error;
        std::shared_ptr<KernelLibrary> library = KernelLibrary::open(path, &error, cacheKey);
        EXPECT_EQ(library, nullptr);
        EXPECT_EQ(error.rfind("Invalid library file " + path + " (", 0), 0u) << error;
        return error;
    }

    /// Builds C++ `source` into a shared object with the host compiler and `flags`; returns
    /// its path.
    std::string hostLibrary(const std::string& name, const std::string& source, std::vector<std::string> flags) {
        const std::string cpp = (scratch_.path() / (name + ".cpp")).string();
        const std::string library = (scratch_.path() / (name + ".so")).string();
        EXPECT_TRUE(support::writeFileAtomically(cpp, source));
        std::vector<std::string> argv = {HOST_CXX, "-shared", "-fPIC", "-O1", cpp, "-o", library};
        argv.insert(argv.end(), flags.begin(), flags.end());
        support::ProcessResult built = support::runProcess(argv);
        EXPECT_EQ(built.exitCode, 0) << built.output;
        return library;
    }

    /// The table of images of `file`, which must be sound.
    static std::vector<LibraryImage> imagesOf(const std::string& file) {
        std::vector<LibraryImage> images;
        EXPECT_EQ(checkLibraryFile(file, {}, &images), "");
        return images;
    }
    /// The first image of the sound library: a shared object as the linker wrote it.
    std::string firstImage() const {
        const std::vector<LibraryImage> images = imagesOf(sound_);
        return images.empty() ? std::string() : sound_.substr(images[0].offset, images[0].size);
    }

    /// Writes a library whose images are the sound library's first, tagged with `levels`.
    std::string libraryFor(const std::vector<std::string>& levels) {
        const std::string image = (scratch_.path() / "image.so").string();
        EXPECT_TRUE(support::writeFileAtomically(image, firstImage()));
        std::vector<ImageSource> sources;
        for (const std::string& level : levels) sources.push_back(ImageSource{level, image});
        const std::string path = (scratch_.path() / "levels.metallib").string();
        EXPECT_EQ(writeLibraryFile(path, sources), "");
        return path;
    }

    /// The level of the image the loader takes from the library at `path`, or its refusal.
    static std::string loadedLevel(const std::string& path) {
        std::string error, level;
        const int file = readVerifiedLibrary(path, {}, &error, nullptr, nullptr, &level);
        if (file < 0) return "refused: " + error;
        close(file);
        return level;
    }

    testing::TemporaryDirectory scratch_;
    std::string sound_; ///< a kernel library the metal tool built
};

// Test that a FIFO named as a library is refused at once: opening it used to wait for a
// writer for ever.
TEST_F(LibraryFileTest, FifoIsRefusedWithoutWaiting) {
    const std::string fifo = (scratch_.path() / "fifo.metallib").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::promise<std::pair<bool, std::string>> opened;
    std::thread opener([&] {
        std::string error;
        const bool loaded = KernelLibrary::open(fifo, &error) != nullptr;
        opened.set_value({loaded, error});
    });
    std::future<std::pair<bool, std::string>> result = opened.get_future();
    // Only a guard against hanging the suite: the open returns at once or never.
    if (result.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        ADD_FAILURE() << "opening a FIFO as a library waits for a writer";
        std::ofstream unblock(fifo); // lets the opener go on
    }
    opener.join();
    const auto [loaded, error] = result.get();
    EXPECT_FALSE(loaded);
    EXPECT_NE(error.find("it is not a regular file"), std::string::npos) << error;
}

// Test that opening a library the process has loaded and still uses returns that one: each
// load holds a descriptor and a copy of the code. Once released, it is loaded anew.
TEST_F(LibraryFileTest, ALibraryIsLoadedOnce) {
    std::string error;
    std::shared_ptr<KernelLibrary> first = KernelLibrary::open(METALCPU_SAFE_PROBE_METALLIB, &error);
    ASSERT_NE(first, nullptr) << error;
    const auto descriptors = [] {
        return std::distance(std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator());
    };
    const auto before = descriptors();
    std::vector<std::shared_ptr<KernelLibrary>> more;
    for (int i = 0; i < 50; ++i) more.push_back(KernelLibrary::open(METALCPU_SAFE_PROBE_METALLIB, &error));
    EXPECT_EQ(descriptors(), before);
    for (const auto& library : more) EXPECT_EQ(library, first);
    const std::string copy = (scratch_.path() / "copy.metallib").string();
    ASSERT_TRUE(support::writeFileAtomically(copy, sound_));
    EXPECT_NE(KernelLibrary::open(copy, &error), first) << "another file is another library";
}

// Test that libraries load while other threads start processes. A child forked while a load
// fills its memory file must not keep the file from being sealed: one that inherited a shared
// writable mapping of it would, for as long as it lives (a compiler's supervisor lives as long
// as its compile), and LibraryCacheConcurrencyTest.ThreadsCompilingNewSources failed so. With
// such a mapping 16 to 41 of these 800 loads were refused ("cannot seal the memory file"), in
// every run of this test, on two CPUs and on one.
TEST_F(LibraryFileTest, LoadsWhileOtherThreadsStartProcesses) {
    std::atomic<bool> done{false};
    std::vector<std::thread> starters;
    for (int t = 0; t < 4; ++t)
        starters.emplace_back([&done] {
            while (!done) support::runProcess({"sleep", "0.05"});
        });
    int refused = 0;
    std::string firstError;
    for (int i = 0; i < 800; ++i) {
        std::string error;
        const int memory = readVerifiedLibrary(METALCPU_SAFE_PROBE_METALLIB, {}, &error);
        if (memory >= 0) close(memory);
        else if (refused++ == 0) firstError = error;
    }
    done = true;
    for (std::thread& starter : starters) starter.join();
    EXPECT_EQ(refused, 0) << "loads refused, the first: " << firstError;
}

// Test that a library the tools built is sound, loads, and carries a trailer the checks
// accept; and that one sealed for a cache key is accepted for that key only.
TEST_F(LibraryFileTest, SoundLibrariesAreAccepted) {
    EXPECT_EQ(checkLibraryFile(sound_), "");
    std::string error;
    EXPECT_NE(KernelLibrary::open(METALCPU_SAFE_PROBE_METALLIB, &error), nullptr) << error;

    const std::string key(32, 'a');
    const std::string image = firstImage();
    const std::string path = (scratch_.path() / "keyed.metallib").string();
    ASSERT_TRUE(support::writeFileAtomically(path, image));
    ASSERT_EQ(sealLibraryFile(path, key), "");
    const std::string keyed = support::readFile(path).value_or("");
    EXPECT_EQ(checkLibraryFile(keyed, key), "");
    EXPECT_EQ(checkLibraryFile(keyed), "") << "a program may open a cache entry by path";
    EXPECT_NE(checkLibraryFile(keyed, std::string(32, 'b')).find("built for another source (cache key aaaa"),
              std::string::npos);
    EXPECT_NE(checkLibraryFile(sound_, key).find("built for another source"), std::string::npos);
}

// Test that damaged files are refused with what is wrong, and never reach the loader (a
// truncated library used to fault inside dlopen).
TEST_F(LibraryFileTest, DamagedFilesAreRefused) {
    std::string flipped = sound_;
    flipped[flipped.size() / 2] ^= 0x10;
    std::string flippedTrailer = sound_;
    flippedTrailer[flippedTrailer.size() - 40] ^= 0x01;
    const struct {
        const char* name;
        std::string bytes;
        const char* reason;
    } damaged[] = {
        {"empty", "", "it is empty"},
        {"truncated to half", sound_.substr(0, sound_.size() / 2), "does not end with a metalcpu library trailer"},
        {"one byte short", sound_.substr(1), "were written (truncated or extended)"},
        {"only the trailer", sound_.substr(sound_.size() - 88), "were written (truncated or extended)"},
        {"bit flipped", flipped, "do not match the hash written when it was built (damaged)"},
        {"trailer bit flipped", flippedTrailer, "do not match the hash"},
        {"text", "hello, world\n", "does not end with a metalcpu library trailer"},
        {"the linker's output, unsealed", firstImage(), "does not end with a metalcpu"},
    };
    for (const auto& file : damaged) {
        SCOPED_TRACE(file.name);
        EXPECT_NE(checkLibraryFile(file.bytes).find(file.reason), std::string::npos) << checkLibraryFile(file.bytes);
        EXPECT_NE(refusal(file.bytes).find(file.reason), std::string::npos) << refusal(file.bytes);
    }
}

// Test that ELF images that would fault in the loader are refused: headers and segments
// Test that a library Apple's tools built on a Mac (it begins with MTLB) is refused as one,
// with what to do instead, before anything of it is read as ELF.
TEST_F(LibraryFileTest, MacMetallibsAreRefusedAsSuch) {
    const std::string error = refusal(std::string("MTLB\x01\x80\x02\x00", 8) + sound_);
    EXPECT_NE(error.find("(it is a macOS metallib (Apple's format, which begins with MTLB); rebuild it from its .metal "
                         "sources with metalcpu's metal and metallib tools (or metal_add_library()))"),
              std::string::npos)
        << error;
    EXPECT_EQ(refusal("MTL" + sound_).find("macOS"), std::string::npos);
}

// must lie inside the file.
TEST_F(LibraryFileTest, TruncatedImagesAreRefused) {
    const std::string image = firstImage();
    EXPECT_EQ(checkKernelElf(image), "");
    EXPECT_EQ(checkKernelElf(image.substr(0, 40)), "it is not an ELF file");
    EXPECT_NE(checkKernelElf(image.substr(0, 100)).find("program headers lie outside the file"), std::string::npos);
    EXPECT_NE(checkKernelElf(image.substr(0, image.size() / 2)).find("lies outside the file"), std::string::npos);
    std::string otherMachine = image;
    otherMachine[18] = static_cast<char>(otherMachine[18] + 1); // e_machine
    EXPECT_EQ(checkKernelElf(otherMachine), "it is an ELF file for another machine");
}

// Test that shared objects that are not kernel libraries are refused for what they would
// do: load other libraries, run code as they load or unload, make the stack executable.
// None of the functions below may run: they trap.
TEST_F(LibraryFileTest, LoadTimeCodeIsRefused) {
    const std::vector<std::string> kernelFlags = {"-nostdlib", "-Wl,-z,defs"};
    const struct {
        const char* name;
        std::string library;
        const char* reason;
    } foreign[] = {
        {"an initialiser", hostLibrary("init", "static int f() { __builtin_trap(); }\nint x = f();\n", kernelFlags),
         "it runs code while it loads (DT_INIT_ARRAY"},
        {"a constructor function", hostLibrary("ctor", "__attribute__((constructor)) static void f() { __builtin_trap(); }\n", kernelFlags),
         "it runs code while it loads (DT_INIT_ARRAY"},
        {"a destructor function", hostLibrary("dtor", "__attribute__((destructor)) static void f() { __builtin_trap(); }\n", kernelFlags),
         "it runs code while it unloads (DT_FINI_ARRAY"},
        {"an IFUNC", hostLibrary("ifunc", "extern \"C\" { static void real() {}\n"
                                          "static void (*pick())() { __builtin_trap(); }\n"
                                          "void chosen() __attribute__((ifunc(\"pick\")));\n"
                                          "void* use = (void*)&chosen; }\n", kernelFlags),
         "it runs code while it loads (a"},
        {"a library of the host", hostLibrary("host", "#include <cstdio>\nvoid hello() { std::puts(\"hi\"); }\n", {}),
         "it needs other libraries loaded"},
        {"an executable stack", hostLibrary("stack", "int x;\n", {"-nostdlib", "-Wl,-z,execstack"}),
         "it asks for an executable stack"},
    };
    for (const auto& object : foreign) {
        SCOPED_TRACE(object.name);
        const std::string image = support::readFile(object.library).value_or("");
        EXPECT_NE(checkKernelElf(image).find(object.reason), std::string::npos) << checkKernelElf(image);
        // The tools and the cache refuse to seal it; unsealed, the loader refuses it anyway.
        EXPECT_NE(sealLibraryFile(object.library).find(object.reason), std::string::npos);
        EXPECT_NE(refusal(image).find("does not end with a metalcpu library trailer"), std::string::npos);
    }
}

// Test that a library the tools built carries an image per default level, and that a file
// written from images reads back with the same levels, places and bytes.
TEST_F(LibraryFileTest, ImagesRoundTrip) {
    const std::vector<LibraryImage> built = imagesOf(sound_);
    ASSERT_EQ(built.size(), defaultLevels().size());
    for (std::size_t i = 0; i < built.size(); ++i) EXPECT_EQ(built[i].level, defaultLevels()[i]);

    std::vector<ImageSource> sources;
    std::vector<std::string> bytes;
    for (std::size_t i = 0; i < built.size(); ++i) {
        bytes.push_back(sound_.substr(built[i].offset, built[i].size));
        const std::string path = (scratch_.path() / ("image" + std::to_string(i) + ".so")).string();
        ASSERT_TRUE(support::writeFileAtomically(path, bytes.back()));
        sources.push_back(ImageSource{"level-" + std::to_string(i), path});
    }
    const std::string path = (scratch_.path() / "round.metallib").string();
    ASSERT_EQ(writeLibraryFile(path, sources, std::string(32, 'k')), "");
    const std::string file = support::readFile(path).value_or("");
    std::vector<LibraryImage> read;
    ASSERT_EQ(checkLibraryFile(file, std::string(32, 'k'), &read), "");
    ASSERT_EQ(read.size(), sources.size());
    for (std::size_t i = 0; i < read.size(); ++i) {
        EXPECT_EQ(read[i].level, sources[i].level);
        EXPECT_EQ(file.substr(read[i].offset, read[i].size), bytes[i]);
    }
    EXPECT_NE(writeLibraryFile(path, {}), "") << "a library holds at least one image";
    EXPECT_NE(writeLibraryFile(path, {ImageSource{std::string(40, 'x'), sources[0].path}}).find("no level is named"),
              std::string::npos);
    // A damaged table is refused as one, not read past.
    std::string damaged = file;
    const std::size_t countAt = file.size() - 88 - 8;
    damaged[countAt] = 17;
    EXPECT_NE(checkLibraryFile(damaged).find("do not match the hash"), std::string::npos)
        << "the table is under the hash";
}

// Test that the loader takes the best image the CPU runs, whatever the order of the images,
// and that METALCPU_KERNEL_ISA (a CPU without AVX-512, say) makes it take a lower one: a
// library with an x86-64-v4 image still loads where v4 code cannot run.
TEST_F(LibraryFileTest, TheBestImageTheCpuRunsIsLoaded) {
    if (baselineLevel() != "x86-64") GTEST_SKIP() << "one level on this architecture (issue 14)";
    const std::string path = libraryFor({"x86-64", "x86-64-v4", "x86-64-v3"});
    {
        ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
        const std::string best = cpuRuns("x86-64-v4") ? "x86-64-v4" : cpuRuns("x86-64-v3") ? "x86-64-v3" : "x86-64";
        EXPECT_EQ(loadedLevel(path), best);
    }
    {
        ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", "x86-64-v3");
        EXPECT_EQ(loadedLevel(path), cpuRuns("x86-64-v3") ? "x86-64-v3" : "x86-64");
    }
    ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", "x86-64-v2");
    EXPECT_EQ(loadedLevel(path), "x86-64") << "no v2 image: the baseline";
    std::string error;
    std::shared_ptr<KernelLibrary> library = KernelLibrary::open(path, &error);
    ASSERT_NE(library, nullptr) << error;
    EXPECT_FALSE(library->kernelNames().empty());
}

// Test that a library with no image this CPU runs is refused before anything of it is
// loaded, naming the levels it needs, and the level this CPU runs: nothing executes an
// instruction the CPU lacks.
TEST_F(LibraryFileTest, NoImageThisCpuRunsIsRefusedByName) {
    if (baselineLevel() != "x86-64") GTEST_SKIP() << "one level on this architecture (issue 14)";
    {
        ScopedEnvironmentVariable ceiling("METALCPU_KERNEL_ISA", "x86-64-v3");
        const std::string error = refusal(support::readFile(libraryFor({"x86-64-v4"})).value_or(""));
        EXPECT_NE(error.find("(it holds code for x86-64-v4 only, which this CPU cannot run (it runs up to "), std::string::npos)
            << error;
        EXPECT_NE(error.find(", as METALCPU_KERNEL_ISA allows)"), std::string::npos) << error;
    }
    ScopedEnvironmentVariable unset("METALCPU_KERNEL_ISA", std::nullopt);
    // A level above any CPU's, as a newer metalcpu might write.
    const std::string error = refusal(support::readFile(libraryFor({"x86-64-v9", "x86-64-v10"})).value_or(""));
    EXPECT_NE(error.find("it holds code for x86-64-v9 or x86-64-v10 only, which this CPU cannot run (it runs up to " +
                         hostLevel() + "); rebuild it"),
              std::string::npos)
        << error;
}

// Test that a library file of version 1 — one image, then the trailer, as metalcpu wrote it
// before images had levels — still loads, as the baseline.
TEST_F(LibraryFileTest, SingleImageFilesStillLoad) {
    struct Trailer {
        std::uint64_t imageSize;
        char cacheKey[32];
        char digest[32];
        std::uint32_t version;
        std::uint32_t trailerSize;
        char magic[8];
    } trailer{};
    static_assert(sizeof(Trailer) == 88);
    std::string file = firstImage();
    trailer.imageSize = file.size();
    trailer.version = 1;
    trailer.trailerSize = sizeof trailer;
    std::memcpy(trailer.magic, "metalcpu", 8);
    const std::string digest = support::Hasher()
                                   .add(file)
                                   .add(trailer.imageSize)
                                   .add(std::string_view(trailer.cacheKey, sizeof trailer.cacheKey))
                                   .add(std::uint64_t(1))
                                   .hex();
    std::memcpy(trailer.digest, digest.data(), sizeof trailer.digest);
    file.append(reinterpret_cast<const char*>(&trailer), sizeof trailer);
    std::vector<LibraryImage> images;
    ASSERT_EQ(checkLibraryFile(file, {}, &images), "");
    ASSERT_EQ(images.size(), 1u);
    EXPECT_EQ(images[0].level, baselineLevel());
    const std::string path = (scratch_.path() / "version1.metallib").string();
    ASSERT_TRUE(support::writeFileAtomically(path, file));
    EXPECT_EQ(loadedLevel(path), baselineLevel());
}

} // namespace
} // namespace metalcpu::jit
