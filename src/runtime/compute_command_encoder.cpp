#include "runtime/compute_command_encoder.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"
#include "support/log.h"
#include "validation/settings.h"

namespace metalcpu::rt {
namespace {

constexpr std::uint64_t kBindings = Device::kMaxBufferBindings;

std::string sizeText(const char* name, MTL::Size size) {
    return std::string("(") + name + ".width(" + std::to_string(size.width) + ") * " + name + ".height(" +
           std::to_string(size.height) + ") * " + name + ".depth(" + std::to_string(size.depth) + "))(" +
           std::to_string(size.width * size.height * size.depth) + ")";
}

} // namespace

ComputeCommandEncoder::ComputeCommandEncoder(CommandBuffer* commandBuffer, MTL::DispatchType dispatchType)
    : commandBuffer_(commandBuffer), dispatchType_(dispatchType) {
    commandBuffer_->retain();
    index_ = commandBuffer_->nextEncoderIndex();
}

ComputeCommandEncoder::~ComputeCommandEncoder() {
    if (!ended_) {
        support::log().error("Command encoder released without endEncoding");
        commandBuffer_->endEncoder(this);
    }
    commandBuffer_->release();
}

bool ComputeCommandEncoder::usable(const char* method) {
    if (!ended_) return true;
    support::log().error("{} after endEncoding: ignored", method);
    return false;
}

void ComputeCommandEncoder::setPipeline(const MTL::ComputePipelineState* pipeline) {
    if (!usable("setComputePipelineState")) return;
    pipeline_ = ns::implOf<ComputePipelineState>(pipeline);
}

void ComputeCommandEncoder::setBuffer(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t index) {
    if (!usable("setBuffer")) return;
    if (index >= kBindings) {
        support::log().error("setBuffer: index {} is out of range (the limit is {})", index, kBindings - 1);
        return;
    }
    buffers_[index] = Binding{ns::implOf<Buffer>(buffer), offset, nullptr, 0};
}

void ComputeCommandEncoder::setBufferOffset(std::uint64_t offset, std::uint64_t index) {
    if (!usable("setBufferOffset")) return;
    if (index >= kBindings) {
        support::log().error("setBufferOffset: index {} is out of range (the limit is {})", index, kBindings - 1);
        return;
    }
    buffers_[index].offset = offset;
}

void ComputeCommandEncoder::setBytes(const void* bytes, std::uint64_t length, std::uint64_t index) {
    if (!usable("setBytes")) return;
    if (index >= kBindings) {
        support::log().error("setBytes: index {} is out of range (the limit is {})", index, kBindings - 1);
        return;
    }
    buffers_[index] = Binding{nullptr, 0, commandBuffer_->copyBytes(bytes, length), length};
}

void ComputeCommandEncoder::setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index) {
    if (!usable("setThreadgroupMemoryLength")) return;
    if (index >= 31) {
        support::log().error("setThreadgroupMemoryLength: index {} is out of range", index);
        return;
    }
    threadgroupLengths_[index] = length;
}

void ComputeCommandEncoder::dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads) {
    if (!usable(gridCountsThreads ? "dispatchThreads" : "dispatchThreadgroups")) return;
    DispatchCommand command;
    exec::Dispatch& dispatch = command.dispatch;
    auto reject = [&](std::string message) {
        command.encodeError = std::move(message);
        commandBuffer_->append(std::move(command));
    };
    if (!pipeline_) return reject("dispatch without a compute pipeline state: call setComputePipelineState() first");
    const mc_kernel& kernel = pipeline_->kernel();
    const std::string kernelName = kernel.name;
    dispatch.kernel = &kernel;
    dispatch.kernelName = kernelName;

    const MTL::Size& tg = threadsPerThreadgroup;
    const std::uint64_t threads = std::uint64_t(tg.width) * tg.height * tg.depth;
    if (threads == 0) return reject("kernel '" + kernelName + "': " + sizeText("threadsPerThreadgroup", tg) + " must not be 0.");
    if (threads > Device::kMaxThreadsPerThreadgroup)
        return reject("kernel '" + kernelName + "': " + sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                      std::to_string(Device::kMaxThreadsPerThreadgroup) + ". (device threadgroup size limit)");
    if (threads > pipeline_->maxTotalThreadsPerThreadgroup())
        return reject("kernel '" + kernelName + "': " + sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                      std::to_string(pipeline_->maxTotalThreadsPerThreadgroup()) + ". (kernel threadgroup size limit)");
    if (grid.width == 0 || grid.height == 0 || grid.depth == 0) return; // nothing to run
    const std::uint64_t dims[3] = {grid.width, grid.height, grid.depth};
    const std::uint64_t group[3] = {tg.width, tg.height, tg.depth};
    for (int d = 0; d < 3; ++d) {
        std::uint64_t groups = gridCountsThreads ? (dims[d] + group[d] - 1) / group[d] : dims[d];
        std::uint64_t gridThreads = gridCountsThreads ? dims[d] : dims[d] * group[d];
        if (gridThreads > 0xffffffffull || groups > 0xffffffffull)
            return reject("kernel '" + kernelName + "': the grid is larger than UINT32_MAX threads in a dimension");
        dispatch.threadgroups[d] = static_cast<std::uint32_t>(groups);
        dispatch.gridThreads[d] = static_cast<std::uint32_t>(gridThreads);
        dispatch.parameters.threads_per_grid[d] = static_cast<std::uint32_t>(gridThreads);
        dispatch.parameters.threadgroups_per_grid[d] = static_cast<std::uint32_t>(groups);
        dispatch.parameters.threads_per_threadgroup[d] = static_cast<std::uint32_t>(group[d]);
    }
    dispatch.parameters.simd_width = commandBuffer_->device()->threadExecutionWidth();

    // Bind what the kernel declares, checking what Metal's debug layer would check.
    std::uint64_t threadgroupTotal = pipeline_->staticThreadgroupMemoryLength();
    const bool validated = pipeline_->validated();
    std::vector<val::BufferBinding> checkedBindings;
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        if (param.kind == MC_PARAM_BUFFER && validated) checkedBindings.push_back(checkedBinding(param));
        if (param.kind == MC_PARAM_BUFFER) {
            const Binding& binding = buffers_[param.index];
            // Shader validation reports the accesses through an unbound argument instead.
            if (!binding.bound() && validated) continue;
            if (!binding.bound())
                return reject("Compute Function(" + kernelName + "): missing buffer binding at index " +
                              std::to_string(param.index) + " for " + param.name + "[0].");
            if (binding.buffer) {
                if (binding.offset > binding.buffer->length())
                    return reject("Compute Function(" + kernelName + "): the offset (" + std::to_string(binding.offset) +
                                  ") of the buffer at index " + std::to_string(param.index) +
                                  " is beyond its length (" + std::to_string(binding.buffer->length()) + ")");
                dispatch.parameters.buffers[param.index] = binding.buffer->memory() + binding.offset;
                dispatch.parameters.buffer_lengths[param.index] = binding.buffer->length() - binding.offset;
                commandBuffer_->keepAlive(binding.buffer->asPublicClass());
            } else {
                dispatch.parameters.buffers[param.index] = binding.bytes;
                dispatch.parameters.buffer_lengths[param.index] = binding.bytesLength;
            }
            if (param.is_reference && dispatch.parameters.buffer_lengths[param.index] < param.pointee_size)
                return reject("Compute Function(" + kernelName + "): argument " + param.name +
                              "[0] from buffer index " + std::to_string(param.index) + " has space for " +
                              std::to_string(dispatch.parameters.buffer_lengths[param.index]) +
                              " bytes, but argument has a length(" + std::to_string(param.pointee_size) + ").");
        } else if (param.kind == MC_PARAM_THREADGROUP) {
            std::uint64_t length = threadgroupLengths_[param.index];
            if (length == 0)
                return reject("Compute Function(" + kernelName + "): missing threadgroupMemory binding at index " +
                              std::to_string(param.index) + " for " + param.name + "[0].");
            dispatch.threadgroupArgumentLengths[param.index] = length;
            threadgroupTotal += (length + 15) / 16 * 16;
        }
    }
    if (threadgroupTotal > Device::kMaxThreadgroupMemoryLength)
        return reject("Compute Function(" + kernelName + "): total used threadgroupMemoryLength(" +
                      std::to_string(threadgroupTotal) + ") must be <= " +
                      std::to_string(Device::kMaxThreadgroupMemoryLength) + ".");
    dispatch.threadgroupMemoryLimit = Device::kMaxThreadgroupMemoryLength;
    if (validated) {
        val::DispatchInfo info;
        info.kernel = kernelName;
        info.pipelineLabel = pipeline_->label().text();
        info.encoderLabel = label_.text(std::to_string(index_));
        info.dispatchIndex = dispatchesMade_;
        command.validation = std::make_shared<val::DispatchValidation>(
            std::move(info), std::move(checkedBindings), val::shaderValidationSettings());
    }
    ++dispatchesMade_;
    commandBuffer_->keepAlive(pipeline_->asPublicClass());
    commandBuffer_->append(std::move(command));
}

val::BufferBinding ComputeCommandEncoder::checkedBinding(const mc_param& param) const {
    const Binding& binding = buffers_[param.index];
    val::BufferBinding b;
    b.index = param.index;
    b.argumentName = param.name;
    b.space = param.address_space == MC_ADDRESS_SPACE_CONSTANT ? validation::AddressSpace::Constant
                                                                 : validation::AddressSpace::Device;
    b.bound = binding.bound();
    if (binding.buffer) {
        b.resourceBegin = reinterpret_cast<std::uint64_t>(binding.buffer->memory());
        b.resourceLength = binding.buffer->length();
        b.boundAddress = b.resourceBegin + binding.offset;
        b.label = binding.buffer->label().text("<unnamed>");
    } else if (binding.bytes) {
        b.resourceBegin = b.boundAddress = reinterpret_cast<std::uint64_t>(binding.bytes);
        b.resourceLength = binding.bytesLength;
        b.label = "<unnamed>";
    }
    return b;
}

void ComputeCommandEncoder::endEncoding() {
    if (ended_) {
        support::log().error("endEncoding was already called!");
        return;
    }
    ended_ = true;
    commandBuffer_->endEncoder(this);
}

} // namespace metalcpu::rt
