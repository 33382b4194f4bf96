// The MTL descriptors that src/api holds as settings: Apple's defaults, set/get round trips,
// copy() and what nil answers.
#include "foundation/object.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <cfloat>
#include <cstring>

namespace {

/// A new string the test owns through the returned pointer.
NS::SharedPtr<NS::String> text(const char* utf8) {
    return NS::TransferPtr(NS::String::alloc()->init(utf8, NS::UTF8StringEncoding));
}

bool sameSwizzle(MTL::TextureSwizzleChannels a, MTL::TextureSwizzleChannels b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Test that a new texture descriptor has Apple's defaults: a 1x1 RGBA8Unorm 2D texture that
// kernels read, in shared memory, with the identity swizzle.
TEST(TextureDescriptorTest, Defaults) {
    auto descriptor = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    ASSERT_NE(descriptor.get(), nullptr);
    EXPECT_EQ(descriptor->textureType(), MTL::TextureType2D);
    EXPECT_EQ(descriptor->pixelFormat(), MTL::PixelFormatRGBA8Unorm);
    EXPECT_EQ(descriptor->width(), 1u);
    EXPECT_EQ(descriptor->height(), 1u);
    EXPECT_EQ(descriptor->depth(), 1u);
    EXPECT_EQ(descriptor->mipmapLevelCount(), 1u);
    EXPECT_EQ(descriptor->sampleCount(), 1u);
    EXPECT_EQ(descriptor->arrayLength(), 1u);
    EXPECT_EQ(descriptor->usage(), MTL::TextureUsageShaderRead);
    EXPECT_EQ(descriptor->storageMode(), MTL::StorageModeShared);
    EXPECT_EQ(descriptor->cpuCacheMode(), MTL::CPUCacheModeDefaultCache);
    EXPECT_EQ(descriptor->hazardTrackingMode(), MTL::HazardTrackingModeDefault);
    EXPECT_EQ(descriptor->resourceOptions(), 0u);
    EXPECT_TRUE(descriptor->allowGPUOptimizedContents());
    EXPECT_EQ(descriptor->compressionType(), MTL::TextureCompressionTypeLossless);
    EXPECT_TRUE(sameSwizzle(descriptor->swizzle(), MTL::TextureSwizzleChannels::Default()));
    EXPECT_EQ(descriptor->placementSparsePageSize(), MTL::SparsePageSize(0));
}

// Test that every texture descriptor setter is read back by its getter.
TEST(TextureDescriptorTest, RoundTrips) {
    auto descriptor = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    descriptor->setTextureType(MTL::TextureType3D);
    descriptor->setPixelFormat(MTL::PixelFormatR32Float);
    descriptor->setWidth(64);
    descriptor->setHeight(32);
    descriptor->setDepth(16);
    descriptor->setMipmapLevelCount(7);
    descriptor->setSampleCount(4);
    descriptor->setArrayLength(3);
    descriptor->setUsage(MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
    descriptor->setAllowGPUOptimizedContents(false);
    descriptor->setCompressionType(MTL::TextureCompressionTypeLossy);
    const auto swizzle = MTL::TextureSwizzleChannels::Make(MTL::TextureSwizzleAlpha, MTL::TextureSwizzleBlue,
                                                            MTL::TextureSwizzleGreen, MTL::TextureSwizzleRed);
    descriptor->setSwizzle(swizzle);
    descriptor->setPlacementSparsePageSize(MTL::SparsePageSize64);
    EXPECT_EQ(descriptor->textureType(), MTL::TextureType3D);
    EXPECT_EQ(descriptor->pixelFormat(), MTL::PixelFormatR32Float);
    EXPECT_EQ(descriptor->width(), 64u);
    EXPECT_EQ(descriptor->height(), 32u);
    EXPECT_EQ(descriptor->depth(), 16u);
    EXPECT_EQ(descriptor->mipmapLevelCount(), 7u);
    EXPECT_EQ(descriptor->sampleCount(), 4u);
    EXPECT_EQ(descriptor->arrayLength(), 3u);
    EXPECT_EQ(descriptor->usage(), MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
    EXPECT_FALSE(descriptor->allowGPUOptimizedContents());
    EXPECT_EQ(descriptor->compressionType(), MTL::TextureCompressionTypeLossy);
    EXPECT_TRUE(sameSwizzle(descriptor->swizzle(), swizzle));
    EXPECT_EQ(descriptor->placementSparsePageSize(), MTL::SparsePageSize64);
}

// Test that resourceOptions packs the storage, CPU cache and hazard tracking modes, in both
// directions.
TEST(TextureDescriptorTest, ResourceOptionsPackTheModes) {
    auto descriptor = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    descriptor->setStorageMode(MTL::StorageModePrivate);
    descriptor->setCpuCacheMode(MTL::CPUCacheModeWriteCombined);
    descriptor->setHazardTrackingMode(MTL::HazardTrackingModeUntracked);
    EXPECT_EQ(descriptor->resourceOptions(), MTL::ResourceStorageModePrivate | MTL::ResourceCPUCacheModeWriteCombined |
                                                 MTL::ResourceHazardTrackingModeUntracked);
    descriptor->setResourceOptions(MTL::ResourceStorageModeManaged | MTL::ResourceHazardTrackingModeTracked);
    EXPECT_EQ(descriptor->storageMode(), MTL::StorageModeManaged);
    EXPECT_EQ(descriptor->cpuCacheMode(), MTL::CPUCacheModeDefaultCache);
    EXPECT_EQ(descriptor->hazardTrackingMode(), MTL::HazardTrackingModeTracked);
}

// Test that the class factories return autoreleased descriptors shaped as Apple documents,
// with a full mipmap chain when asked.
TEST(TextureDescriptorTest, Factories) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::TextureDescriptor* plain = MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatBGRA8Unorm, 1024, 512,
                                                                                false);
    EXPECT_EQ(plain->retainCount(), 1u); // owned by the pool
    EXPECT_EQ(plain->textureType(), MTL::TextureType2D);
    EXPECT_EQ(plain->pixelFormat(), MTL::PixelFormatBGRA8Unorm);
    EXPECT_EQ(plain->width(), 1024u);
    EXPECT_EQ(plain->height(), 512u);
    EXPECT_EQ(plain->mipmapLevelCount(), 1u);
    EXPECT_EQ(MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatR8Unorm, 1024, 512, true)->mipmapLevelCount(),
              11u);
    EXPECT_EQ(MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatR8Unorm, 1, 1, true)->mipmapLevelCount(), 1u);

    MTL::TextureDescriptor* cube = MTL::TextureDescriptor::textureCubeDescriptor(MTL::PixelFormatRGBA16Float, 64, true);
    EXPECT_EQ(cube->textureType(), MTL::TextureTypeCube);
    EXPECT_EQ(cube->width(), 64u);
    EXPECT_EQ(cube->height(), 64u);
    EXPECT_EQ(cube->mipmapLevelCount(), 7u);

    MTL::TextureDescriptor* linear = MTL::TextureDescriptor::textureBufferDescriptor(
        MTL::PixelFormatR32Uint, 4096, MTL::ResourceStorageModePrivate, MTL::TextureUsageShaderWrite);
    EXPECT_EQ(linear->textureType(), MTL::TextureTypeTextureBuffer);
    EXPECT_EQ(linear->width(), 4096u);
    EXPECT_EQ(linear->storageMode(), MTL::StorageModePrivate);
    EXPECT_EQ(linear->usage(), MTL::TextureUsageShaderWrite);
    pool->release();
}

// Test that copy() makes an independent descriptor with the same settings.
TEST(TextureDescriptorTest, CopyIsIndependent) {
    auto original = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    original->setWidth(128);
    original->setStorageMode(MTL::StorageModePrivate);
    auto copy = NS::TransferPtr(original->copy());
    ASSERT_NE(copy.get(), nullptr);
    EXPECT_NE(copy.get(), original.get());
    EXPECT_EQ(copy->width(), 128u);
    EXPECT_EQ(copy->storageMode(), MTL::StorageModePrivate);
    original->setWidth(7);
    EXPECT_EQ(copy->width(), 128u);
}

// Test that a texture view descriptor starts as a 2D view of the first level and slice and
// keeps what it is given, also through copy().
TEST(TextureViewDescriptorTest, DefaultsRoundTripsAndCopy) {
    auto descriptor = NS::TransferPtr(MTL::TextureViewDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->pixelFormat(), MTL::PixelFormatInvalid);
    EXPECT_EQ(descriptor->textureType(), MTL::TextureType2D);
    EXPECT_TRUE(descriptor->levelRange().Equal(NS::Range(0, 1)));
    EXPECT_TRUE(descriptor->sliceRange().Equal(NS::Range(0, 1)));
    EXPECT_TRUE(sameSwizzle(descriptor->swizzle(), MTL::TextureSwizzleChannels::Default()));

    descriptor->setPixelFormat(MTL::PixelFormatR16Float);
    descriptor->setTextureType(MTL::TextureType2DArray);
    descriptor->setLevelRange(NS::Range(2, 3));
    descriptor->setSliceRange(NS::Range(4, 5));
    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_EQ(copy->pixelFormat(), MTL::PixelFormatR16Float);
    EXPECT_EQ(copy->textureType(), MTL::TextureType2DArray);
    EXPECT_TRUE(copy->levelRange().Equal(NS::Range(2, 3)));
    EXPECT_TRUE(copy->sliceRange().Equal(NS::Range(4, 5)));
}

// Test that a sampler descriptor has Apple's defaults: nearest filtering without mipmaps,
// clamped to the edge, normalised coordinates and every level of detail.
TEST(SamplerDescriptorTest, Defaults) {
    auto descriptor = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->label(), nullptr);
    EXPECT_EQ(descriptor->minFilter(), MTL::SamplerMinMagFilterNearest);
    EXPECT_EQ(descriptor->magFilter(), MTL::SamplerMinMagFilterNearest);
    EXPECT_EQ(descriptor->mipFilter(), MTL::SamplerMipFilterNotMipmapped);
    EXPECT_EQ(descriptor->maxAnisotropy(), 1u);
    EXPECT_EQ(descriptor->reductionMode(), MTL::SamplerReductionModeWeightedAverage);
    EXPECT_EQ(descriptor->sAddressMode(), MTL::SamplerAddressModeClampToEdge);
    EXPECT_EQ(descriptor->tAddressMode(), MTL::SamplerAddressModeClampToEdge);
    EXPECT_EQ(descriptor->rAddressMode(), MTL::SamplerAddressModeClampToEdge);
    EXPECT_EQ(descriptor->borderColor(), MTL::SamplerBorderColorTransparentBlack);
    EXPECT_TRUE(descriptor->normalizedCoordinates());
    EXPECT_EQ(descriptor->lodMinClamp(), 0.0f);
    EXPECT_EQ(descriptor->lodMaxClamp(), FLT_MAX);
    EXPECT_EQ(descriptor->lodBias(), 0.0f);
    EXPECT_FALSE(descriptor->lodAverage());
    EXPECT_EQ(descriptor->compareFunction(), MTL::CompareFunctionNever);
    EXPECT_FALSE(descriptor->supportArgumentBuffers());
}

// Test that every sampler descriptor setter is read back, and that copy() keeps the label.
TEST(SamplerDescriptorTest, RoundTripsAndCopy) {
    auto descriptor = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
    auto label = text("linear");
    descriptor->setLabel(label.get());
    descriptor->setMinFilter(MTL::SamplerMinMagFilterLinear);
    descriptor->setMagFilter(MTL::SamplerMinMagFilterLinear);
    descriptor->setMipFilter(MTL::SamplerMipFilterLinear);
    descriptor->setMaxAnisotropy(8);
    descriptor->setReductionMode(MTL::SamplerReductionModeMaximum);
    descriptor->setSAddressMode(MTL::SamplerAddressModeRepeat);
    descriptor->setTAddressMode(MTL::SamplerAddressModeMirrorRepeat);
    descriptor->setRAddressMode(MTL::SamplerAddressModeClampToBorderColor);
    descriptor->setBorderColor(MTL::SamplerBorderColorOpaqueWhite);
    descriptor->setNormalizedCoordinates(false);
    descriptor->setLodMinClamp(1.5f);
    descriptor->setLodMaxClamp(4.0f);
    descriptor->setLodBias(-0.5f);
    descriptor->setLodAverage(true);
    descriptor->setCompareFunction(MTL::CompareFunctionLessEqual);
    descriptor->setSupportArgumentBuffers(true);

    auto copy = NS::TransferPtr(descriptor->copy());
    for (MTL::SamplerDescriptor* each : {descriptor.get(), copy.get()}) {
        ASSERT_NE(each->label(), nullptr);
        EXPECT_TRUE(each->label()->isEqualToString(label.get()));
        EXPECT_EQ(each->minFilter(), MTL::SamplerMinMagFilterLinear);
        EXPECT_EQ(each->magFilter(), MTL::SamplerMinMagFilterLinear);
        EXPECT_EQ(each->mipFilter(), MTL::SamplerMipFilterLinear);
        EXPECT_EQ(each->maxAnisotropy(), 8u);
        EXPECT_EQ(each->reductionMode(), MTL::SamplerReductionModeMaximum);
        EXPECT_EQ(each->sAddressMode(), MTL::SamplerAddressModeRepeat);
        EXPECT_EQ(each->tAddressMode(), MTL::SamplerAddressModeMirrorRepeat);
        EXPECT_EQ(each->rAddressMode(), MTL::SamplerAddressModeClampToBorderColor);
        EXPECT_EQ(each->borderColor(), MTL::SamplerBorderColorOpaqueWhite);
        EXPECT_FALSE(each->normalizedCoordinates());
        EXPECT_EQ(each->lodMinClamp(), 1.5f);
        EXPECT_EQ(each->lodMaxClamp(), 4.0f);
        EXPECT_EQ(each->lodBias(), -0.5f);
        EXPECT_TRUE(each->lodAverage());
        EXPECT_EQ(each->compareFunction(), MTL::CompareFunctionLessEqual);
        EXPECT_TRUE(each->supportArgumentBuffers());
    }
    descriptor->setLabel(nullptr);
    EXPECT_EQ(descriptor->label(), nullptr);
    EXPECT_NE(copy->label(), nullptr);
}

// Test that a heap descriptor defaults to an automatic heap of private memory with 16 KB sparse
// pages, and that its modes and resourceOptions agree.
TEST(HeapDescriptorTest, DefaultsAndRoundTrips) {
    auto descriptor = NS::TransferPtr(MTL::HeapDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->type(), MTL::HeapTypeAutomatic);
    EXPECT_EQ(descriptor->size(), 0u);
    EXPECT_EQ(descriptor->storageMode(), MTL::StorageModePrivate);
    EXPECT_EQ(descriptor->resourceOptions(), MTL::ResourceStorageModePrivate);
    EXPECT_EQ(descriptor->sparsePageSize(), MTL::SparsePageSize16);
    EXPECT_EQ(descriptor->maxCompatiblePlacementSparsePageSize(), MTL::SparsePageSize16);

    descriptor->setType(MTL::HeapTypePlacement);
    descriptor->setSize(1 << 20);
    descriptor->setResourceOptions(MTL::ResourceStorageModeShared | MTL::ResourceHazardTrackingModeUntracked);
    descriptor->setSparsePageSize(MTL::SparsePageSize256);
    descriptor->setMaxCompatiblePlacementSparsePageSize(MTL::SparsePageSize64);
    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_EQ(copy->type(), MTL::HeapTypePlacement);
    EXPECT_EQ(copy->size(), 1u << 20);
    EXPECT_EQ(copy->storageMode(), MTL::StorageModeShared);
    EXPECT_EQ(copy->hazardTrackingMode(), MTL::HazardTrackingModeUntracked);
    EXPECT_EQ(copy->sparsePageSize(), MTL::SparsePageSize256);
    EXPECT_EQ(copy->maxCompatiblePlacementSparsePageSize(), MTL::SparsePageSize64);
}

// Test that a residency set descriptor keeps its label and initial capacity, also through copy().
TEST(ResidencySetDescriptorTest, RoundTripsAndCopy) {
    auto descriptor = NS::TransferPtr(MTL::ResidencySetDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->label(), nullptr);
    EXPECT_EQ(descriptor->initialCapacity(), 0u);
    descriptor->setLabel(text("resident").get());
    descriptor->setInitialCapacity(16);
    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_STREQ(copy->label()->utf8String(), "resident");
    EXPECT_EQ(copy->initialCapacity(), 16u);
}

// Test that an argument descriptor starts at zero, keeps what it is given, and that
// argumentDescriptor() returns an autoreleased one.
TEST(ArgumentDescriptorTest, DefaultsRoundTripsAndFactory) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::ArgumentDescriptor* descriptor = MTL::ArgumentDescriptor::argumentDescriptor();
    ASSERT_NE(descriptor, nullptr);
    EXPECT_EQ(descriptor->dataType(), MTL::DataTypeNone);
    EXPECT_EQ(descriptor->index(), 0u);
    EXPECT_EQ(descriptor->arrayLength(), 0u);
    EXPECT_EQ(descriptor->access(), MTL::BindingAccessReadOnly);
    EXPECT_EQ(descriptor->constantBlockAlignment(), 0u);
    descriptor->setDataType(MTL::DataTypePointer);
    descriptor->setIndex(3);
    descriptor->setArrayLength(4);
    descriptor->setAccess(MTL::BindingAccessReadWrite);
    descriptor->setTextureType(MTL::TextureType2DArray);
    descriptor->setConstantBlockAlignment(16);
    auto copy = NS::TransferPtr(descriptor->copy());
    pool->release();
    EXPECT_EQ(copy->dataType(), MTL::DataTypePointer);
    EXPECT_EQ(copy->index(), 3u);
    EXPECT_EQ(copy->arrayLength(), 4u);
    EXPECT_EQ(copy->access(), MTL::BindingAccessReadWrite);
    EXPECT_EQ(copy->textureType(), MTL::TextureType2DArray);
    EXPECT_EQ(copy->constantBlockAlignment(), 16u);
}

// Test that a function descriptor keeps its name, constants and options, copies the constant
// values it is given, and that an intersection function descriptor shares those properties.
TEST(FunctionDescriptorTest, RoundTripsAndSubclass) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::FunctionDescriptor* descriptor = MTL::FunctionDescriptor::functionDescriptor();
    EXPECT_EQ(descriptor->name(), nullptr);
    EXPECT_EQ(descriptor->constantValues(), nullptr);
    EXPECT_EQ(descriptor->options(), MTL::FunctionOptionNone);

    auto constants = NS::TransferPtr(MTL::FunctionConstantValues::alloc()->init());
    const float scale = 2.0f;
    constants->setConstantValue(&scale, MTL::DataTypeFloat, NS::UInteger(0));
    descriptor->setName(text("saxpy").get());
    descriptor->setSpecializedName(text("saxpy_2x").get());
    descriptor->setConstantValues(constants.get());
    descriptor->setOptions(MTL::FunctionOptionCompileToBinary);
    EXPECT_STREQ(descriptor->name()->utf8String(), "saxpy");
    EXPECT_STREQ(descriptor->specializedName()->utf8String(), "saxpy_2x");
    ASSERT_NE(descriptor->constantValues(), nullptr);
    EXPECT_NE(descriptor->constantValues(), constants.get()); // a copy, as Metal's copy property
    EXPECT_EQ(descriptor->options(), MTL::FunctionOptionCompileToBinary);

    auto intersection = NS::TransferPtr(MTL::IntersectionFunctionDescriptor::alloc()->init());
    intersection->setName(text("hit").get());
    auto copy = NS::TransferPtr(intersection->copy());
    EXPECT_STREQ(copy->name()->utf8String(), "hit");
    EXPECT_NE(std::strstr(copy->description()->utf8String(), "MTLIntersectionFunctionDescriptor"), nullptr);
    pool->release();
}

// Test that function constant values accept values by index, by name and by range, and can be
// reset and copied.
TEST(FunctionConstantValuesTest, SetResetAndCopy) {
    auto values = NS::TransferPtr(MTL::FunctionConstantValues::alloc()->init());
    const int counts[3] = {1, 2, 3};
    const bool enabled = true;
    values->setConstantValues(counts, MTL::DataTypeInt, NS::Range(4, 3));
    values->setConstantValue(&enabled, MTL::DataTypeBool, text("enabled").get());
    auto copy = NS::TransferPtr(values->copy());
    EXPECT_NE(copy.get(), nullptr);
    EXPECT_NE(copy.get(), values.get());
    values->reset();
}

// Test that a pipeline buffer descriptor array makes a descriptor per slot on first use, keeps
// copies of the ones it is given, and has 31 slots.
TEST(PipelineBufferDescriptorTest, ArraySlots) {
    auto buffers = NS::TransferPtr(MTL::PipelineBufferDescriptorArray::alloc()->init());
    MTL::PipelineBufferDescriptor* first = buffers->object(0);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->mutability(), MTL::MutabilityDefault);
    EXPECT_EQ(buffers->object(0), first);
    first->setMutability(MTL::MutabilityImmutable);
    EXPECT_EQ(buffers->object(0)->mutability(), MTL::MutabilityImmutable);

    auto mutableBuffer = NS::TransferPtr(MTL::PipelineBufferDescriptor::alloc()->init());
    mutableBuffer->setMutability(MTL::MutabilityMutable);
    buffers->setObject(mutableBuffer.get(), 30);
    EXPECT_EQ(buffers->object(30)->mutability(), MTL::MutabilityMutable);
    mutableBuffer->setMutability(MTL::MutabilityImmutable);
    EXPECT_EQ(buffers->object(30)->mutability(), MTL::MutabilityMutable);
    EXPECT_EQ(buffers->object(31), nullptr);
}

// Test that a log state descriptor defaults to debug messages in a 1 MB buffer.
TEST(LogStateDescriptorTest, DefaultsAndRoundTrips) {
    auto descriptor = NS::TransferPtr(MTL::LogStateDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->level(), MTL::LogLevelDebug);
    EXPECT_EQ(descriptor->bufferSize(), 1024 * 1024);
    descriptor->setLevel(MTL::LogLevelError);
    descriptor->setBufferSize(4096);
    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_EQ(copy->level(), MTL::LogLevelError);
    EXPECT_EQ(copy->bufferSize(), 4096);
}

// Test that a capture descriptor retains its capture object and keeps its destination and URL.
TEST(CaptureDescriptorTest, RoundTrips) {
    auto descriptor = NS::TransferPtr(MTL::CaptureDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->captureObject(), nullptr);
    EXPECT_EQ(descriptor->destination(), MTL::CaptureDestinationDeveloperTools);
    EXPECT_EQ(descriptor->outputURL(), nullptr);
    auto object = text("capture me");
    descriptor->setCaptureObject(object.get());
    EXPECT_EQ(object->retainCount(), 2u);
    descriptor->setDestination(MTL::CaptureDestinationGPUTraceDocument);
    auto url = NS::TransferPtr(NS::URL::alloc()->initFileURLWithPath(text("/tmp/trace.gputrace").get()));
    descriptor->setOutputURL(url.get());
    EXPECT_EQ(descriptor->captureObject(), object.get());
    EXPECT_EQ(descriptor->destination(), MTL::CaptureDestinationGPUTraceDocument);
    EXPECT_NE(descriptor->outputURL(), nullptr);
    descriptor->setCaptureObject(nullptr);
    EXPECT_EQ(object->retainCount(), 1u);
}

// Test that sample buffer attachments default to "don't sample" and that their array makes
// them on first use.
TEST(ComputePassSampleBufferAttachmentTest, DefaultsAndArray) {
    auto attachments = NS::TransferPtr(MTL::ComputePassSampleBufferAttachmentDescriptorArray::alloc()->init());
    MTL::ComputePassSampleBufferAttachmentDescriptor* attachment = attachments->object(0);
    ASSERT_NE(attachment, nullptr);
    EXPECT_EQ(attachment->sampleBuffer(), nullptr);
    EXPECT_EQ(attachment->startOfEncoderSampleIndex(), NS::UIntegerMax);
    EXPECT_EQ(attachment->endOfEncoderSampleIndex(), NS::UIntegerMax);
    attachment->setStartOfEncoderSampleIndex(0);
    attachment->setEndOfEncoderSampleIndex(1);
    EXPECT_EQ(attachments->object(0)->startOfEncoderSampleIndex(), 0u);
    EXPECT_EQ(attachments->object(0)->endOfEncoderSampleIndex(), 1u);
    EXPECT_EQ(attachments->object(4), nullptr);
}

// Test that descriptors free what their object properties hold when they are freed.
TEST(DescriptorOwnershipTest, NothingLeaks) {
    const std::size_t before = metalcpu::ns::ObjectBase::liveObjectCount();
    {
        auto descriptor = NS::TransferPtr(MTL::FunctionDescriptor::alloc()->init());
        descriptor->setName(text("kernel").get());
        descriptor->setConstantValues(NS::TransferPtr(MTL::FunctionConstantValues::alloc()->init()).get());
        auto copy = NS::TransferPtr(descriptor->copy());
        auto sampler = NS::TransferPtr(MTL::SamplerDescriptor::alloc()->init());
        sampler->setLabel(text("label").get());
        auto buffers = NS::TransferPtr(MTL::PipelineBufferDescriptorArray::alloc()->init());
        buffers->object(5)->setMutability(MTL::MutabilityImmutable);
    }
    EXPECT_EQ(metalcpu::ns::ObjectBase::liveObjectCount(), before);
}

} // namespace
