#include "jit/object_file.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

namespace metalcpu::jit {
namespace {

using Strings = std::vector<std::string>;

/// Objects made by the host compiler with the symbols `metal -c` gives kernels
/// (msl::kernelSymbol()), and archives of them made by `ar`.
class ObjectFileTest : public ::testing::Test {
protected:
    void SetUp() override { dir_ = support::makeTemporaryDirectory("metalcpu-object-test-"); }
    void TearDown() override { support::removeTree(dir_); }

    /// Compiles an object defining the kernel symbols `symbols` into `name`.
    void object(const std::string& name, const Strings& symbols, const std::string& flags = "-c") {
        std::string source;
        for (std::size_t i = 0; i < symbols.size(); ++i)
            source += "__attribute__((used)) char m" + std::to_string(i) + " __asm__(\"" + symbols[i] + "\") = 0;\n";
        ASSERT_TRUE(support::writeFileAtomically(dir_ + "/o.cpp", source));
        support::ProcessResult made = support::runProcess({HOST_CXX, flags, "-fPIC", "o.cpp", "-o", name}, dir_);
        ASSERT_EQ(made.exitCode, 0) << made.output;
    }
    void run(const Strings& argv) {
        support::ProcessResult done = support::runProcess(argv, dir_);
        ASSERT_EQ(done.exitCode, 0) << done.output;
    }
    std::string read(const std::string& name, std::optional<LinkInput>* input) {
        std::string error;
        *input = readLinkInput(dir_ + "/" + name, name, &error);
        return error;
    }

    std::string dir_;
};

// Test that an object's kernels are read from their symbols, names decoded, other symbols
// ignored.
TEST_F(ObjectFileTest, ReadsKernels) {
    object("a.air", {"metalcpu.kernel.alpha", "metalcpu.kernel.b$2dc", "unrelated"});
    std::optional<LinkInput> input;
    EXPECT_EQ(read("a.air", &input), "");
    ASSERT_TRUE(input);
    EXPECT_FALSE(input->archive);
    ASSERT_EQ(input->objects.size(), 1u);
    EXPECT_EQ(input->objects[0].name, "a.air");
    EXPECT_EQ(input->objects[0].kernels, (Strings{"alpha", "b-c"}));
}

// Test that every member of an archive is read, long names included, and that duplicates
// are named by kernel and by both files.
TEST_F(ObjectFileTest, ArchivesAndDuplicates) {
    object("a_member_with_a_long_name.air", {"metalcpu.kernel.alpha"});
    object("b.air", {"metalcpu.kernel.beta"});
    object("c.air", {"metalcpu.kernel.alpha", "metalcpu.kernel.gamma"});
    run({"ar", "rcs", "lib.a", "a_member_with_a_long_name.air", "b.air"});
    std::optional<LinkInput> archive, single;
    EXPECT_EQ(read("lib.a", &archive), "");
    EXPECT_EQ(read("c.air", &single), "");
    ASSERT_TRUE(archive && single);
    EXPECT_TRUE(archive->archive);
    ASSERT_EQ(archive->objects.size(), 2u);
    EXPECT_EQ(archive->objects[0].name, "lib.a(a_member_with_a_long_name.air)");
    EXPECT_EQ(archive->objects[1].name, "lib.a(b.air)");
    EXPECT_EQ(archive->objects[1].kernels, Strings{"beta"});
    std::vector<ObjectKernels> all = archive->objects;
    EXPECT_EQ(duplicateKernels(all), "");
    all.push_back(single->objects[0]);
    EXPECT_EQ(duplicateKernels(all), "kernel 'alpha' is defined in both lib.a(a_member_with_a_long_name.air) and c.air\n");
}

// Test that what metalcpu cannot link is refused saying what it is.
TEST_F(ObjectFileTest, RefusesWhatItCannotLink) {
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/apple.air", std::string("BC\xC0\xDE\x35\x14\x00\x00", 8)));
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/apple.metallib", "MTLB\x01\x80\x02\x00"));
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/k.metal", "kernel void k() {}\n"));
    // A member whose size runs past the end of the archive.
    auto field = [](std::string text, std::size_t width) { return text.append(width - text.size(), ' '); };
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/broken.a", "!<arch>\n" + field("b.air/", 16) + field("0", 12) +
                                                                     field("0", 6) + field("0", 6) + field("644", 8) +
                                                                     field("999999", 10) + "`\nELF"));
    object("lib.so", {"metalcpu.kernel.alpha"}, "-shared");
    object("b.air", {"metalcpu.kernel.beta"});
    run({"ar", "rcsT", "thin.a", "b.air"});
    const std::pair<const char*, const char*> cases[] = {
        {"apple.air", "apple.air is Apple's AIR (LLVM bitcode) from Apple's metal"},
        {"apple.metallib", "apple.metallib is a macOS metallib (Apple's format"},
        {"k.metal", "k.metal is not an .air object made by metalcpu's metal -c"},
        {"lib.so", "lib.so is a library"},
        {"thin.a", "thin.a is a thin archive"},
        {"broken.a", "broken.a is a damaged archive"},
        {"missing.air", "cannot read missing.air"},
    };
    for (const auto& [file, reason] : cases) {
        std::optional<LinkInput> input;
        const std::string error = read(file, &input);
        EXPECT_FALSE(input) << file;
        EXPECT_NE(error.find(reason), std::string::npos) << error;
    }
}

// Test that a .metallib Apple's tools built is refused by the linker in the loader's words
// (library_file.h): one check, one message, whichever tool meets the file.
TEST_F(ObjectFileTest, AppleMetallibsAreRefusedAsTheLoaderRefusesThem) {
    const std::string apple("MTLB\x01\x80\x02\x00", 8);
    ASSERT_TRUE(support::writeFileAtomically(dir_ + "/apple.metallib", apple));
    const std::string words = "a macOS metallib (Apple's format, which begins with MTLB); rebuild it from its .metal "
                              "sources with metalcpu's metal and metallib tools (or metal_add_library())";
    std::optional<LinkInput> input;
    EXPECT_EQ(read("apple.metallib", &input), "apple.metallib is " + words);
    EXPECT_FALSE(input);
    EXPECT_EQ(checkLibraryFile(apple), "it is " + words);
    EXPECT_EQ(appleLibraryDescription("MTL"), "");
}

} // namespace
} // namespace metalcpu::jit
