// The tensor settings: extents, descriptors, auxiliary planes and buffer attachments.
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

namespace {

NS::SharedPtr<MTL::TensorExtents> extents(std::initializer_list<NS::Integer> values) {
    return NS::TransferPtr(MTL::TensorExtents::alloc()->init(values.size(), std::data(values)));
}

// Test that extents keep their values, answer -1 beyond their rank, and that init fails (and
// frees the object) beyond rank 16 or without values.
TEST(TensorExtentsTest, ValuesAndLimits) {
    auto shape = extents({4, 3, 2});
    ASSERT_NE(shape.get(), nullptr);
    EXPECT_EQ(shape->rank(), 3u);
    EXPECT_EQ(shape->extentAtDimensionIndex(0), 4);
    EXPECT_EQ(shape->extentAtDimensionIndex(2), 2);
    EXPECT_EQ(shape->extentAtDimensionIndex(3), -1);

    auto scalar = NS::TransferPtr(MTL::TensorExtents::alloc()->init());
    EXPECT_EQ(scalar->rank(), 0u);
    EXPECT_EQ(NS::TransferPtr(MTL::TensorExtents::alloc()->init(0, nullptr))->rank(), 0u);

    NS::Integer many[17] = {};
    EXPECT_EQ(MTL::TensorExtents::alloc()->init(17, many), nullptr);
    EXPECT_EQ(MTL::TensorExtents::alloc()->init(2, nullptr), nullptr);
    EXPECT_NE(NS::TransferPtr(MTL::TensorExtents::alloc()->init(16, many)).get(), nullptr);
}

// Test that extents compare by value.
TEST(TensorExtentsTest, Equality) {
    auto a = extents({8, 8});
    auto b = extents({8, 8});
    auto c = extents({8, 4});
    EXPECT_TRUE(a->isEqual(b.get()));
    EXPECT_EQ(a->hash(), b->hash());
    EXPECT_FALSE(a->isEqual(c.get()));
}

// Test that a tensor descriptor has Apple's defaults: one Float32 element in shared memory,
// usable by compute and render, without strides or auxiliary planes.
TEST(TensorDescriptorTest, Defaults) {
    auto descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    ASSERT_NE(descriptor->dimensions(), nullptr);
    EXPECT_EQ(descriptor->dimensions()->rank(), 1u);
    EXPECT_EQ(descriptor->dimensions()->extentAtDimensionIndex(0), 1);
    EXPECT_EQ(descriptor->strides(), nullptr);
    EXPECT_EQ(descriptor->dataType(), MTL::TensorDataTypeFloat32);
    EXPECT_EQ(descriptor->usage(), MTL::TensorUsageCompute | MTL::TensorUsageRender);
    EXPECT_EQ(descriptor->storageMode(), MTL::StorageModeShared);
    EXPECT_EQ(descriptor->cpuCacheMode(), MTL::CPUCacheModeDefaultCache);
    EXPECT_EQ(descriptor->hazardTrackingMode(), MTL::HazardTrackingModeDefault);
    EXPECT_EQ(descriptor->auxiliaryPlanes(), nullptr);
}

// Test that a tensor descriptor keeps its shape, strides, type, usage and modes, and that
// copy() keeps them too.
TEST(TensorDescriptorTest, RoundTripsAndCopy) {
    auto descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    descriptor->setDimensions(extents({64, 32}).get());
    descriptor->setStrides(extents({1, 64}).get());
    descriptor->setDataType(MTL::TensorDataTypeFloat16);
    descriptor->setUsage(MTL::TensorUsageMachineLearning);
    descriptor->setResourceOptions(MTL::ResourceStorageModePrivate);
    auto planes = NS::TransferPtr(MTL::TensorAuxiliaryPlaneDescriptorMap::alloc()->init());
    descriptor->setAuxiliaryPlanes(planes.get());
    EXPECT_EQ(descriptor->auxiliaryPlanes(), planes.get()); // retained, not copied

    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_TRUE(copy->dimensions()->isEqual(extents({64, 32}).get()));
    EXPECT_TRUE(copy->strides()->isEqual(extents({1, 64}).get()));
    EXPECT_EQ(copy->dataType(), MTL::TensorDataTypeFloat16);
    EXPECT_EQ(copy->usage(), MTL::TensorUsageMachineLearning);
    EXPECT_EQ(copy->storageMode(), MTL::StorageModePrivate);
    EXPECT_EQ(copy->auxiliaryPlanes(), planes.get());
}

// Test that an auxiliary plane descriptor defaults to one 8-bit exponent scale per 32 elements,
// and that the plane map keeps copies of the descriptors it is given until reset().
TEST(TensorAuxiliaryPlaneTest, DescriptorAndMap) {
    auto scales = NS::TransferPtr(MTL::TensorAuxiliaryPlaneDescriptor::alloc()->init());
    EXPECT_EQ(scales->dataType(), MTL::TensorDataTypeMetalFloat8UE8M0);
    ASSERT_NE(scales->blockFactors(), nullptr);
    EXPECT_TRUE(scales->blockFactors()->isEqual(extents({32}).get()));

    auto map = NS::TransferPtr(MTL::TensorAuxiliaryPlaneDescriptorMap::alloc()->init());
    EXPECT_EQ(map->descriptor(MTL::TensorPlaneTypeScales), nullptr);
    map->setDescriptor(scales.get(), MTL::TensorPlaneTypeScales);
    MTL::TensorAuxiliaryPlaneDescriptor* kept = map->descriptor(MTL::TensorPlaneTypeScales);
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(kept->dataType(), MTL::TensorDataTypeMetalFloat8UE8M0);
    auto copy = NS::TransferPtr(map->copy());
    EXPECT_NE(copy->descriptor(MTL::TensorPlaneTypeScales), nullptr);
    map->reset();
    EXPECT_EQ(map->descriptor(MTL::TensorPlaneTypeScales), nullptr);
    EXPECT_NE(copy->descriptor(MTL::TensorPlaneTypeScales), nullptr);
}

// Test that buffer attachments retain the buffer of each plane with its offset, until reset().
TEST(TensorBufferAttachmentsTest, RetainsBuffers) {
    auto device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    auto buffer = NS::TransferPtr(device->newBuffer(256, MTL::ResourceStorageModeShared));
    ASSERT_NE(buffer.get(), nullptr);
    auto attachments = NS::TransferPtr(MTL::TensorBufferAttachments::alloc()->init());
    attachments->setBuffer(buffer.get(), 128, MTL::TensorPlaneTypeData);
    EXPECT_EQ(attachments->buffer(MTL::TensorPlaneTypeData), buffer.get());
    EXPECT_EQ(attachments->offset(MTL::TensorPlaneTypeData), 128u);
    EXPECT_EQ(attachments->buffer(MTL::TensorPlaneTypeScales), nullptr);
    EXPECT_EQ(buffer->retainCount(), 2u);
    auto copy = NS::TransferPtr(attachments->copy());
    EXPECT_EQ(copy->buffer(MTL::TensorPlaneTypeData), buffer.get());
    EXPECT_EQ(buffer->retainCount(), 3u);
    attachments->reset();
    copy->reset();
    EXPECT_EQ(attachments->buffer(MTL::TensorPlaneTypeData), nullptr);
    EXPECT_EQ(buffer->retainCount(), 1u);
}

} // namespace
