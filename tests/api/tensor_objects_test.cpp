// Tensors: Device::newTensor, Buffer::newTensor, tensorSizeAndAlign, slice copies
// (replaceSliceOrigin, getBytes), resource IDs and what kernels see (rt::Tensor::kernelView).
#include "foundation/test_support.h"
#include "runtime/buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/tensor.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using metalcpu::rt::DebugLayer;

NS::SharedPtr<MTL::TensorExtents> extents(std::initializer_list<NS::Integer> values) {
    return NS::TransferPtr(MTL::TensorExtents::alloc()->init(values.size(), std::data(values)));
}

std::vector<NS::Integer> valuesOf(MTL::TensorExtents* extents) {
    std::vector<NS::Integer> values;
    for (NS::UInteger d = 0; d < extents->rank(); ++d) values.push_back(extents->extentAtDimensionIndex(d));
    return values;
}

NS::SharedPtr<MTL::TensorDescriptor> descriptor(std::initializer_list<NS::Integer> dimensions,
                                                 MTL::TensorDataType type = MTL::TensorDataTypeFloat32) {
    auto made = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    made->setDimensions(extents(dimensions).get());
    made->setDataType(type);
    return made;
}

/// Records the debug layer's reports while alive (NSLog mode: report and go on).
class Reports {
public:
    Reports() {
        DebugLayer::setForTesting(DebugLayer::Mode::NSLog, [this](const std::string& line) { lines.push_back(line); });
    }
    ~Reports() { DebugLayer::setForTesting(DebugLayer::Mode::Off); }
    std::vector<std::string> lines;
};

class TensorTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->release(); }

    /// A new tensor (owned by the test) of the device; fails the test when it is not made.
    NS::SharedPtr<MTL::Tensor> deviceTensor(std::initializer_list<NS::Integer> dimensions,
                                            MTL::TensorDataType type = MTL::TensorDataTypeFloat32) {
        NS::Error* error = nullptr;
        auto tensor = NS::TransferPtr(device_->newTensor(descriptor(dimensions, type).get(), &error));
        EXPECT_NE(tensor.get(), nullptr) << (error ? error->localizedDescription()->utf8String() : "");
        return tensor;
    }
    /// The error Device::newTensor (or Buffer::newTensor when `buffer` is given) reports.
    std::string refusal(MTL::TensorDescriptor* settings, MTL::Buffer* buffer = nullptr, NS::UInteger offset = 0) {
        NS::Error* error = nullptr;
        MTL::Tensor* tensor =
            buffer ? buffer->newTensor(settings, offset, &error) : device_->newTensor(settings, &error);
        EXPECT_EQ(tensor, nullptr);
        if (tensor) tensor->release();
        if (!error) return "(no error)";
        EXPECT_STREQ(error->domain()->utf8String(), "MTLTensorDomain");
        EXPECT_EQ(error->code(), MTL::TensorErrorInvalidDescriptor);
        return error->localizedDescription()->utf8String();
    }

    NS::SharedPtr<MTL::Device> device_ = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that device tensors of rank 1 to 4 report their shape with packed strides, start
// zeroed, wrap no program-visible buffer and round-trip their contents through whole-tensor
// copies.
TEST_F(TensorTest, DeviceTensorsOfRankOneToFour) {
    const std::vector<std::vector<NS::Integer>> shapes = {{7}, {5, 3}, {4, 3, 2}, {3, 2, 2, 5}};
    for (const auto& shape : shapes) {
        SCOPED_TRACE(shape.size());
        auto settings = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
        settings->setDimensions(
            NS::TransferPtr(MTL::TensorExtents::alloc()->init(shape.size(), shape.data())).get());
        settings->setDataType(MTL::TensorDataTypeInt32);
        settings->setUsage(MTL::TensorUsageCompute);
        NS::Error* error = nullptr;
        auto tensor = NS::TransferPtr(device_->newTensor(settings.get(), &error));
        ASSERT_NE(tensor.get(), nullptr);
        EXPECT_EQ(error, nullptr);
        EXPECT_EQ(valuesOf(tensor->dimensions()), shape);
        std::vector<NS::Integer> packed;
        NS::Integer stride = 1;
        for (NS::Integer extent : shape) {
            packed.push_back(stride);
            stride *= extent;
        }
        EXPECT_EQ(valuesOf(tensor->strides()), packed);
        EXPECT_EQ(tensor->dataType(), MTL::TensorDataTypeInt32);
        EXPECT_EQ(tensor->usage(), MTL::TensorUsageCompute);
        EXPECT_EQ(tensor->buffer(), nullptr);
        EXPECT_EQ(tensor->bufferOffset(), 0u);
        EXPECT_EQ(tensor->device(), device_.get());
        EXPECT_GE(tensor->allocatedSize(), static_cast<NS::UInteger>(stride) * 4);

        const auto dims = NS::TransferPtr(MTL::TensorExtents::alloc()->init(shape.size(), shape.data()));
        std::vector<NS::Integer> zeros(shape.size(), 0);
        const auto origin = NS::TransferPtr(MTL::TensorExtents::alloc()->init(zeros.size(), zeros.data()));
        const auto strides = NS::TransferPtr(MTL::TensorExtents::alloc()->init(packed.size(), packed.data()));
        std::vector<std::int32_t> read(static_cast<std::size_t>(stride), -1);
        tensor->getBytes(read.data(), strides.get(), origin.get(), dims.get());
        EXPECT_EQ(read, std::vector<std::int32_t>(read.size(), 0));
        std::vector<std::int32_t> written(read.size());
        std::iota(written.begin(), written.end(), 100);
        tensor->replaceSliceOrigin(origin.get(), dims.get(), written.data(), strides.get());
        tensor->getBytes(read.data(), strides.get(), origin.get(), dims.get());
        EXPECT_EQ(read, written);
    }
}

// Test that a slice copied in at an origin lands exactly there (innermost dimension first),
// reading the program's data with its own strides, and that getBytes of an inner slice
// writes with the strides it is given and leaves the gaps alone.
TEST_F(TensorTest, SlicesAtOriginsWithStrides) {
    auto tensor = deviceTensor({6, 5, 3}); // dim 0 has 6 elements, packed strides {1, 6, 30}
    ASSERT_NE(tensor.get(), nullptr);
    // A 3 x 2 x 2 slice at (2, 1, 1), read from a host array with padded rows {1, 4, 16}.
    std::vector<float> source(32, -1.0f);
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x) source[static_cast<std::size_t>(x + 4 * y + 16 * z)] = float(100 * z + 10 * y + x);
    tensor->replaceSliceOrigin(extents({2, 1, 1}).get(), extents({3, 2, 2}).get(), source.data(),
                               extents({1, 4, 16}).get());

    std::vector<float> whole(90, -7.0f);
    tensor->getBytes(whole.data(), extents({1, 6, 30}).get(), extents({0, 0, 0}).get(), extents({6, 5, 3}).get());
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 5; ++y)
            for (int x = 0; x < 6; ++x) {
                const bool inside = x >= 2 && x < 5 && y >= 1 && y < 3 && z >= 1 && z < 3;
                const float expected = inside ? float(100 * (z - 1) + 10 * (y - 1) + (x - 2)) : 0.0f;
                EXPECT_EQ(whole[static_cast<std::size_t>(x + 6 * y + 30 * z)], expected) << x << "," << y << "," << z;
            }

    // Read the slice back column-major-ish: host strides {2, 1, 6} put dim 1 innermost.
    std::vector<float> target(12 + 2, 55.0f);
    tensor->getBytes(target.data(), extents({2, 1, 6}).get(), extents({2, 1, 1}).get(), extents({3, 2, 2}).get());
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x)
                EXPECT_EQ(target[static_cast<std::size_t>(2 * x + y + 6 * z)], float(100 * z + 10 * y + x));
    EXPECT_EQ(target[12], 55.0f); // past the slice: untouched
    EXPECT_EQ(target[13], 55.0f);
}

// Test that a tensor over a buffer uses the buffer's memory at its offset with the
// descriptor's strides, shows the buffer, and keeps it alive.
TEST_F(TensorTest, BufferTensorsUseTheBufferAtTheirOffset) {
    auto buffer = NS::TransferPtr(device_->newBuffer(4096, MTL::ResourceStorageModeShared));
    auto settings = descriptor({3, 4}, MTL::TensorDataTypeFloat16); // 4 rows of 3 halfs, rows 8 apart
    settings->setStrides(extents({1, 8}).get());
    NS::Error* error = nullptr;
    auto tensor = NS::TransferPtr(buffer->newTensor(settings.get(), 256, &error));
    ASSERT_NE(tensor.get(), nullptr) << (error ? error->localizedDescription()->utf8String() : "");
    EXPECT_EQ(tensor->buffer(), buffer.get());
    EXPECT_EQ(tensor->bufferOffset(), 256u);
    EXPECT_EQ(valuesOf(tensor->strides()), (std::vector<NS::Integer>{1, 8}));
    EXPECT_EQ(tensor->allocatedSize(), 0u);

    const std::uint16_t row[3] = {0x3c00, 0x4000, 0x4200};
    tensor->replaceSliceOrigin(extents({0, 2}).get(), extents({3, 1}).get(), row, extents({1, 3}).get());
    auto* bytes = static_cast<std::uint16_t*>(buffer->contents());
    EXPECT_EQ(bytes[128 + 16 + 0], 0x3c00);
    EXPECT_EQ(bytes[128 + 16 + 2], 0x4200);
    EXPECT_EQ(bytes[128 + 16 + 3], 0); // the stride's padding is not written
    bytes[128 + 8 * 3 + 1] = 0x1234;   // and the program's writes show through
    std::uint16_t element = 0;
    tensor->getBytes(&element, extents({1, 1}).get(), extents({1, 3}).get(), extents({1, 1}).get());
    EXPECT_EQ(element, 0x1234);

    MTL::Buffer* kept = buffer.get();
    const NS::UInteger before = kept->retainCount();
    tensor.reset();
    EXPECT_EQ(kept->retainCount(), before - 1);
}

// Test that the last element of a buffer tensor may end exactly at the end of the buffer,
// one element more is refused, and offsets must be aligned to the element size.
TEST_F(TensorTest, BufferTensorBoundsAndOffsets) {
    auto buffer = NS::TransferPtr(device_->newBuffer(64, MTL::ResourceStorageModeShared));
    auto settings = descriptor({4, 2}); // 32 bytes packed
    NS::Error* error = nullptr;
    auto fits = NS::TransferPtr(buffer->newTensor(settings.get(), 32, &error));
    EXPECT_NE(fits.get(), nullptr);
    EXPECT_NE(refusal(settings.get(), buffer.get(), 36).find("beyond the buffer's length (64)"), std::string::npos);
    EXPECT_NE(refusal(settings.get(), buffer.get(), 6).find("offset 6 is not a multiple of the element size (4"),
              std::string::npos);
    EXPECT_NE(refusal(settings.get(), buffer.get(), 1u << 20).find("beyond the buffer's length"), std::string::npos);
    settings->setStrides(extents({1, 4}).get()); // packed, given explicitly: the same
    auto explicitStrides = NS::TransferPtr(buffer->newTensor(settings.get(), 0, &error));
    EXPECT_NE(explicitStrides.get(), nullptr);
}

// Test that descriptors Metal refuses fail with TensorErrorInvalidDescriptor and a message
// naming the problem.
TEST_F(TensorTest, InvalidDescriptorsAreRefusedWithClearErrors) {
    auto buffer = NS::TransferPtr(device_->newBuffer(4096, MTL::ResourceStorageModeShared));
    auto rankZero = descriptor({});
    EXPECT_NE(refusal(rankZero.get()).find("rank 0 is outside 1 to 16"), std::string::npos);
    auto zeroExtent = descriptor({4, 0});
    EXPECT_NE(refusal(zeroExtent.get()).find("dimension 1 has extent 0"), std::string::npos);
    auto negative = descriptor({-3});
    EXPECT_NE(refusal(negative.get()).find("dimension 0 has extent -3"), std::string::npos);
    auto none = descriptor({4}, MTL::TensorDataTypeNone);
    EXPECT_NE(refusal(none.get()).find("MTLTensorDataTypeNone"), std::string::npos);
    auto int4 = descriptor({4}, MTL::TensorDataTypeInt4);
    EXPECT_NE(refusal(int4.get()).find("MTLTensorDataTypeInt4 tensors are not supported"), std::string::npos);

    auto firstStride = descriptor({4, 4});
    firstStride->setStrides(extents({2, 8}).get());
    EXPECT_NE(refusal(firstStride.get(), buffer.get()).find("strides[0] is 2, which must be 1"), std::string::npos);
    auto overlapping = descriptor({4, 4});
    overlapping->setStrides(extents({1, 3}).get());
    EXPECT_NE(refusal(overlapping.get(), buffer.get()).find("strides[1] is 3, less than"), std::string::npos);
    auto strideRank = descriptor({4, 4});
    strideRank->setStrides(extents({1}).get());
    EXPECT_NE(refusal(strideRank.get(), buffer.get()).find("strides have rank 1"), std::string::npos);

    // Sizes that wrap 64 bits: a 4-byte allocation for {1, 2^62 + 1} elements, and a buffer
    // tensor whose strides reach past every address, were accepted and later faulted.
    const NS::Integer huge = NS::Integer(1) << 62;
    auto wrapping = descriptor({1, huge + 1});
    EXPECT_NE(refusal(wrapping.get()).find("more than maxBufferLength"), std::string::npos) << refusal(wrapping.get());
    auto tooMany = descriptor({4, huge});
    EXPECT_NE(refusal(tooMany.get()).find("more than 2^63 elements"), std::string::npos) << refusal(tooMany.get());
    auto far = descriptor({2, 2});
    far->setStrides(extents({1, huge}).get());
    EXPECT_NE(refusal(far.get(), buffer.get()).find("beyond the buffer's length"), std::string::npos)
        << refusal(far.get(), buffer.get());
    auto wrappingStride = descriptor({2, NS::Integer(1) << 40, 2});
    wrappingStride->setStrides(extents({1, NS::Integer(1) << 30, huge}).get());
    EXPECT_NE(refusal(wrappingStride.get(), buffer.get()).find("exceeds 2^63"), std::string::npos)
        << refusal(wrappingStride.get(), buffer.get());
    EXPECT_EQ(device_->tensorSizeAndAlign(far.get()).size, 0u);

    auto withPlanes = descriptor({32});
    auto planes = NS::TransferPtr(MTL::TensorAuxiliaryPlaneDescriptorMap::alloc()->init());
    auto plane = NS::TransferPtr(MTL::TensorAuxiliaryPlaneDescriptor::alloc()->init());
    planes->setDescriptor(plane.get(), MTL::TensorPlaneTypeScales);
    withPlanes->setAuxiliaryPlanes(planes.get());
    EXPECT_NE(refusal(withPlanes.get()).find("auxiliary planes"), std::string::npos);

    // Device tensors are packed: strides on the descriptor are for buffer tensors only.
    auto ignored = descriptor({4, 4});
    ignored->setStrides(extents({2, 8}).get());
    NS::Error* error = nullptr;
    auto made = NS::TransferPtr(device_->newTensor(ignored.get(), &error));
    ASSERT_NE(made.get(), nullptr);
    EXPECT_EQ(valuesOf(made->strides()), (std::vector<NS::Integer>{1, 4}));
}

// Test that tensorSizeAndAlign covers the last element (with the descriptor's strides) and
// returns zero for a descriptor no tensor can have.
TEST_F(TensorTest, SizeAndAlign) {
    auto packed = descriptor({5, 3}, MTL::TensorDataTypeFloat16);
    MTL::SizeAndAlign size = device_->tensorSizeAndAlign(packed.get());
    EXPECT_GE(size.size, 30u);
    ASSERT_GT(size.align, 0u);
    EXPECT_EQ(size.size % size.align, 0u);
    auto strided = descriptor({5, 3}, MTL::TensorDataTypeFloat32);
    strided->setStrides(extents({1, 100}).get());
    EXPECT_GE(device_->tensorSizeAndAlign(strided.get()).size, (200u + 5u) * 4u);
    EXPECT_LT(device_->tensorSizeAndAlign(strided.get()).size, (200u + 5u) * 4u + 64u);
    auto invalid = descriptor({0});
    EXPECT_EQ(device_->tensorSizeAndAlign(invalid.get()).size, 0u);
    EXPECT_EQ(device_->tensorSizeAndAlign(nullptr).size, 0u);
}

// Test that a tensor's resource ID finds it while it lives and nothing after, and that the
// kernel view describes its elements, shape and strides.
TEST_F(TensorTest, ResourceIDsAndKernelView) {
    auto buffer = NS::TransferPtr(device_->newBuffer(4096, MTL::ResourceStorageModeShared));
    auto settings = descriptor({3, 2, 2}, MTL::TensorDataTypeInt8);
    settings->setStrides(extents({1, 4, 16}).get());
    NS::Error* error = nullptr;
    MTL::Tensor* tensor = buffer->newTensor(settings.get(), 64, &error);
    ASSERT_NE(tensor, nullptr);
    const MTL::ResourceID id = tensor->gpuResourceID();
    metalcpu::rt::Tensor* found = metalcpu::rt::Tensor::fromResourceID(id);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->rank(), 3u);
    EXPECT_EQ(found->dataType(), MTL::TensorDataTypeInt8);
    EXPECT_EQ(static_cast<MTL::Buffer*>(found->buffer()), buffer.get());
    mc_tensor view;
    std::memset(&view, 0xff, sizeof view);
    found->kernelView(view);
    EXPECT_EQ(view.data, static_cast<char*>(buffer->contents()) + 64);
    EXPECT_EQ(view.checked, 0u);
    EXPECT_EQ(view.rank, 3u);
    EXPECT_EQ(view.data_type, static_cast<mc_u32>(MTL::TensorDataTypeInt8));
    EXPECT_EQ(view.extents[0], 3);
    EXPECT_EQ(view.extents[2], 2);
    EXPECT_EQ(view.strides[1], 4);
    EXPECT_EQ(view.strides[2], 16);
    EXPECT_EQ(view.extents[3], 0);
    EXPECT_EQ(metalcpu::rt::Tensor::fromResourceID(MTL::ResourceID{id._impl + 8}), nullptr);
    EXPECT_EQ(metalcpu::rt::Tensor::fromResourceID(MTL::ResourceID{0}), nullptr);
    tensor->release();
    EXPECT_EQ(metalcpu::rt::Tensor::fromResourceID(id), nullptr);
}

// Test that slice copies outside the tensor, of the wrong rank, or into private storage are
// reported by the debug layer and copy nothing.
TEST_F(TensorTest, BadSliceCopiesAreReportedAndSkipped) {
    auto tensor = deviceTensor({4, 4});
    ASSERT_NE(tensor.get(), nullptr);
    float values[16];
    std::fill(std::begin(values), std::end(values), 3.0f);
    Reports reports;
    tensor->replaceSliceOrigin(extents({2, 0}).get(), extents({3, 1}).get(), values, extents({1, 3}).get());
    tensor->replaceSliceOrigin(extents({0}).get(), extents({4}).get(), values, extents({1}).get());
    ASSERT_EQ(reports.lines.size(), 2u);
    EXPECT_NE(reports.lines[0].find("MTLDebugTensor replaceSliceOrigin:sliceDimensions:withBytes:strides:"),
              std::string::npos);
    EXPECT_NE(reports.lines[0].find("(origin 2, size 3) of dimension 0 is outside the tensor's extent 4"),
              std::string::npos);
    EXPECT_NE(reports.lines[1].find("sliceOrigin has rank 1 but the tensor has rank 2"), std::string::npos);
    float read[16];
    tensor->getBytes(read, extents({1, 4}).get(), extents({0, 0}).get(), extents({4, 4}).get());
    for (float value : read) EXPECT_EQ(value, 0.0f);

    auto privateSettings = descriptor({4});
    privateSettings->setStorageMode(MTL::StorageModePrivate);
    NS::Error* error = nullptr;
    auto privateTensor = NS::TransferPtr(device_->newTensor(privateSettings.get(), &error));
    ASSERT_NE(privateTensor.get(), nullptr);
    EXPECT_EQ(privateTensor->storageMode(), MTL::StorageModePrivate);
    privateTensor->getBytes(read, extents({1}).get(), extents({0}).get(), extents({4}).get());
    ASSERT_EQ(reports.lines.size(), 3u);
    EXPECT_NE(reports.lines[2].find("MTLStorageModePrivate"), std::string::npos);
}

// Test that Device::newTensor with buffer attachments puts the data plane in the attached
// buffer.
TEST_F(TensorTest, DataPlaneAttachment) {
    auto buffer = NS::TransferPtr(device_->newBuffer(256, MTL::ResourceStorageModeShared));
    auto attachments = NS::TransferPtr(MTL::TensorBufferAttachments::alloc()->init());
    attachments->setBuffer(buffer.get(), 128, MTL::TensorPlaneTypeData);
    NS::Error* error = nullptr;
    auto tensor = NS::TransferPtr(device_->newTensor(descriptor({8}).get(), attachments.get(), &error));
    ASSERT_NE(tensor.get(), nullptr);
    EXPECT_EQ(tensor->buffer(), buffer.get());
    EXPECT_EQ(tensor->bufferOffset(), 128u);
}

METALCPU_NIL_TEST_BODY void messageNilTensor() {
    MTL::Tensor* tensor = metalcpu::ns::testing::nil<MTL::Tensor>();
    float value = 1.0f;
    EXPECT_EQ(tensor->dimensions(), nullptr);
    EXPECT_EQ(tensor->dataType(), MTL::TensorDataTypeNone);
    EXPECT_EQ(tensor->gpuResourceID()._impl, 0u);
    tensor->replaceSliceOrigin(nullptr, nullptr, &value, nullptr);
    tensor->getBytes(&value, nullptr, nullptr, nullptr);
    EXPECT_EQ(value, 1.0f);
}

// Test that tensor methods on nil do nothing and return zero.
TEST(TensorNilTest, NilReceivers) { messageNilTensor(); }

} // namespace
