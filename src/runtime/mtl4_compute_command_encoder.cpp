#include "runtime/mtl4_compute_command_encoder.h"

#include "validation/dispatch_hazards.h"

#include "runtime/blit_command_encoder.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "runtime/mtl4_argument_table.h"
#include "runtime/mtl4_command_buffer.h"
#include "runtime/tensor_copy.h"

#include <algorithm>
#include <iterator>

namespace metalcpu::rt {
namespace {

constexpr const char* kClass = "MTL4DebugComputeCommandEncoder";

} // namespace

Mtl4ComputeCommandEncoder::Mtl4ComputeCommandEncoder(Mtl4CommandBuffer* commandBuffer)
    : commandBuffer_(commandBuffer), index_(commandBuffer->nextEncoderIndex()),
      concurrentSpan_(val::newConcurrentSpan()) {
    commandBuffer_->retain();
}

void Mtl4ComputeCommandEncoder::barrierAfterEncoderStages(MTL::Stages afterStages, MTL::Stages beforeStages) {
    if ((afterStages & MTL::StageDispatch) && (beforeStages & MTL::StageDispatch))
        concurrentSpan_ = val::newConcurrentSpan();
}

Mtl4ComputeCommandEncoder::~Mtl4ComputeCommandEncoder() {
    if (!ended_) {
        DebugLayer::reject({kClass, "dealloc", 80}, "Command encoder released without endEncoding");
        commandBuffer_->endEncoder(this);
    }
    commandBuffer_->release();
}

bool Mtl4ComputeCommandEncoder::usable(const char* selector) {
    if (!ended_) return true;
    DebugLayer::reject({kClass, selector, 90}, "Invalid usage because encoding has ended.");
    return false;
}

void Mtl4ComputeCommandEncoder::endEncoding() {
    if (ended_) return DebugLayer::reject({kClass, "endEncoding", 95}, "endEncoding was already called!");
    ended_ = true;
    commandBuffer_->endEncoder(this);
}

void Mtl4ComputeCommandEncoder::setPipeline(const MTL::ComputePipelineState* pipeline) {
    if (usable("setComputePipelineState:")) pipeline_ = ns::implOf<ComputePipelineState>(pipeline);
}

void Mtl4ComputeCommandEncoder::setArgumentTable(const MTL4::ArgumentTable* table) {
    if (!usable("setArgumentTable:")) return;
    if (!table) return DebugLayer::reject({kClass, "setArgumentTable:", 120}, "Argument table cannot be nil");
    table_ = ns::implOf<Mtl4ArgumentTable>(table);
}

void Mtl4ComputeCommandEncoder::setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index) {
    if (!usable("setThreadgroupMemoryLength:atIndex:")) return;
    if (index >= METALCPU_MAX_THREADGROUP_BINDINGS)
        return DebugLayer::reject({kClass, "setThreadgroupMemoryLength:atIndex:", 810},
                                  "index(" + std::to_string(index) + ") must be < " +
                                      std::to_string(METALCPU_MAX_THREADGROUP_BINDINGS) + ".");
    threadgroupLengths_[index] = length;
}

void Mtl4ComputeCommandEncoder::dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads) {
    const char* selector =
        gridCountsThreads ? "dispatchThreads:threadsPerThreadgroup:" : "dispatchThreadgroups:threadsPerThreadgroup:";
    if (!usable(selector)) return;
    // A kernel without arguments needs no table; one with arguments reads them from it.
    Bindings bindings;
    std::copy(std::begin(threadgroupLengths_), std::end(threadgroupLengths_), bindings.threadgroupLengths);
    bool bindsThroughTable = false;
    if (pipeline_)
        for (mc_u32 i = 0; i < pipeline_->kernel().param_count; ++i)
            bindsThroughTable |= pipeline_->kernel().params[i].kind != MC_PARAM_THREADGROUP;
    std::string error;
    if (bindsThroughTable && !table_) error = "No argument table was set on the encoder";
    else if (pipeline_ && table_ && !table_->snapshot(bindings, error))
        error = "kernel '" + std::string(pipeline_->kernel().name) + "': " + error;
    if (!error.empty()) {
        DebugLayer::report({kClass, selector, 1140}, error);
        DispatchCommand failed;
        failed.encodeError = error;
        commandBuffer_->append(std::move(failed));
        return;
    }
    const DispatchRequest request{kClass, selector, pipeline_, grid, threadsPerThreadgroup, gridCountsThreads,
                                  &label_, index_, dispatchesMade_, concurrentSpan_, true};
    const std::size_t command = commandBuffer_->nextCommand();
    if (!buildDispatch(request, bindings, *commandBuffer_->device(), *commandBuffer_)) return;
    ++dispatchesMade_;
    const DebugLayer::Mode layer = DebugLayer::mode();
    if (layer == DebugLayer::Mode::Assert || layer == DebugLayer::Mode::NSLog)
        commandBuffer_->residencyUses().note(command, pipeline_->kernel(), bindings);
}

void Mtl4ComputeCommandEncoder::copy(const MTL::Buffer* source, std::uint64_t sourceOffset,
                                     const MTL::Buffer* destination, std::uint64_t destinationOffset,
                                     std::uint64_t size) {
    if (usable("copyFromBuffer:sourceOffset:toBuffer:destinationOffset:size:"))
        encodeBufferCopy(*commandBuffer_, kClass, source, sourceOffset, destination, destinationOffset, size);
}

void Mtl4ComputeCommandEncoder::fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length,
                                     std::uint8_t value) {
    if (usable("fillBuffer:range:value:")) encodeBufferFill(*commandBuffer_, kClass, buffer, offset, length, value);
}

void Mtl4ComputeCommandEncoder::copyTensor(const MTL::Tensor* source, Tensor::Extents sourceOrigin,
                                           Tensor::Extents sourceDimensions, const MTL::Tensor* destination,
                                           Tensor::Extents destinationOrigin, Tensor::Extents destinationDimensions) {
    if (usable("copyFromTensor:sourceOrigin:sourceDimensions:toTensor:destinationOrigin:destinationDimensions:"))
        encodeTensorCopy(*commandBuffer_, kClass, source, sourceOrigin, sourceDimensions, destination,
                         destinationOrigin, destinationDimensions);
}

} // namespace metalcpu::rt
