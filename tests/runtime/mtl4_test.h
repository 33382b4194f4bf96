#pragma once

// A fixture for tests of the Metal 4 command model: an MTL4 queue, allocator and command
// buffer, argument tables, and a commit that waits for its feedback.

#include "metal_test.h"

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace metalcpu::testing {

/// What a commit's feedback handler saw.
struct CommitResult {
    bool failed = false;
    std::string error; ///< the error's description; "" without one
    double start = 0, end = 0;
};

class Mtl4Test : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        queue4_ = own(device_->newMTL4CommandQueue());
        allocator_ = own(device_->newCommandAllocator());
        commandBuffer_ = own(device_->newCommandBuffer());
        ASSERT_NE(queue4_, nullptr);
        ASSERT_NE(allocator_, nullptr);
        ASSERT_NE(commandBuffer_, nullptr);
    }
    void TearDown() override {
        for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) (*it)->release();
        MetalTest::TearDown();
    }

    /// Releases `object` after the test.
    template <class T>
    T* own(T* object) {
        if (object) owned_.push_back(object);
        return object;
    }
    MTL::Buffer* buffer(std::size_t bytes) { return own(device_->newBuffer(bytes, MTL::ResourceStorageModeShared)); }
    /// An argument table with `buffers` buffer bind points.
    MTL4::ArgumentTable* table(NS::UInteger buffers) {
        MTL4::ArgumentTableDescriptor* descriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
        descriptor->setMaxBufferBindCount(buffers);
        NS::Error* error = nullptr;
        MTL4::ArgumentTable* made = device_->newArgumentTable(descriptor, &error);
        descriptor->release();
        EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        return own(made);
    }

    /// A residency set holding `allocations` (+0, released after the test), committed
    /// unless `commit` is false (additions then stay staged).
    MTL::ResidencySet* residencySet(std::vector<const MTL::Allocation*> allocations, bool commit = true) {
        MTL::ResidencySetDescriptor* descriptor = MTL::ResidencySetDescriptor::alloc()->init();
        NS::Error* error = nullptr;
        MTL::ResidencySet* made = own(device_->newResidencySet(descriptor, &error));
        descriptor->release();
        EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (!made) return nullptr;
        made->addAllocations(allocations.data(), allocations.size());
        if (commit) made->commit();
        return made;
    }

    /// Records into commandBuffer_ (begun with allocator_, using `sets`) one dispatch of
    /// `threads` threads in groups of `group` of `state` reading `arguments`, and ends it.
    void record(MTL::ComputePipelineState* state, MTL4::ArgumentTable* arguments, MTL::Size threads, MTL::Size group,
                std::vector<const MTL::ResidencySet*> sets = {}) {
        commandBuffer_->beginCommandBuffer(allocator_);
        commandBuffer_->useResidencySets(sets.data(), sets.size());
        MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setArgumentTable(arguments);
        encoder->dispatchThreads(threads, group);
        encoder->endEncoding();
        commandBuffer_->endCommandBuffer();
    }

    /// Commits `buffers` in one call to `queue` (default queue4_) and waits for its feedback,
    /// which must come once.
    CommitResult commit(std::vector<MTL4::CommandBuffer*> buffers, MTL4::CommandQueue* queue = nullptr) {
        auto promise = std::make_shared<std::promise<CommitResult>>();
        auto calls = std::make_shared<std::atomic<int>>(0);
        std::future<CommitResult> future = promise->get_future();
        MTL4::CommitOptions* options = MTL4::CommitOptions::alloc()->init();
        options->addFeedbackHandler([promise, calls](MTL4::CommitFeedback* feedback) {
            if (calls->fetch_add(1) != 0) return;
            CommitResult seen;
            seen.failed = feedback->error() != nullptr;
            seen.error = feedback->error() ? text(feedback->error()->localizedDescription()) : "";
            seen.start = feedback->GPUStartTime();
            seen.end = feedback->GPUEndTime();
            promise->set_value(seen);
        });
        (queue ? queue : queue4_)->commit(buffers.data(), buffers.size(), options);
        options->release();
        CommitResult result = future.get();
        EXPECT_EQ(calls->load(), 1);
        return result;
    }

    MTL4::CommandQueue* queue4_ = nullptr;
    MTL4::CommandAllocator* allocator_ = nullptr;
    MTL4::CommandBuffer* commandBuffer_ = nullptr;

private:
    std::vector<NS::Object*> owned_;
};

} // namespace metalcpu::testing
