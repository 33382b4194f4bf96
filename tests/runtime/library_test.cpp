#include "metal_test.h"
#include "support/config.h"

#include <cstdlib>
#include <fstream>

namespace metalcpu::testing {
namespace {

using LibraryTest = MetalTest;

const char* const kTwoKernels = R"(
#include <metal_stdlib>
using namespace metal;
kernel void first(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 1.0f; }
kernel void second(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 2.0f; }
float helper(float x) { return x * 2.0f; }
)";

NS::String* string(const char* text) { return NS::String::string(text, NS::UTF8StringEncoding); }

// Test that a library compiled from source lists its kernels, and only its kernels.
TEST_F(LibraryTest, FunctionNamesListKernels) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, &error);
    ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    NS::Array* names = library->functionNames();
    ASSERT_EQ(names->count(), 2u);
    EXPECT_EQ(text(names->object<NS::String>(0)), "first");
    EXPECT_EQ(text(names->object<NS::String>(1)), "second");
    MTL::Function* function = library->newFunction(string("second"));
    ASSERT_NE(function, nullptr);
    EXPECT_EQ(text(function->name()), "second");
    EXPECT_EQ(function->functionType(), MTL::FunctionTypeKernel);
    function->release();
    library->release();
}

// Test that an unknown function name gives nullptr (Metal gives no error either).
TEST_F(LibraryTest, UnknownFunctionIsNull) {
    MTL::Library* library = device_->newLibrary(string(kTwoKernels), nullptr, nullptr);
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(library->newFunction(string("helper")), nullptr);
    EXPECT_EQ(library->newFunction(string("nope")), nullptr);
    EXPECT_EQ(library->newFunction(nullptr), nullptr);
    library->release();
}

// Test that a compile error gives nullptr and an NS::Error pointing at program_source:LINE:COL.
TEST_F(LibraryTest, CompileErrorPointsAtProgramSource) {
    const char* source = "#include <metal_stdlib>\n"
                         "using namespace metal;\n"
                         "kernel void broken(device float* out [[buffer(0)]]) {\n"
                         "    out[0] = undefined_name;\n"
                         "}\n";
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(string(source), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    std::string description = text(error->localizedDescription());
    EXPECT_NE(description.find("program_source:4:14"), std::string::npos) << description;
    EXPECT_NE(description.find("undefined_name"), std::string::npos) << description;
    EXPECT_EQ(description.find(".cpp"), std::string::npos) << "names a generated file: " << description;
    EXPECT_EQ(error->code(), MTL::LibraryErrorCompileFailure);
}

// Test that a syntax error in a kernel signature is reported, not a crash.
TEST_F(LibraryTest, SyntaxErrorIsReported) {
    NS::Error* error = nullptr;
    MTL::Library* library =
        device_->newLibrary(string("kernel void f(device float* out [[buffer(0)]] {"), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("program_source:1:"), std::string::npos)
        << text(error->localizedDescription());
}

// Test that kernels cannot include host headers.
TEST_F(LibraryTest, HostHeadersAreNotAvailable) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        string("#include <stdio.h>\nkernel void f(device int* out [[buffer(0)]]) { out[0] = 1; }\n"), nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("stdio.h"), std::string::npos);
}

// Test that preprocessor macros from CompileOptions reach the kernel.
TEST_F(LibraryTest, CompileOptionsMacros) {
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    NS::Object* keys[] = {string("SCALE")};
    NS::Object* values[] = {NS::Number::number(3)};
    options->setPreprocessorMacros(NS::Dictionary::dictionary(values, keys, 1));
    EXPECT_TRUE(options->fastMathEnabled());
    options->setFastMathEnabled(false);
    EXPECT_EQ(options->mathMode(), MTL::MathModeSafe);
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(
        string("kernel void f(device int* out [[buffer(0)]]) { out[0] = SCALE * 7; }"), options, &error);
    ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    MTL::Function* function = library->newFunction(string("f"));
    MTL::ComputePipelineState* pipeline = device_->newComputePipelineState(function, &error);
    MTL::Buffer* out = device_->newBuffer(4, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(out, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    EXPECT_EQ(*static_cast<int*>(out->contents()), 21);
    out->release();
    pipeline->release();
    function->release();
    library->release();
    options->release();
}

// Test that a missing library file is nullptr plus an error, and a non-library file too.
TEST_F(LibraryTest, BadLibraryFiles) {
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLibrary(string("/nonexistent/x.metallib"), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFileNotFound);
    std::string path = ::testing::TempDir() + "/not_a_library.metallib";
    std::ofstream(path) << "hello";
    error = nullptr;
    EXPECT_EQ(device_->newLibrary(NS::URL::fileURLWithPath(string(path.c_str())), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("Invalid library file"), std::string::npos);
}

// Test that newDefaultLibrary honours METALCPU_DEFAULT_LIBRARY and fails cleanly without a file.
TEST_F(LibraryTest, DefaultLibraryLookup) {
    setenv("METALCPU_DEFAULT_LIBRARY", "/nonexistent/default.metallib", 1);
    metalcpu::support::reloadConfig();
    EXPECT_EQ(device_->newDefaultLibrary(), nullptr);
    unsetenv("METALCPU_DEFAULT_LIBRARY");
    metalcpu::support::reloadConfig();
}

} // namespace
} // namespace metalcpu::testing
