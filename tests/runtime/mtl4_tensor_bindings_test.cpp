// Tensors bound to an MTL4 argument table by setResource(tensor->gpuResourceID(), i): what a
// tensor_handle parameter receives, and the encode-time checks of data type and rank; and the
// compute encoder's copyFromTensor. The kernel here is written by hand against the kernel ABI
// (an mc_kernel whose run_group reads the mc_tensor at buffer(0)), so these tests see exactly
// the mc_tensor the runtime hands over; compiled tensor_handle kernels are tested in
// tensor_validation_test.cpp and by samples/tensor_matmul.
#include "mtl4_test.h"

#include "foundation/object.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

/// `read_tensor(tensor<device float, dextents<int, 2>> t [[buffer(0)]], device float* out [[buffer(1)]])`
/// in one thread: writes {rank, data type, extent 0, extent 1} and then the elements in
/// order (dim 0 fastest), read through the strides.
void readTensor(const mc_group* group) {
    const auto* tensor = static_cast<const mc_tensor*>(group->dispatch->buffers[0]);
    auto* out = static_cast<float*>(group->dispatch->buffers[1]);
    out[0] = float(tensor->rank);
    out[1] = float(tensor->data_type);
    out[2] = float(tensor->extents[0]);
    out[3] = float(tensor->extents[1]);
    const auto* data = static_cast<const float*>(tensor->data);
    for (mc_i64 y = 0; y < tensor->extents[1]; ++y)
        for (mc_i64 x = 0; x < tensor->extents[0]; ++x)
            out[4 + y * tensor->extents[0] + x] = data[x * tensor->strides[0] + y * tensor->strides[1]];
}

const mc_param kParams[] = {
    {"t", "tensor<device float, dextents<int, 2>>", MC_PARAM_TENSOR, 0, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_ONLY,
     0, 0, 0, 0, 1, 1, 0, 0, 2, static_cast<mc_u32>(MTL::TensorDataTypeFloat32), 0, nullptr, 0, 0, nullptr},
    {"out", "device float*", MC_PARAM_BUFFER, 1, MC_ADDRESS_SPACE_DEVICE, MC_ACCESS_READ_WRITE, 0, 0, 4, 4, 1, 1, 0, 0,
     0, 0, 0, nullptr, MTL::DataTypeFloat, 0, nullptr},
};
const mc_kernel kReadTensor = {"read_tensor", "mtl4_tensor_bindings_test", 1, 1, 0, 0, 2, kParams, readTensor,
                               nullptr, 0, nullptr, "read_tensor", 0, "", nullptr};

NS::SharedPtr<MTL::TensorExtents> extents(std::vector<NS::Integer> values) {
    return NS::TransferPtr(MTL::TensorExtents::alloc()->init(values.size(), values.data()));
}

class Mtl4TensorBindingsTest : public Mtl4Test {
protected:
    void SetUp() override {
        Mtl4Test::SetUp();
        pipeline_ = own(ns::make<rt::ComputePipelineState>(rt::Device::systemDefault(), nullptr, &kReadTensor, 1024,
                                                           0, false, "mtl4-tensor-bindings-test"));
        out_ = buffer(64 * sizeof(float));
        table_ = table(2);
        table_->setAddress(out_->gpuAddress(), 1);
    }

    /// A tensor of `dims` (by default 3 x 2: dim 0 has 3 elements) of `type`; a float one of
    /// rank 2 holds 0, 1, ... in packed order.
    MTL::Tensor* tensor(MTL::TensorDataType type = MTL::TensorDataTypeFloat32, std::vector<NS::Integer> dims = {3, 2}) {
        auto descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
        descriptor->setDimensions(extents(dims).get());
        descriptor->setDataType(type);
        NS::Error* error = nullptr;
        MTL::Tensor* made = own(device_->newTensor(descriptor.get(), &error));
        EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (made && type == MTL::TensorDataTypeFloat32 && dims.size() == 2) {
            // The values packed: a row of dims[0], so dimension 1's stride is dims[0].
            std::vector<float> values(std::size_t(dims[0] * dims[1]));
            for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i);
            made->replaceSliceOrigin(extents({0, 0}).get(), extents(dims).get(), values.data(),
                                     extents({1, dims[0]}).get());
        }
        return made;
    }
    /// Dispatches read_tensor once and commits.
    CommitResult run() {
        record(pipeline_, table_, MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        return commit({commandBuffer_});
    }
    const float* out() const { return static_cast<const float*>(out_->contents()); }

    MTL::ComputePipelineState* pipeline_ = nullptr;
    MTL::Buffer* out_ = nullptr;
    MTL4::ArgumentTable* table_ = nullptr;
};

// Test that a tensor bound by resource ID reaches the kernel as an mc_tensor describing it.
TEST_F(Mtl4TensorBindingsTest, TensorReachesKernel) {
    MTL::Tensor* bound = tensor();
    ASSERT_NE(bound, nullptr);
    table_->setResource(bound->gpuResourceID(), 0);
    CommitResult result = run();
    ASSERT_FALSE(result.failed) << result.error;
    EXPECT_EQ(out()[0], 2.0f);
    EXPECT_EQ(out()[1], float(MTL::TensorDataTypeFloat32));
    EXPECT_EQ(out()[2], 3.0f);
    EXPECT_EQ(out()[3], 2.0f);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(out()[4 + i], float(i)) << i;
}

// Test that the tensor is the one bound at the dispatch, not at the commit.
TEST_F(Mtl4TensorBindingsTest, TensorSnapshotAtDispatch) {
    MTL::Tensor* first = tensor();
    MTL::Tensor* second = tensor(MTL::TensorDataTypeFloat32, {2, 3});
    ASSERT_NE(second, nullptr);
    table_->setResource(first->gpuResourceID(), 0);
    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline_);
    encoder->setArgumentTable(table_);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    table_->setResource(second->gpuResourceID(), 0);
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    CommitResult result = commit({commandBuffer_});
    ASSERT_FALSE(result.failed) << result.error;
    EXPECT_EQ(out()[2], 3.0f); // the first tensor's extent 0
}

// Test that a tensor of another data type or rank than the parameter's fails at encode
// time with a message naming both, and that a missing tensor fails too.
TEST_F(Mtl4TensorBindingsTest, MismatchedTensorRejected) {
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                  [&](const std::string& line) { reports.push_back(line); });
    table_->setResource(tensor(MTL::TensorDataTypeInt32)->gpuResourceID(), 0);
    CommitResult result = run();
    EXPECT_TRUE(result.failed);
    // Apple's names of the data types, not their numbers (29 and 3 say nothing to a reader).
    const std::string typeMessage =
        "Compute Function(read_tensor): tensor bound at index 0 for t has data type MTLTensorDataTypeInt32 and rank 2, "
        "but the argument (tensor<device float, dextents<int, 2>>) has data type MTLTensorDataTypeFloat32 and rank 2.";
    EXPECT_EQ(result.error, typeMessage);

    table_->setResource(tensor(MTL::TensorDataTypeFloat32, {6})->gpuResourceID(), 0);
    result = run();
    EXPECT_NE(result.error.find("has data type MTLTensorDataTypeFloat32 and rank 1,"), std::string::npos)
        << result.error;

    table_->setResource(MTL::ResourceID{0}, 0);
    result = run();
    EXPECT_EQ(result.error, "Compute Function(read_tensor): tensor binding at index 0 for t was never set.");
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    ASSERT_EQ(reports.size(), 3u);
    EXPECT_EQ(reports[0], "validateComputeFunctionArguments:1126: failed assertion `" + typeMessage + "'");
    EXPECT_EQ(out()[0], 0.0f); // the kernel never ran
}

// Test that API validation holds a bound tensor to Metal 4's residency rule: outside every
// set it is reported (with the output buffer) and the dispatch fails; in a committed set the
// command buffer uses, the kernel runs silently.
TEST_F(Mtl4TensorBindingsTest, TensorMustBeInAResidencySet) {
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                  [&](const std::string& line) { reports.push_back(line); });
    MTL::Tensor* bound = tensor();
    ASSERT_NE(bound, nullptr);
    table_->setResource(bound->gpuResourceID(), 0);
    const std::string tensorMessage = "Compute Function(read_tensor): the tensor bound at index 0 for t (label: (null)) "
                                      "is in no committed residency set of the command buffer or its command queue.";
    CommitResult result = run();
    EXPECT_EQ(result.error, tensorMessage);
    ASSERT_EQ(reports.size(), 2u);
    EXPECT_EQ(reports[0], "-[MTL4DebugCommandQueue commit:count:options:]:440: failed assertion `" + tensorMessage + "'");
    EXPECT_NE(reports[1].find("the buffer bound at index 1 for out[0]"), std::string::npos) << reports[1];
    EXPECT_EQ(out()[0], 0.0f);

    reports.clear();
    record(pipeline_, table_, MTL::Size(1, 1, 1), MTL::Size(1, 1, 1), {residencySet({bound, out_})});
    result = commit({commandBuffer_});
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    EXPECT_FALSE(result.failed) << result.error;
    EXPECT_TRUE(reports.empty()) << reports.front();
    EXPECT_EQ(out()[0], 2.0f); // the rank the kernel read
}

/// A tensor of `dims` floats over `storage` from byte `offset`, rows `rowStride` elements apart.
MTL::Tensor* tensorOver(MTL::Buffer* storage, std::vector<NS::Integer> dims, NS::Integer rowStride,
                        NS::UInteger offset) {
    auto descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    descriptor->setDimensions(extents(dims).get());
    descriptor->setStrides(extents({1, rowStride}).get());
    descriptor->setDataType(MTL::TensorDataTypeFloat32);
    NS::Error* error = nullptr;
    MTL::Tensor* made = storage->newTensor(descriptor.get(), offset, &error);
    EXPECT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
    return made;
}

// Test copyFromTensor: a 3 x 2 slice of a device tensor into a slice of a strided tensor over
// a buffer (rows 8 apart, at an offset), in order with a fill before it, elements outside the
// destination slice untouched; then a reshaping copy (3 x 2 into 6 x 1, element order kept).
TEST_F(Mtl4TensorBindingsTest, CopyFromTensorCopiesSlices) {
    MTL::Tensor* source = tensor(MTL::TensorDataTypeFloat32, {5, 4});
    ASSERT_NE(source, nullptr);
    std::vector<float> values(20);
    for (int i = 0; i < 20; ++i) values[i] = float(i + 1);
    source->replaceSliceOrigin(extents({0, 0}).get(), extents({5, 4}).get(), values.data(), extents({1, 5}).get());
    MTL::Buffer* storage = buffer(64 * sizeof(float));
    MTL::Tensor* destination = own(tensorOver(storage, {6, 3}, 8, 4 * sizeof(float)));
    ASSERT_NE(destination, nullptr);
    auto* raw = static_cast<float*>(storage->contents());
    std::fill_n(raw, 64, -1.0f);

    commandBuffer_->beginCommandBuffer(allocator_);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
    encoder->fillBuffer(storage, NS::Range(0, 64 * sizeof(float)), 0);
    encoder->copyFromTensor(source, extents({1, 1}).get(), extents({3, 2}).get(), destination, extents({2, 0}).get(),
                            extents({3, 2}).get());
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    CommitResult result = commit({commandBuffer_});
    ASSERT_FALSE(result.failed) << result.error;
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 6; ++column) {
            const float got = raw[4 + row * 8 + column];
            const bool copied = row < 2 && column >= 2 && column < 5;
            EXPECT_EQ(got, copied ? values[std::size_t((row + 1) * 5 + column - 2 + 1)] : 0.0f) << row << "," << column;
        }
    EXPECT_EQ(raw[0], 0.0f); // the fill ran before, over the whole buffer

    commandBuffer_->beginCommandBuffer(allocator_);
    encoder = commandBuffer_->computeCommandEncoder();
    encoder->copyFromTensor(source, extents({0, 0}).get(), extents({3, 2}).get(), destination, extents({0, 2}).get(),
                            extents({6, 1}).get());
    encoder->endEncoding();
    commandBuffer_->endCommandBuffer();
    result = commit({commandBuffer_});
    ASSERT_FALSE(result.failed) << result.error;
    const float reshaped[6] = {1, 2, 3, 6, 7, 8};
    for (int column = 0; column < 6; ++column) EXPECT_EQ(raw[4 + 2 * 8 + column], reshaped[column]) << column;
}

// Test that copyFromTensor refuses, with a report and the command buffer failing there,
// tensors of different data types, a slice past its tensor and slices of different sizes.
TEST_F(Mtl4TensorBindingsTest, CopyFromTensorMistakesFailTheCommandBuffer) {
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                  [&](const std::string& line) { reports.push_back(line); });
    MTL::Tensor* floats = tensor();
    MTL::Tensor* ints = tensor(MTL::TensorDataTypeInt32);
    auto copy = [&](MTL::Tensor* to, std::vector<NS::Integer> sourceOrigin, std::vector<NS::Integer> dimensions,
                    std::vector<NS::Integer> destinationDimensions) {
        commandBuffer_->beginCommandBuffer(allocator_);
        MTL4::ComputeCommandEncoder* encoder = commandBuffer_->computeCommandEncoder();
        encoder->copyFromTensor(floats, extents(sourceOrigin).get(), extents(dimensions).get(), to,
                                extents({0, 0}).get(), extents(destinationDimensions).get());
        encoder->endEncoding();
        commandBuffer_->endCommandBuffer();
        return commit({commandBuffer_}).error;
    };
    const std::string prefix = "-[MTL4DebugComputeCommandEncoder copyFromTensor:sourceOrigin:sourceDimensions:toTensor:"
                               "destinationOrigin:destinationDimensions:]:";
    EXPECT_EQ(copy(ints, {0, 0}, {3, 2}, {3, 2}),
              "copyFromTensor: the source tensor's data type (MTLTensorDataTypeFloat32) must be the destination "
              "tensor's (MTLTensorDataTypeInt32).");
    EXPECT_EQ(copy(tensor(), {1, 0}, {3, 2}, {3, 2}),
              "copyFromTensor: (sourceOrigin[0] + sourceDimensions[0])(4) must be <= the source tensor's extent(3).");
    EXPECT_EQ(copy(tensor(), {0, 0}, {3, 2}, {2, 2}),
              "copyFromTensor: sourceDimensions hold 6 elements but destinationDimensions hold 4.");
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    ASSERT_EQ(reports.size(), 3u);
    EXPECT_EQ(reports[0].rfind(prefix + "1315: failed assertion `the source tensor's data type", 0), 0u) << reports[0];
    EXPECT_EQ(reports[1].rfind(prefix + "1320: failed assertion `(sourceOrigin[0]", 0), 0u) << reports[1];
    EXPECT_EQ(reports[2].rfind(prefix + "1330: failed assertion `sourceDimensions hold 6", 0), 0u) << reports[2];
}

} // namespace
} // namespace metalcpu::testing
