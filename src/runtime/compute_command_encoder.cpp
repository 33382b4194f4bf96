#include "runtime/compute_command_encoder.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/sampler_state.h"
#include "runtime/texture.h"
#include "support/log.h"
#include "validation/settings.h"

#include <algorithm>

namespace metalcpu::rt {
namespace {

constexpr std::uint64_t kBindings = Device::kMaxBufferBindings;
constexpr std::uint64_t kThreadgroupBindings = METALCPU_MAX_THREADGROUP_BINDINGS;

// Apple's names for the checks' places in debug-layer reports (DebugLayer::Site). Metal's
// debug layer reports setBytes under the selector with the attribute stride, whichever
// form the program called.
constexpr const char* kClass = "MTLDebugComputeCommandEncoder";
constexpr const char* kSetBuffer = "setBuffer:offset:atIndex:";
constexpr const char* kSetBufferOffset = "setBufferOffset:atIndex:";
constexpr const char* kSetBytes = "setBytes:length:attributeStride:atIndex:";
constexpr const char* kSetThreadgroupMemory = "setThreadgroupMemoryLength:atIndex:";
constexpr const char* kSetTexture = "setTexture:atIndex:";
constexpr const char* kSetSamplerState = "setSamplerState:atIndex:";

/// A check of validateComputeFunctionArguments, the layer's helper for bindings at dispatch.
DebugLayer::Site arguments(unsigned line) { return {nullptr, "validateComputeFunctionArguments", line}; }

/// width * height * depth, saturated rather than wrapped.
std::uint64_t volume(MTL::Size size) {
    if (size.width == 0 || size.height == 0 || size.depth == 0) return 0;
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(std::uint64_t(size.width), std::uint64_t(size.height), &product) ||
        __builtin_mul_overflow(product, std::uint64_t(size.depth), &product))
        return UINT64_MAX;
    return product;
}

/// `(name.width(w) * name.height(h) * name.depth(d))(product)`, as Metal prints sizes.
/// `heightName` is "height" except where Apple's text says "y".
std::string sizeText(const char* name, MTL::Size size, const char* heightName = "height") {
    return std::string("(") + name + ".width(" + std::to_string(size.width) + ") * " + name + "." + heightName +
           "(" + std::to_string(size.height) + ") * " + name + ".depth(" + std::to_string(size.depth) + "))(" +
           std::to_string(volume(size)) + ")";
}

std::string indexText(std::uint64_t index, std::uint64_t limit) {
    return "index(" + std::to_string(index) + ") must be < " + std::to_string(limit) + ".";
}

std::string offsetText(std::uint64_t offset, std::uint64_t length) {
    return "offset(" + std::to_string(offset) + ") must be < [buffer length](" + std::to_string(length) + ").";
}

/// The offset alignment Metal requires for a buffer argument: the element's alignment (at
/// most 16) in the device address space, 4 bytes in the constant address space.
std::uint64_t offsetAlignment(const mc_param& param) {
    if (param.address_space != MC_ADDRESS_SPACE_DEVICE) return 4;
    return std::clamp<std::uint64_t>(param.pointee_align, 1, 16);
}

} // namespace

ComputeCommandEncoder::ComputeCommandEncoder(CommandBuffer* commandBuffer, MTL::DispatchType dispatchType)
    : Implements(commandBuffer, kClass), dispatchType_(dispatchType), index_(commandBuffer->nextEncoderIndex()) {}

void ComputeCommandEncoder::setPipeline(const MTL::ComputePipelineState* pipeline) {
    if (!usable("setComputePipelineState:")) return;
    pipeline_ = ns::implOf<ComputePipelineState>(pipeline);
}

void ComputeCommandEncoder::setBuffer(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t index) {
    if (!usable(kSetBuffer)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBuffer, 363}, indexText(index, kBindings));
    Buffer* bound = ns::implOf<Buffer>(buffer);
    if (bound && offset >= bound->length() &&
        DebugLayer::report({kClass, kSetBuffer, 366}, offsetText(offset, bound->length())))
        return;
    buffers_[index] = Binding{bound, offset, nullptr, 0};
}

void ComputeCommandEncoder::setBufferOffset(std::uint64_t offset, std::uint64_t index) {
    if (!usable(kSetBufferOffset)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBufferOffset, 389}, indexText(index, kBindings));
    const Buffer* bound = buffers_[index].buffer;
    if (bound && offset >= bound->length() &&
        DebugLayer::report({kClass, kSetBufferOffset, 392}, offsetText(offset, bound->length())))
        return;
    buffers_[index].offset = offset;
}

void ComputeCommandEncoder::setBytes(const void* bytes, std::uint64_t length, std::uint64_t index) {
    if (!usable(kSetBytes)) return;
    if (index >= kBindings) return DebugLayer::reject({kClass, kSetBytes, 397}, indexText(index, kBindings));
    if (length > Device::kMaxSetBytesLength &&
        DebugLayer::report({kClass, kSetBytes, 400}, "length(" + std::to_string(length) + ") must be <= " +
                                                         std::to_string(Device::kMaxSetBytesLength) + "."))
        return;
    buffers_[index] = Binding{nullptr, 0, commandBuffer_->copyBytes(bytes, length), length};
}

void ComputeCommandEncoder::setThreadgroupMemoryLength(std::uint64_t length, std::uint64_t index) {
    if (!usable(kSetThreadgroupMemory)) return;
    if (index >= kThreadgroupBindings)
        return DebugLayer::reject({kClass, kSetThreadgroupMemory, 810}, indexText(index, kThreadgroupBindings));
    const std::string lengthText = "length(" + std::to_string(length) + ")";
    if (length > Device::kMaxThreadgroupMemoryLength &&
        DebugLayer::report({kClass, kSetThreadgroupMemory, 814},
                           lengthText + " must be <= " + std::to_string(Device::kMaxThreadgroupMemoryLength) + "."))
        return;
    if (length % 16 != 0 &&
        DebugLayer::report({kClass, kSetThreadgroupMemory, 817}, lengthText + " must be a multiple of 16 bytes."))
        return;
    threadgroupLengths_[index] = length;
}

void ComputeCommandEncoder::setTexture(const MTL::Texture* texture, std::uint64_t index) {
    if (!usable(kSetTexture)) return;
    if (index >= METALCPU_MAX_TEXTURE_BINDINGS)
        return DebugLayer::reject({kClass, kSetTexture, 420}, indexText(index, METALCPU_MAX_TEXTURE_BINDINGS));
    textures_[index] = ns::implOf<Texture>(texture);
}

void ComputeCommandEncoder::setSamplerState(const MTL::SamplerState* sampler, std::uint64_t index) {
    if (!usable(kSetSamplerState)) return;
    if (index >= METALCPU_MAX_SAMPLER_BINDINGS)
        return DebugLayer::reject({kClass, kSetSamplerState, 455}, indexText(index, METALCPU_MAX_SAMPLER_BINDINGS));
    samplers_[index] = ns::implOf<SamplerState>(sampler);
}

void ComputeCommandEncoder::dispatch(MTL::Size grid, MTL::Size threadsPerThreadgroup, bool gridCountsThreads) {
    const char* selector =
        gridCountsThreads ? "dispatchThreads:threadsPerThreadgroup:" : "dispatchThreadgroups:threadsPerThreadgroup:";
    if (!usable(selector)) return;
    DispatchCommand command;
    exec::Dispatch& dispatch = command.dispatch;
    // A mistake is reported by the debug layer (when it is on) and recorded, so that the
    // command buffer fails when it gets to this dispatch. Mistakes Metal itself does not
    // catch fail only when the layer reported them.
    auto reject = [&](const DebugLayer::Site& site, const std::string& message) {
        DebugLayer::report(site, message);
        command.encodeError = site.className && dispatch.kernel ? "kernel '" + dispatch.kernelName + "': " + message
                                                                : message;
        commandBuffer_->append(std::move(command));
    };
    auto layerRejects = [&](const DebugLayer::Site& site, const std::string& message) {
        if (!DebugLayer::report(site, message)) return false;
        command.encodeError = message;
        commandBuffer_->append(std::move(command));
        return true;
    };
    if (!pipeline_) return reject({kClass, selector, 1139}, "No pipeline state was set on the encoder");
    const mc_kernel& kernel = pipeline_->kernel();
    const std::string kernelName = kernel.name;
    const std::string function = "Compute Function(" + kernelName + "): ";
    dispatch.kernel = &kernel;
    dispatch.kernelName = kernelName;

    const MTL::Size& tg = threadsPerThreadgroup;
    const std::uint64_t threads = volume(tg);
    if (threads == 0) return reject({kClass, selector, 1146}, sizeText("threadsPerThreadgroup", tg) + " must not be 0.");
    if (threads > Device::kMaxThreadsPerThreadgroup)
        return reject({kClass, selector, 1149}, sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                                                    std::to_string(Device::kMaxThreadsPerThreadgroup) +
                                                    ". (device threadgroup size limit)");
    if (threads > pipeline_->maxTotalThreadsPerThreadgroup())
        return reject({kClass, selector, 1152}, sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                                                    std::to_string(pipeline_->maxTotalThreadsPerThreadgroup()) +
                                                    ". (kernel threadgroup size limit)");
    if (volume(grid) == 0) {
        // Nothing to run; only the layer calls it a mistake (with Apple's odd ".y").
        std::string message = gridCountsThreads ? sizeText("threadsPerGrid", grid) + " must not be 0."
                                                : sizeText("threadgroupsPerGrid", grid, "y") + " must not be 0.";
        layerRejects({kClass, selector, 1158}, message);
        return;
    }
    const std::uint64_t dims[3] = {grid.width, grid.height, grid.depth};
    const std::uint64_t group[3] = {tg.width, tg.height, tg.depth};
    static const char* const kDimension[3] = {"width", "height", "depth"};
    for (int d = 0; d < 3; ++d) {
        if (gridCountsThreads ? dims[d] > UINT32_MAX : dims[d] > UINT32_MAX / group[d]) {
            const std::string size = std::to_string(dims[d]);
            const std::string dimension = kDimension[d];
            return reject({kClass, selector, 1161},
                          gridCountsThreads ? "threadsPerGrid." + dimension + "(" + size + ") must be <= UINT32_MAX."
                                            : "(threadgroupsPerGrid." + dimension + "(" + size +
                                                  ") * threadsPerThreadgroup." + dimension + "(" +
                                                  std::to_string(group[d]) + ")) must be <= UINT32_MAX.");
        }
        std::uint64_t groups = gridCountsThreads ? (dims[d] + group[d] - 1) / group[d] : dims[d];
        std::uint64_t gridThreads = gridCountsThreads ? dims[d] : dims[d] * group[d];
        dispatch.threadgroups[d] = static_cast<std::uint32_t>(groups);
        dispatch.gridThreads[d] = static_cast<std::uint32_t>(gridThreads);
        dispatch.parameters.threads_per_grid[d] = static_cast<std::uint32_t>(gridThreads);
        dispatch.parameters.threadgroups_per_grid[d] = static_cast<std::uint32_t>(groups);
        dispatch.parameters.threads_per_threadgroup[d] = static_cast<std::uint32_t>(group[d]);
    }
    dispatch.parameters.simd_width = commandBuffer_->device()->threadExecutionWidth();
    const GpuEmulation& emulation = commandBuffer_->device()->emulation();
    dispatch.parameters.gpu_family = emulation.family;
    dispatch.parameters.cooperative_layout = emulation.cooperativeLayout;
    dispatch.parameters.cooperative_seed = emulation.cooperativeSeed;

    // Bind what the kernel declares, checking what Metal's debug layer checks.
    std::uint64_t threadgroupTotal = pipeline_->staticThreadgroupMemoryLength();
    const bool validated = pipeline_->validated();
    bool unboundArgument = false;
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        const std::string index = std::to_string(param.index);
        if (param.kind == MC_PARAM_BUFFER) {
            const Binding& binding = buffers_[param.index];
            if (!binding.bound()) {
                // Metal's debug layer objects; Metal itself runs the kernel (an optional
                // argument may be nil) and the GPU faults only if the kernel touches it.
                const std::string message =
                    function + "missing buffer binding at index " + index + " for " + param.name + "[0].";
                if (layerRejects(arguments(1023), message)) return;
                unboundArgument = true;
                continue;
            }
            const std::uint64_t length = binding.buffer ? binding.buffer->length() : binding.bytesLength;
            if (binding.buffer) {
                if (binding.offset > length)
                    return reject(arguments(1031), function + "the offset(" + std::to_string(binding.offset) +
                                                       ") into the buffer " + param.name +
                                                       " that is bound at buffer index " + index +
                                                       " is beyond its length(" + std::to_string(length) + ").");
                const std::uint64_t alignment = offsetAlignment(param);
                if (binding.offset % alignment != 0 &&
                    layerRejects(arguments(1040), function + "the offset into the buffer " + param.name +
                                                      " that is bound at buffer index " + index +
                                                      " must be a multiple of " + std::to_string(alignment) +
                                                      " but was set to " + std::to_string(binding.offset) + "."))
                    return;
                dispatch.parameters.buffers[param.index] = binding.buffer->memory() + binding.offset;
                commandBuffer_->keepAlive(binding.buffer->asPublicClass());
            } else {
                if (param.access == MC_ACCESS_READ_WRITE &&
                    layerRejects(arguments(1047), function + "Read-only bytes are being bound at index " + index +
                                                      " to a shader argument with write access enabled (did you "
                                                      "mean to use const or constant in the shader?)."))
                    return;
                dispatch.parameters.buffers[param.index] = binding.bytes;
            }
            const std::uint64_t space = length - binding.offset;
            dispatch.parameters.buffer_lengths[param.index] = space;
            if (param.is_reference && space < param.pointee_size)
                return reject(arguments(1055), function + "argument " + param.name + "[0] from Buffer(" + index +
                                                   ") with offset(" + std::to_string(binding.offset) +
                                                   ") and length(" + std::to_string(length) + ") has space for " +
                                                   std::to_string(space) + " bytes, but argument has a length(" +
                                                   std::to_string(param.pointee_size) + ").");
        } else if (param.kind == MC_PARAM_THREADGROUP) {
            std::uint64_t length = threadgroupLengths_[param.index];
            if (length == 0)
                return reject(arguments(1072), function + "missing threadgroupMemory binding at index " + index +
                                                   " for " + param.name + "[0].");
            dispatch.threadgroupArgumentLengths[param.index] = length;
            threadgroupTotal += (length + 15) / 16 * 16;
        } else if (param.kind == MC_PARAM_TEXTURE) {
            Texture* texture = textures_[param.index];
            // As for buffers: the layer objects, Metal runs (the kernel reads zero, its writes
            // are dropped).
            if (!texture) {
                if (layerRejects(arguments(1096), function + "missing texture binding at index " + index + " for " +
                                                      param.name + "[0]."))
                    return;
                continue;
            }
            if (param.texture_type != static_cast<mc_u32>(texture->shape().type))
                return reject(arguments(1101), function + "incorrect type of texture (" +
                                                   std::to_string(texture->shape().type) +
                                                   ") bound at texture binding at index " + index + " (expect " +
                                                   std::to_string(param.texture_type) + ") for " + param.name +
                                                   "[0].");
            MTL::TextureUsage needed = 0;
            if (param.access & MC_ACCESS_WRITE_ONLY) needed |= MTL::TextureUsageShaderWrite;
            if (param.access & MC_ACCESS_READ_ONLY) needed |= MTL::TextureUsageShaderRead;
            if ((texture->shape().usage & needed) != needed &&
                layerRejects(arguments(1109), function + "texture usage (0x" + std::to_string(texture->shape().usage) +
                                                  ") doesn't specify MTLTextureUsageShader" +
                                                  (needed & MTL::TextureUsageShaderWrite ? "Write" : "Read") +
                                                  " (0x" + std::to_string(needed) + ") for " + param.name + "[0]."))
                return;
            dispatch.parameters.textures[param.index] = texture->kernelView();
            commandBuffer_->keepAlive(texture->asPublicClass());
        } else if (param.kind == MC_PARAM_SAMPLER) {
            SamplerState* sampler = samplers_[param.index];
            if (!sampler) {
                if (layerRejects(arguments(1118), function + "missing sampler binding at index " + index + " for " +
                                                      param.name + "[0]."))
                    return;
                continue;
            }
            dispatch.parameters.samplers[param.index] = sampler->kernelView();
            commandBuffer_->keepAlive(sampler->asPublicClass());
        }
    }
    if (threadgroupTotal > Device::kMaxThreadgroupMemoryLength)
        return reject(arguments(1080), function + "total used threadgroupMemoryLength(" +
                                           std::to_string(threadgroupTotal) + ") must be <= " +
                                           std::to_string(Device::kMaxThreadgroupMemoryLength) + ".");
    dispatch.threadgroupMemoryLimit = Device::kMaxThreadgroupMemoryLength;
    if (unboundArgument && !validated) {
        // The guard for an argument with nothing bound runs the kernel's checked flavour.
        // When that flavour could not be built (a construct its rewrite does not handle, in
        // this kernel or another of its file), the plain kernel runs instead, with zeroed
        // stand-ins for the missing buffers: the program keeps working as on a Mac, where an
        // unused optional argument may stay unbound, and only the guard is lost.
        std::string why;
        if (!pipeline_->checkedKernel(&why)) {
            bindStandIns(kernel, command, why);
            unboundArgument = false;
        }
    }
    if (validated || unboundArgument) {
        // Shader validation, or the guard for an argument with nothing bound: either way
        // the kernel's instrumented flavour runs (without validation it never reads address 0).
        auto purpose = val::DispatchValidation::Purpose::ShaderValidation;
        if (!validated) {
            dispatch.kernel = pipeline_->checkedKernel(nullptr); // built: bindStandIns was not needed
            purpose = val::DispatchValidation::Purpose::NullBindingGuard;
        }
        std::vector<val::BufferBinding> checkedBindings;
        for (mc_u32 i = 0; i < kernel.param_count; ++i)
            if (kernel.params[i].kind == MC_PARAM_BUFFER) checkedBindings.push_back(checkedBinding(kernel.params[i]));
        val::DispatchInfo info;
        info.kernel = kernelName;
        info.kernelFrameName = kernel.frame_name ? kernel.frame_name : "";
        info.pipelineLabel = pipeline_->label().text();
        info.pipelineUid = pipeline_->uid();
        info.encoderLabel = rt::CommandEncoder::label().text(std::to_string(index_));
        info.dispatchIndex = dispatchesMade_;
        command.validation = std::make_shared<val::DispatchValidation>(
            std::move(info), std::move(checkedBindings), val::shaderValidationSettings(), purpose);
    }
    ++dispatchesMade_;
    commandBuffer_->keepAlive(pipeline_->asPublicClass());
    commandBuffer_->append(std::move(command));
}

void ComputeCommandEncoder::bindStandIns(const mc_kernel& kernel, DispatchCommand& command, const std::string& why) {
    // Enough for the reads a kernel makes of an optional argument it does not use; a kernel
    // that reaches further through a missing buffer is wrong on a GPU too.
    constexpr std::size_t kStandInBytes = 64 * 1024;
    command.standInMemory.reset(new unsigned char[kStandInBytes]());
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        if (param.kind != MC_PARAM_BUFFER || buffers_[param.index].bound()) continue;
        command.dispatch.parameters.buffers[param.index] = command.standInMemory.get();
        command.dispatch.parameters.buffer_lengths[param.index] = kStandInBytes;
    }
    if (pipeline_->noteStandInsOnce())
        support::log().warn("kernel '{}' runs with zeroed stand-ins for arguments that have no buffer bound: "
                            "the checked flavour that guards them is unavailable ({})",
                            kernel.name, why);
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

} // namespace metalcpu::rt
