#pragma once

// Shared helpers for tests that go through the public metal-cpp API.

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace metalcpu::testing {

inline std::string text(NS::String* string) { return string ? string->utf8String() : ""; }

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
        if (!library) return nullptr;
        MTL::Function* function = library->newFunction(NS::String::string(kernel, NS::UTF8StringEncoding));
        if (!function) {
            ADD_FAILURE() << "no kernel " << kernel;
            return nullptr;
        }
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* made = device_->newComputePipelineState(function, &error);
        function->release();
        if (!made) ADD_FAILURE() << "pipeline failed: " << error->localizedDescription()->utf8String();
        return made;
    }

    /// A pipeline (+1) for `kernel` in `library` with shader validation on or off; fails the
    /// test (and returns nullptr) when there is none.
    MTL::ComputePipelineState* pipeline(MTL::Library* library, const char* kernel, bool shaderValidation) {
        if (!library) return nullptr;
        MTL::Function* function = library->newFunction(NS::String::string(kernel, NS::UTF8StringEncoding));
        if (!function) {
            ADD_FAILURE() << "no kernel " << kernel;
            return nullptr;
        }
        MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
        descriptor->setComputeFunction(function);
        descriptor->setShaderValidation(shaderValidation ? MTL::ShaderValidationEnabled
                                                         : MTL::ShaderValidationDisabled);
        NS::Error* error = nullptr;
        MTL::ComputePipelineState* state =
            device_->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
        descriptor->release();
        function->release();
        if (!state) ADD_FAILURE() << "pipeline failed: " << text(error ? error->localizedDescription() : nullptr);
        return state;
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
