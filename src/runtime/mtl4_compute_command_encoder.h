#pragma once

#include "foundation/object.h"
#include "runtime/dispatch_builder.h"
#include "runtime/label.h"
#include "runtime/tensor.h"

#include <Metal/MTL4ComputeCommandEncoder.hpp>

#include <cstdint>

namespace metalcpu::rt {

class ComputePipelineState;
class Mtl4ArgumentTable;
class Mtl4CommandBuffer;

/// An MTL4 compute encoder: dispatches read the argument table set on the encoder, copied
/// at each dispatch (buildDispatch); buffer copies and fills are recorded as a blit encoder
/// records them, tensor copies as the buffer copies of their runs. Barriers have nothing to
/// order (a queue runs its commands one by one) but the hazard check's spans.
class Mtl4ComputeCommandEncoder final : public ns::Implements<MTL4::ComputeCommandEncoder> {
public:
    explicit Mtl4ComputeCommandEncoder(Mtl4CommandBuffer* commandBuffer);
    ~Mtl4ComputeCommandEncoder() override;
    const char* className() const override { return "MTL4ComputeCommandEncoder"; }

    Label& label() { return label_; }
    Mtl4CommandBuffer* commandBuffer() const { return commandBuffer_; }
    void endEncoding();

    void setPipeline(const MTL::ComputePipelineState* pipeline);
    void setArgumentTable(const MTL4::ArgumentTable* table);
    void setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index);
    /// dispatchThreads (`grid` counts threads) or dispatchThreadgroups (it counts groups).
    void dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads);
    void copy(const MTL::Buffer* source, std::uint64_t sourceOffset, const MTL::Buffer* destination,
              std::uint64_t destinationOffset, std::uint64_t size);
    void fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length, std::uint8_t value);
    /// copyFromTensor (encodeTensorCopy): recorded as buffer copies, in order with the rest.
    void copyTensor(const MTL::Tensor* source, Tensor::Extents sourceOrigin, Tensor::Extents sourceDimensions,
                    const MTL::Tensor* destination, Tensor::Extents destinationOrigin,
                    Tensor::Extents destinationDimensions);
    /// barrierAfterEncoderStages: from and to the dispatch stage, the dispatches after it no
    /// longer overlap those before it (the hazard check's spans).
    void barrierAfterEncoderStages(MTL::Stages afterStages, MTL::Stages beforeStages);

private:
    /// Whether `selector` may still record; false, reported, after endEncoding().
    bool usable(const char* selector);

    Mtl4CommandBuffer* commandBuffer_; ///< retained
    Label label_;
    bool ended_ = false;
    std::uint64_t index_ = 0;          ///< among the command buffer's encoders
    std::uint64_t dispatchesMade_ = 0;
    /// DispatchRequest::concurrentSpan of the next dispatch: Metal 4 runs an encoder's
    /// dispatches concurrently unless a barrier orders them.
    std::uint64_t concurrentSpan_;
    ComputePipelineState* pipeline_ = nullptr; ///< not retained; a dispatch keeps it alive
    Mtl4ArgumentTable* table_ = nullptr;       ///< not retained, as in Metal 4
    std::uint64_t threadgroupLengths_[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
};

} // namespace metalcpu::rt
