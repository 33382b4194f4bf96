// Residency sets: staged additions and removals, commit, the committed allocations and
// their size, and the membership query the Metal 4 queue's validation uses.
#include "foundation/test_support.h"
#include "runtime/residency_set.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

namespace {

using metalcpu::rt::ResidencySet;

class ResidencySetTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->release(); }

    NS::SharedPtr<MTL::ResidencySet> makeSet(const char* label) {
        auto descriptor = NS::TransferPtr(MTL::ResidencySetDescriptor::alloc()->init());
        descriptor->setLabel(NS::String::string(label, NS::UTF8StringEncoding));
        NS::Error* error = nullptr;
        auto set = NS::TransferPtr(device_->newResidencySet(descriptor.get(), &error));
        EXPECT_EQ(error, nullptr);
        return set;
    }

    NS::SharedPtr<MTL::Device> device_ = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that additions and removals are staged: containsAllocation sees them at once, while
// allAllocations, allocationCount, allocatedSize and the committed query change at commit().
TEST_F(ResidencySetTest, ChangesTakeEffectAtCommit) {
    auto set = makeSet("frame resources");
    ASSERT_NE(set.get(), nullptr);
    EXPECT_STREQ(set->label()->utf8String(), "frame resources");
    EXPECT_EQ(set->device(), device_.get());
    auto small = NS::TransferPtr(device_->newBuffer(100, MTL::ResourceStorageModeShared));
    auto large = NS::TransferPtr(device_->newBuffer(100000, MTL::ResourceStorageModePrivate));
    auto texture = NS::TransferPtr(device_->newTexture(MTL::TextureDescriptor::texture2DDescriptor(
        MTL::PixelFormatRGBA8Unorm, 16, 16, false)));
    ResidencySet* core = metalcpu::ns::implOf<ResidencySet>(set.get());
    ASSERT_NE(core, nullptr);

    set->addAllocation(small.get());
    const MTL::Allocation* more[] = {large.get(), texture.get(), small.get()}; // small twice: kept once
    set->addAllocations(more, 3);
    EXPECT_TRUE(set->containsAllocation(small.get()));
    EXPECT_TRUE(set->containsAllocation(texture.get()));
    EXPECT_EQ(set->allocationCount(), 0u);
    EXPECT_EQ(set->allocatedSize(), 0u);
    EXPECT_FALSE(core->containsCommitted(small.get()));

    set->commit();
    EXPECT_EQ(set->allocationCount(), 3u);
    NS::Array* all = set->allAllocations();
    ASSERT_EQ(all->count(), 3u);
    EXPECT_EQ(all->object(0), static_cast<NS::Object*>(small.get()));
    EXPECT_EQ(all->object(1), static_cast<NS::Object*>(large.get()));
    EXPECT_EQ(set->allocatedSize(), small->allocatedSize() + large->allocatedSize() + texture->allocatedSize());
    EXPECT_TRUE(core->containsCommitted(small.get()));
    EXPECT_TRUE(core->containsCommitted(texture.get()));

    set->removeAllocation(large.get());
    EXPECT_FALSE(set->containsAllocation(large.get()));
    EXPECT_TRUE(core->containsCommitted(large.get())); // until the next commit
    set->commit();
    EXPECT_FALSE(core->containsCommitted(large.get()));
    EXPECT_EQ(set->allocationCount(), 2u);

    set->removeAllAllocations();
    EXPECT_FALSE(set->containsAllocation(small.get()));
    EXPECT_EQ(set->allocationCount(), 2u);
    set->commit();
    EXPECT_EQ(set->allocationCount(), 0u);
    EXPECT_EQ(set->allocatedSize(), 0u);
    set->requestResidency(); // nothing to do on a CPU
    set->endResidency();
}

// Test that a set keeps what it holds alive (as Metal's sets retain their allocations) and
// lets go of it when removed, committed and released.
TEST_F(ResidencySetTest, HoldsReferences) {
    auto set = makeSet("held");
    MTL::Buffer* buffer = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    ASSERT_EQ(buffer->retainCount(), 1u);
    set->addAllocation(buffer);
    set->commit();
    EXPECT_EQ(buffer->retainCount(), 3u); // the program, the staged set, the committed set
    set->removeAllocation(buffer);
    set->commit();
    EXPECT_EQ(buffer->retainCount(), 1u);
    set->addAllocation(buffer);
    set.reset();
    EXPECT_EQ(buffer->retainCount(), 1u);
    buffer->release();
}

// Test that tensors are allocations too.
TEST_F(ResidencySetTest, TensorsAreAllocations) {
    auto set = makeSet("tensors");
    auto descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    NS::Error* error = nullptr;
    auto tensor = NS::TransferPtr(device_->newTensor(descriptor.get(), &error));
    ASSERT_NE(tensor.get(), nullptr);
    set->addAllocation(tensor.get());
    set->commit();
    EXPECT_TRUE(metalcpu::ns::implOf<ResidencySet>(set.get())->containsCommitted(tensor.get()));
    EXPECT_EQ(set->allocatedSize(), tensor->allocatedSize());
}

METALCPU_NIL_TEST_BODY void messageNilResidencySet() {
    metalcpu::ns::testing::LogCapture log;
    auto* set = metalcpu::ns::testing::nil<MTL::ResidencySet>();
    set->addAllocation(nullptr);
    set->commit();
    EXPECT_FALSE(set->containsAllocation(nullptr));
    EXPECT_EQ(set->allAllocations(), nullptr);
    EXPECT_EQ(set->allocationCount(), 0u);
    EXPECT_EQ(set->label(), nullptr);
    EXPECT_EQ(log.text(), "");
}

// Test that residency-set methods on nil do nothing and return zero.
TEST(ResidencySetNilTest, NilReceivers) { messageNilResidencySet(); }

} // namespace
