// newDefaultLibrary()'s search order, from a program with a default.metallib beside it
// (metal_add_library(... OUTPUT_NAME default) in this directory): METALCPU_DEFAULT_LIBRARY,
// then beside the executable, then the working directory (src/runtime/library.cpp).
#include "runtime/metal_test.h"
#include "scoped_state.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace metalcpu::testing {
namespace {

using DefaultLibraryTest = MetalTest;

NS::String* string(const char* text) { return NS::String::string(text, NS::UTF8StringEncoding); }

/// The names of `library`'s functions.
std::vector<std::string> functionNames(MTL::Library* library) {
    std::vector<std::string> names;
    NS::Array* array = library->functionNames();
    for (NS::UInteger i = 0; i < array->count(); ++i) names.push_back(text(array->object<NS::String>(i)));
    return names;
}

// Test that default.metallib beside the executable is found, from any working directory.
TEST_F(DefaultLibraryTest, FoundBesideTheExecutable) {
    ASSERT_TRUE(std::filesystem::exists(executableDirectory() / "default.metallib"));
    ScopedEnvironmentVariable unset("METALCPU_DEFAULT_LIBRARY", std::nullopt);
    TemporaryDirectory elsewhere;
    ScopedWorkingDirectory cwd(elsewhere.path());
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newDefaultLibrary(NS::Bundle::mainBundle(), &error);
    ASSERT_NE(library, nullptr) << (error ? text(error->localizedDescription()) : "");
    EXPECT_EQ(functionNames(library), std::vector<std::string>{"beside_kernel"});
    EXPECT_EQ(runIntKernel(library, "beside_kernel", 12),
              (std::vector<int>{2, 7, 12, 17, 22, 27, 32, 37, 42, 47, 52, 57}));
    library->release();
}

// Test that the library beside the executable wins over one in the working directory.
TEST_F(DefaultLibraryTest, BesideTheExecutableBeforeWorkingDirectory) {
    ScopedEnvironmentVariable unset("METALCPU_DEFAULT_LIBRARY", std::nullopt);
    TemporaryDirectory directory;
    directory.copy(OTHER_METALLIB, "default.metallib");
    ScopedWorkingDirectory cwd(directory.path());
    MTL::Library* library = device_->newDefaultLibrary();
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(functionNames(library), std::vector<std::string>{"beside_kernel"});
    EXPECT_EQ(library->newFunction(string("file_kernel")), nullptr);
    library->release();
}

// Test that METALCPU_DEFAULT_LIBRARY wins over the library beside the executable.
TEST_F(DefaultLibraryTest, EnvironmentBeforeBesideTheExecutable) {
    ScopedEnvironmentVariable chosen("METALCPU_DEFAULT_LIBRARY", OTHER_METALLIB);
    MTL::Library* library = device_->newDefaultLibrary();
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(functionNames(library), std::vector<std::string>{"file_kernel"});
    EXPECT_EQ(runIntKernel(library, "file_kernel", 3), (std::vector<int>{17, 20, 23}));
    library->release();
}

} // namespace
} // namespace metalcpu::testing
