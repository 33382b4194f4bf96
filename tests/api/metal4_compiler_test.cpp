// MTL4::Compiler: libraries from a LibraryDescriptor, compute pipelines from library and
// specialized function descriptors with the pipeline descriptor's limits and shader
// validation, the synchronous completion-handler forms, and errors. Pipelines run on a
// classic queue (the Metal 4 queue is tested with the command model).
#include "foundation/test_support.h"
#include "runtime/metal_test.h"

#include <Metal/MTL4Compiler.hpp>
#include <Metal/MTL4CompilerTask.hpp>

#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char kSource[] = R"(
#include <metal_stdlib>
using namespace metal;

constant int factor [[function_constant(0)]];
constant int offset [[function_constant(1)]];

kernel void scaled(device int* out [[buffer(0)]], uint gid [[thread_position_in_grid]])
{
    out[gid] = int(gid) * factor + offset;
}

kernel void identity(device int* out [[buffer(0)]], uint gid [[thread_position_in_grid]])
{
    out[gid] = int(gid);
}
)";

NS::String* string(const char* text) { return NS::String::string(text, NS::UTF8StringEncoding); }

class Metal4CompilerTest : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        auto descriptor = NS::TransferPtr(MTL4::CompilerDescriptor::alloc()->init());
        descriptor->setLabel(string("offline"));
        NS::Error* error = nullptr;
        compiler_ = NS::TransferPtr(device_->newCompiler(descriptor.get(), &error));
        ASSERT_NE(compiler_.get(), nullptr);
        library_ = NS::TransferPtr(compiler_->newLibrary(libraryDescriptor(kSource).get(), &error));
        ASSERT_NE(library_.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);
    }

    static NS::SharedPtr<MTL4::LibraryDescriptor> libraryDescriptor(const char* source) {
        auto descriptor = NS::TransferPtr(MTL4::LibraryDescriptor::alloc()->init());
        descriptor->setSource(string(source));
        descriptor->setName(string("kernels"));
        return descriptor;
    }
    NS::SharedPtr<MTL4::LibraryFunctionDescriptor> function(const char* name) {
        auto descriptor = NS::TransferPtr(MTL4::LibraryFunctionDescriptor::alloc()->init());
        descriptor->setLibrary(library_.get());
        descriptor->setName(string(name));
        return descriptor;
    }
    /// `scaled` with its two constants.
    NS::SharedPtr<MTL4::SpecializedFunctionDescriptor> specialized(int factor, int offset) {
        auto values = NS::TransferPtr(MTL::FunctionConstantValues::alloc()->init());
        values->setConstantValue(&factor, MTL::DataTypeInt, NS::UInteger(0));
        values->setConstantValue(&offset, MTL::DataTypeInt, string("offset"));
        auto descriptor = NS::TransferPtr(MTL4::SpecializedFunctionDescriptor::alloc()->init());
        descriptor->setFunctionDescriptor(function("scaled").get());
        descriptor->setConstantValues(values.get());
        descriptor->setSpecializedName(string("scaled_specialized"));
        return descriptor;
    }
    static NS::SharedPtr<MTL4::ComputePipelineDescriptor> pipelineDescriptor(const MTL4::FunctionDescriptor* function) {
        auto descriptor = NS::TransferPtr(MTL4::ComputePipelineDescriptor::alloc()->init());
        descriptor->setComputeFunctionDescriptor(function);
        return descriptor;
    }
    /// What `pipeline` (taking `device int*` at buffer 0) writes over `count` threads in
    /// groups of `group`.
    std::vector<int> run(MTL::ComputePipelineState* pipeline, unsigned count, unsigned group) {
        auto out = NS::TransferPtr(device_->newBuffer(count * sizeof(int), MTL::ResourceStorageModeShared));
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(pipeline);
        encoder->setBuffer(out.get(), 0, 0);
        encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        if (MetalTest::run(commandBuffer) != MTL::CommandBufferStatusCompleted) {
            ADD_FAILURE() << text(commandBuffer->error()->localizedDescription());
            return {};
        }
        const int* values = static_cast<const int*>(out->contents());
        return std::vector<int>(values, values + count);
    }

    NS::SharedPtr<MTL4::Compiler> compiler_;
    NS::SharedPtr<MTL::Library> library_;
};

// Test that the compiler knows its device and label, and builds a library from the
// descriptor's source, named by the descriptor.
TEST_F(Metal4CompilerTest, LibraryFromDescriptor) {
    EXPECT_EQ(compiler_->device(), device_);
    EXPECT_EQ(text(compiler_->label()), "offline");
    EXPECT_EQ(compiler_->pipelineDataSetSerializer(), nullptr);
    EXPECT_EQ(text(library_->label()), "kernels");
    NS::Array* names = library_->functionNames();
    ASSERT_NE(names, nullptr);
    EXPECT_EQ(names->count(), 2u);

    NS::Error* error = nullptr;
    EXPECT_EQ(compiler_->newLibrary(libraryDescriptor("kernel void broken(device int* out) { out[0] = ; }").get(),
                                    &error),
              nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorCompileFailure);
}

// Test that a SpecializedFunctionDescriptor bakes its constants into the pipeline (two
// specialisations of one kernel give different results), at threadgroup sizes of 1, a
// non-multiple of 32 and one that does not divide the grid.
TEST_F(Metal4CompilerTest, SpecializedFunctionDescriptors) {
    for (auto [factor, offset] : {std::pair{3, 1}, std::pair{-2, 100}}) {
        NS::Error* error = nullptr;
        auto pipeline = NS::TransferPtr(
            compiler_->newComputePipelineState(pipelineDescriptor(specialized(factor, offset).get()).get(), nullptr, &error));
        ASSERT_NE(pipeline.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);
        for (unsigned group : {1u, 7u, 33u}) {
            std::vector<int> expected(100);
            for (int i = 0; i < 100; ++i) expected[static_cast<std::size_t>(i)] = i * factor + offset;
            EXPECT_EQ(run(pipeline.get(), 100, group), expected) << factor << " " << group;
        }
    }
}

// Test that a LibraryFunctionDescriptor names a plain kernel, and that the descriptor's
// label, thread limits and shader-validation option reach the pipeline.
TEST_F(Metal4CompilerTest, LimitsLabelAndValidation) {
    auto descriptor = pipelineDescriptor(function("identity").get());
    descriptor->setLabel(string("identity pipeline"));
    descriptor->setMaxTotalThreadsPerThreadgroup(64);
    NS::Error* error = nullptr;
    auto limited = NS::TransferPtr(compiler_->newComputePipelineState(descriptor.get(), nullptr, &error));
    ASSERT_NE(limited.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);
    EXPECT_EQ(limited->maxTotalThreadsPerThreadgroup(), 64u);
    EXPECT_EQ(text(limited->label()), "identity pipeline");
    std::vector<int> expected(50);
    for (int i = 0; i < 50; ++i) expected[static_cast<std::size_t>(i)] = i;
    EXPECT_EQ(run(limited.get(), 50, 9), expected);

    descriptor->setRequiredThreadsPerThreadgroup(MTL::Size(8, 2, 1));
    auto required = NS::TransferPtr(compiler_->newComputePipelineState(descriptor.get(), nullptr, &error));
    ASSERT_NE(required.get(), nullptr);
    EXPECT_EQ(required->maxTotalThreadsPerThreadgroup(), 16u);

    for (MTL::ShaderValidation validation : {MTL::ShaderValidationEnabled, MTL::ShaderValidationDisabled}) {
        auto options = NS::TransferPtr(MTL4::PipelineOptions::alloc()->init());
        options->setShaderValidation(validation);
        auto validated = pipelineDescriptor(function("identity").get());
        validated->setOptions(options.get());
        auto pipeline = NS::TransferPtr(compiler_->newComputePipelineState(validated.get(), nullptr, &error));
        ASSERT_NE(pipeline.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);
        EXPECT_EQ(pipeline->shaderValidation(), validation);
        EXPECT_EQ(run(pipeline.get(), 50, 32), expected);
    }
}

// Test that the completion-handler forms call their handler before returning and return a
// finished task of the compiler, passing errors to the handler.
TEST_F(Metal4CompilerTest, CompletionHandlersRunBeforeReturn) {
    bool called = false;
    MTL4::CompilerTask* task = compiler_->newLibrary(libraryDescriptor(kSource).get(), [&](MTL::Library* library, NS::Error* error) {
        called = true;
        EXPECT_NE(library, nullptr);
        EXPECT_EQ(error, nullptr);
    });
    EXPECT_TRUE(called);
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->status(), MTL4::CompilerTaskStatusFinished);
    EXPECT_EQ(task->compiler(), compiler_.get());
    task->waitUntilCompleted();
    task->release();

    called = false;
    task = compiler_->newComputePipelineState(pipelineDescriptor(specialized(2, 0).get()).get(), nullptr,
                                              [&](MTL::ComputePipelineState* pipeline, NS::Error* error) {
                                                  called = true;
                                                  EXPECT_NE(pipeline, nullptr);
                                                  EXPECT_EQ(error, nullptr);
                                              });
    EXPECT_TRUE(called);
    ASSERT_NE(task, nullptr);
    task->release();

    called = false;
    task = compiler_->newComputePipelineState(pipelineDescriptor(function("missing").get()).get(), nullptr,
                                              [&](MTL::ComputePipelineState* pipeline, NS::Error* error) {
                                                  called = true;
                                                  EXPECT_EQ(pipeline, nullptr);
                                                  ASSERT_NE(error, nullptr);
                                                  EXPECT_NE(text(error->localizedDescription()).find("'missing'"),
                                                            std::string::npos);
                                              });
    EXPECT_TRUE(called);
    ASSERT_NE(task, nullptr);
    task->release();
}

// Test that pipelines the compiler cannot build fail with an error saying why.
// Test that a LibraryDescriptor without options compiles at Metal 4.0, Apple's newest-version
// default, so that <metal_tensor> is there (__METAL_VERSION__ 400), while options that ask for
// 3.2 keep it out with one error, at the kernel's own #include line, naming the version to ask
// for (it used to be three errors inside the prelude's include chain).
TEST_F(Metal4CompilerTest, LanguageVersionDefaultsToTheNewest) {
    const char* tensorSource = "#include <metal_stdlib>\n"
                               "#include <metal_tensor>\n"
                               "using namespace metal;\n"
                               "kernel void k(device half* p [[buffer(0)]]) {\n"
                               "    static_assert(__METAL_VERSION__ == 400);\n"
                               "    auto t = tensor(p, dextents<int, 1>(4)); (void)t;\n"
                               "}\n";
    NS::Error* error = nullptr;
    auto library = NS::TransferPtr(compiler_->newLibrary(libraryDescriptor(tensorSource).get(), &error));
    EXPECT_NE(library.get(), nullptr) << text(error ? error->localizedDescription() : nullptr);

    auto descriptor = libraryDescriptor(tensorSource);
    auto options = NS::TransferPtr(MTL::CompileOptions::alloc()->init());
    options->setLanguageVersion(MTL::LanguageVersion3_2);
    descriptor->setOptions(options.get());
    error = nullptr;
    auto old = NS::TransferPtr(compiler_->newLibrary(descriptor.get(), &error));
    EXPECT_EQ(old.get(), nullptr);
    const std::string message = text(error ? error->localizedDescription() : nullptr);
    const std::string needs = "<metal_tensor> needs -std=metal4.0 (MTL::LanguageVersion4_0)";
    EXPECT_NE(message.find(needs), std::string::npos) << message;
    EXPECT_EQ(message.find("error: #error"), message.rfind("error: #error")) << "one error: " << message;
    EXPECT_NE(message.find("included from program_source:2"), std::string::npos) << message;
    EXPECT_EQ(message.find("kernel_prelude.h"), std::string::npos) << message;
}

TEST_F(Metal4CompilerTest, PipelineErrors) {
    const auto failure = [&](const MTL4::ComputePipelineDescriptor* descriptor) {
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* pipeline = compiler_->newComputePipelineState(descriptor, nullptr, &error);
        EXPECT_EQ(pipeline, nullptr);
        if (pipeline) pipeline->release();
        return error ? text(error->localizedDescription()) : std::string("(no error)");
    };
    EXPECT_NE(failure(nullptr).find("descriptor is nil"), std::string::npos);
    EXPECT_NE(failure(pipelineDescriptor(nullptr).get()).find("no compute function descriptor"), std::string::npos);
    EXPECT_NE(failure(pipelineDescriptor(function("missing").get()).get()).find("no function named 'missing'"),
              std::string::npos);
    auto nameless = NS::TransferPtr(MTL4::LibraryFunctionDescriptor::alloc()->init());
    nameless->setLibrary(library_.get());
    EXPECT_NE(failure(pipelineDescriptor(nameless.get()).get()).find("has no name"), std::string::npos);
    // A kernel with function constants needs a SpecializedFunctionDescriptor, and the error
    // says so in Metal 4's terms, not the classic API's Library::newFunction.
    const std::string unspecialized = failure(pipelineDescriptor(function("scaled").get()).get());
    EXPECT_NE(unspecialized.find("not specialized"), std::string::npos) << unspecialized;
    EXPECT_NE(unspecialized.find("MTL4::SpecializedFunctionDescriptor with setConstantValues"), std::string::npos)
        << unspecialized;
    EXPECT_EQ(unspecialized.find("Library::newFunction"), std::string::npos) << unspecialized;
}

METALCPU_NIL_TEST_BODY void messageNilCompiler() {
    ns::testing::LogCapture log;
    auto* compiler = ns::testing::nil<MTL4::Compiler>();
    NS::Error* error = nullptr;
    EXPECT_EQ(compiler->newLibrary(nullptr, &error), nullptr);
    EXPECT_EQ(compiler->newComputePipelineState(nullptr, nullptr, &error), nullptr);
    bool called = false;
    EXPECT_EQ(compiler->newComputePipelineState(nullptr, nullptr,
                                                [&](MTL::ComputePipelineState*, NS::Error*) { called = true; }),
              nullptr);
    EXPECT_FALSE(called);
    EXPECT_EQ(error, nullptr);
    EXPECT_EQ(compiler->device(), nullptr);
    EXPECT_EQ(ns::testing::nil<MTL4::CompilerTask>()->status(), MTL4::CompilerTaskStatusNone);
    EXPECT_EQ(log.text(), "");
}

// Test that compiler methods on nil do nothing, return zero and log nothing.
TEST(Metal4CompilerNilTest, NilReceivers) { messageNilCompiler(); }

} // namespace
} // namespace metalcpu::testing
