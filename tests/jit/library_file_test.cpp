// The kernel library file: its trailer (library_file.h) and the checks of its ELF image
// (elf_check.h). Every damaged or foreign file is refused with a reason before anything of
// it is loaded, and a library that would run code as it loads is refused even when sealed.
#include "jit/elf_check.h"
#include "jit/kernel_library.h"
#include "jit/library_file.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/stat.h>
#include <thread>

namespace metalcpu::jit {
namespace {

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

// Test that a library the tools built is sound, loads, and carries a trailer the checks
// accept; and that one sealed for a cache key is accepted for that key only.
TEST_F(LibraryFileTest, SoundLibrariesAreAccepted) {
    EXPECT_EQ(checkLibraryFile(sound_), "");
    std::string error;
    EXPECT_NE(KernelLibrary::open(METALCPU_SAFE_PROBE_METALLIB, &error), nullptr) << error;

    const std::string key(32, 'a');
    const std::string image = sound_.substr(0, sound_.size() - 88);
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
        {"the linker's output, unsealed", sound_.substr(0, sound_.size() - 88), "does not end with a metalcpu"},
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
    const std::string image = sound_.substr(0, sound_.size() - 88);
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

} // namespace
} // namespace metalcpu::jit
