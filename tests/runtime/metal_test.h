#pragma once

// Shared helpers for tests that go through the public metal-cpp API.

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {

inline std::string text(NS::String* string) { return string ? string->utf8String() : ""; }

/// The pipeline (+1) of `function` with shader validation `validation`, labelled `label` when
/// not null; nullptr when there is none, with its error's text in `*why` when `why` is not
/// null. Fails no test: for tests whose pipeline may be refused, and the helpers below that
/// fail the test when it is.
inline MTL::ComputePipelineState* pipelineOf(MTL::Device* device, MTL::Function* function,
                                             MTL::ShaderValidation validation, std::string* why = nullptr,
                                             const char* label = nullptr) {
    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(function);
    descriptor->setShaderValidation(validation);
    if (label) descriptor->setLabel(NS::String::string(label, NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* made = device->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    descriptor->release();
    if (!made && why) *why = error ? text(error->localizedDescription()) : "(no error)";
    return made;
}

/// ShaderValidationEnabled or ShaderValidationDisabled.
inline MTL::ShaderValidation shaderValidation(bool validated) {
    return validated ? MTL::ShaderValidationEnabled : MTL::ShaderValidationDisabled;
}

/// A device, queue and autorelease pool for one test.
class MetalTest : public ::testing::Test {
protected:
    void SetUp() override {
        pool_ = NS::AutoreleasePool::alloc()->init();
        device_ = MTL::CreateSystemDefaultDevice();
        queue_ = device_->newCommandQueue();
    }
    void TearDown() override {
        queue_->release();
        device_->release();
        pool_->release();
    }

    /// Compiles `source` at run time and makes a pipeline for `kernel`; fails the test
    /// (and returns nullptr) when either step fails.
    MTL::ComputePipelineState* pipeline(const std::string& source, const char* kernel) {
        MTL::Library* library = compile(source);
        if (!library) return nullptr;
        MTL::ComputePipelineState* made = pipeline(library, kernel);
        library->release();
        return made;
    }

    /// Compiles `source` into a library (+1); fails the test (and returns nullptr) when it
    /// does not compile. Usable from SetUpTestSuite, to compile a suite's kernels once.
    static MTL::Library* compile(const std::string& source) {
        NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        NS::Error* error = nullptr;
        MTL::Library* library = device->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding),
                                                   nullptr, &error);
        if (!library)
            ADD_FAILURE() << "compile failed: " << (error ? error->localizedDescription()->utf8String() : "?");
        device->release();
        pool->release();
        return library;
    }

    /// A pipeline (+1) for `kernel` in `library`; fails the test (and returns nullptr) when
    /// there is none.
    MTL::ComputePipelineState* pipeline(MTL::Library* library, const char* kernel) {
        MTL::Function* function = kernelNamed(library, kernel);
        if (!function) return nullptr;
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* made = device_->newComputePipelineState(function, &error);
        function->release();
        if (!made) ADD_FAILURE() << "pipeline failed: " << error->localizedDescription()->utf8String();
        return made;
    }

    /// A pipeline (+1) for `kernel` in `library`, with shader validation on or off; fails
    /// the test (and returns nullptr) when there is none.
    MTL::ComputePipelineState* pipeline(MTL::Library* library, const char* kernel, bool validated) {
        MTL::Function* function = kernelNamed(library, kernel);
        if (!function) return nullptr;
        std::string why;
        MTL::ComputePipelineState* made = pipelineOf(device_, function, shaderValidation(validated), &why);
        function->release();
        if (!made) ADD_FAILURE() << "pipeline failed: " << why;
        return made;
    }

    /// The pipeline (+1) of `kernel` in `library` with shader validation `validation`, or
    /// nullptr with its error's text in `*why`: for tests of pipelines Metal refuses. A
    /// library without `kernel` fails the test: no such test means to ask for one.
    MTL::ComputePipelineState* pipelineOrError(MTL::Library* library, const char* kernel,
                                               MTL::ShaderValidation validation, std::string* why) {
        MTL::Function* function = kernelNamed(library, kernel);
        if (!function) {
            *why = std::string("no kernel ") + kernel;
            return nullptr;
        }
        MTL::ComputePipelineState* made = pipelineOf(device_, function, validation, why);
        function->release();
        return made;
    }

    /// Function `kernel` of `library` (+1); fails the test (and returns nullptr) when there is
    /// none.
    static MTL::Function* kernelNamed(MTL::Library* library, const char* kernel) {
        if (!library) return nullptr;
        MTL::Function* function = library->newFunction(NS::String::string(kernel, NS::UTF8StringEncoding));
        if (!function) ADD_FAILURE() << "no kernel " << kernel;
        return function;
    }

    /// Runs `kernel` of `library`, which takes `device int*` at [[buffer(0)]], over `count`
    /// threads in groups of 7, and returns what it wrote; empty (and the test failed) when
    /// there is no such kernel or the command buffer fails.
    std::vector<int> runIntKernel(MTL::Library* library, const char* kernel, unsigned count) {
        MTL::ComputePipelineState* state = pipeline(library, kernel);
        if (!state) return {};
        MTL::Buffer* out = device_->newBuffer(count * sizeof(int), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<int*>(out->contents()), count, -1);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(7, 1, 1));
        encoder->endEncoding();
        std::vector<int> values;
        if (run(commandBuffer) == MTL::CommandBufferStatusCompleted) {
            const int* written = static_cast<const int*>(out->contents());
            values.assign(written, written + count);
        } else {
            ADD_FAILURE() << kernel << " failed: " << text(commandBuffer->error()->localizedDescription());
        }
        out->release();
        state->release();
        return values;
    }

    /// Commits, waits, and returns the status.
    MTL::CommandBufferStatus run(MTL::CommandBuffer* commandBuffer) {
        commandBuffer->commit();
        commandBuffer->waitUntilCompleted();
        return commandBuffer->status();
    }

    NS::AutoreleasePool* pool_ = nullptr;
    MTL::Device* device_ = nullptr;
    MTL::CommandQueue* queue_ = nullptr;
};

/// A null pointer the compiler cannot see through, for tests that call methods on nil on
/// purpose (a visible nullptr makes GCC warn that `this` is null).
template <class T>
T* nil() {
    static T* volatile null = nullptr;
    return null;
}

/// Marks a function that calls methods on nil on purpose: metal-cpp allows it, C++ calls it
/// undefined, so UBSan builds (METALCPU_SANITIZE) would stop there.
#define METALCPU_NIL_TEST_BODY __attribute__((no_sanitize("undefined")))

/// (threads per group, shader validation on): the shapes execution tests run kernels in.
using KernelShape = std::tuple<unsigned, bool>;

/// Tests of the kernels of `Source`, compiled once per suite into library_ (nullptr, and the
/// suite's first test failed, when they do not compile).
template <const char* const& Source>
class SuiteLibraryTest : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(Source); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    inline static MTL::Library* library_ = nullptr;
};

/// Execution tests parameterised by KernelShape over the kernels of `Source`, compiled once
/// per suite: a kernel's pipeline in the shape's flavour, and a dispatch in groups of the
/// shape's size. `class MyKernels : public ShapedKernelTest<kMySource> {};`
template <const char* const& Source>
class ShapedKernelTest : public SuiteLibraryTest<Source>, public ::testing::WithParamInterface<KernelShape> {
protected:
    using SuiteLibraryTest<Source>::library_;

    unsigned groupSize() const { return std::get<0>(GetParam()); }
    bool validated() const { return std::get<1>(GetParam()); }

    /// The pipeline (+1) for `name`, plain or validated as the shape says.
    MTL::ComputePipelineState* kernel(const char* name) { return this->pipeline(library_, name, validated()); }

    /// Dispatches `threads` threads of `state` in groups of groupSize() (the last group is
    /// partial unless they divide), ends encoding and waits; fails the test unless completed.
    void dispatch(MTL::ComputePipelineState* state, MTL::ComputeCommandEncoder* encoder,
                  MTL::CommandBuffer* commands, unsigned threads) {
        encoder->setComputePipelineState(state);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(this->run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
    }
};

/// Test names for KernelShape parameters: group33, group33_validated.
inline std::string kernelShapeName(const ::testing::TestParamInfo<KernelShape>& info) {
    return "group" + std::to_string(std::get<0>(info.param)) + (std::get<1>(info.param) ? "_validated" : "");
}

/// `text` escaped to match itself in a death test's regular expression (POSIX extended).
inline std::string regexLiteral(const std::string& text) {
    std::string escaped;
    for (char c : text) {
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) escaped += '\\';
        escaped += c;
    }
    return escaped;
}

} // namespace metalcpu::testing
