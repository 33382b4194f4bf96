#include "runtime/dispatch_builder.h"

#include "isolation/device_process.h"
#include "runtime/buffer.h"
#include "runtime/compute_pipeline.h"
#include "runtime/debug_layer.h"
#include "runtime/label.h"
#include "runtime/pixel_formats.h"
#include "runtime/sampler_state.h"
#include "runtime/tensor.h"
#include "runtime/texture.h"
#include "support/log.h"
#include "validation/settings.h"

#include <Metal/MTLDataType.hpp>

#include <algorithm>

namespace metalcpu::rt {
namespace {

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

/// The offset alignment Metal requires for a buffer argument: the element's alignment (at
/// most 16) in the device address space, 4 bytes in the constant address space.
/// Whether a kernel may write what `param` binds: all but what it declares read-only.
bool writes(const mc_param& param) { return param.access != MC_ACCESS_READ_ONLY; }

std::uint64_t offsetAlignment(const mc_param& param) {
    if (param.address_space != MC_ADDRESS_SPACE_DEVICE) return 4;
    return std::clamp<std::uint64_t>(param.pointee_align, 1, 16);
}

/// What shader validation needs to know about the binding of a buffer parameter.
val::BufferBinding checkedBinding(const mc_param& param, const BufferBinding& binding) {
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

/// Why `texture`'s pixel format cannot be read as the element type of texture argument
/// `param` ("" when it can): Metal's texture data types go with pixel formats of the same
/// kind, float and half with normalised and floating-point formats, int and short with
/// signed-integer ones, uint and ushort with unsigned-integer ones (MSL, "Textures").
std::string formatMismatch(const Texture& texture, const mc_param& param) {
    auto kindOf = [](std::uint32_t dataType) -> const char* {
        switch (dataType) {
        case MTL::DataTypeFloat:
        case MTL::DataTypeHalf: return "float";
        case MTL::DataTypeInt:
        case MTL::DataTypeShort: return "int";
        case MTL::DataTypeUInt:
        case MTL::DataTypeUShort: return "uint";
        default: return nullptr;
        }
    };
    const char* wanted = kindOf(param.texture_data_type);
    const mc_u32 component = texture.kernelView()->component_kind;
    const char* held = component == MC_COMPONENT_UINT   ? "uint"
                       : component == MC_COMPONENT_SINT ? "int"
                                                        : "float";
    if (!wanted || std::string(wanted) == held) return "";
    return std::string("holds ") + held + " values, but the argument's data type is " + wanted + " (" +
           (param.type_name ? param.type_name : "") + ")";
}

/// Binds zeroed memory to the buffer arguments with nothing bound (`checkedBindings` says
/// which), for a plain run when the checked flavour (`why` it is unavailable) cannot guard them.
void bindStandIns(ComputePipelineState& pipeline, const std::vector<val::BufferBinding>& checkedBindings,
                  DispatchCommand& command, const std::string& why) {
    // Enough for the reads a kernel makes of an optional argument it does not use; a kernel
    // that reaches further through a missing buffer is wrong on a GPU too.
    constexpr std::size_t kStandInBytes = 64 * 1024;
    // Buffer memory, so that a device process sees it too.
    command.standInMemory = std::make_shared<BufferMemory>(kStandInBytes);
    if (!command.standInMemory->bytes()) return;
    for (const val::BufferBinding& binding : checkedBindings) {
        if (binding.bound) continue;
        command.dispatch.parameters.buffers[binding.index] = command.standInMemory->bytes();
        command.dispatch.parameters.buffer_lengths[binding.index] = kStandInBytes;
    }
    if (pipeline.noteStandInsOnce())
        support::log().warn("kernel '{}' runs with zeroed stand-ins for arguments that have no buffer bound: "
                            "the checked flavour that guards them is unavailable ({})",
                            pipeline.kernel().name, why);
}

/// The guard for arguments with nothing bound that needs no device process: the kernel's
/// checked flavour runs (without validation it never reads address 0) and an access through
/// such an argument fails the command buffer. When that flavour could not be built (a
/// construct its rewrite does not handle, in this kernel or another of its file), the plain
/// kernel runs with zeroed stand-ins: the program keeps working as on a Mac, where an unused
/// optional argument may stay unbound, and only the guard is lost.
void guardWithCheckedFlavour(DispatchCommand& command, ComputePipelineState& pipeline,
                             std::vector<val::BufferBinding> checkedBindings, val::DispatchInfo info) {
    std::string why;
    const mc_kernel* checked = pipeline.checkedKernel(&why);
    if (!checked) {
        bindStandIns(pipeline, checkedBindings, command, why);
        return;
    }
    command.dispatch.kernel = checked;
    command.library = pipeline.libraryOf(checked);
    command.validation = std::make_shared<val::DispatchValidation>(
        std::move(info), std::move(checkedBindings), val::shaderValidationSettings(),
        val::DispatchValidation::Purpose::NullBindingGuard);
}

} // namespace

bool buildDispatch(const DispatchRequest& request, const Bindings& bindings, Device& device, CommandSink& sink) {
    const char* const kClass = request.debugClassName;
    const char* const selector = request.selector;
    const bool gridCountsThreads = request.gridCountsThreads;
    const MTL::Size& grid = request.grid;
    ComputePipelineState* const pipeline = request.pipeline;
    DispatchCommand command;
    exec::Dispatch& dispatch = command.dispatch;
    auto reject = [&](const DebugLayer::Site& site, const std::string& message) {
        DebugLayer::report(site, message);
        command.encodeError = site.className && dispatch.kernel ? "kernel '" + dispatch.kernelName + "': " + message
                                                                : message;
        sink.append(std::move(command));
        return false;
    };
    auto layerRejects = [&](const DebugLayer::Site& site, const std::string& message) {
        if (!DebugLayer::report(site, message)) return false;
        command.encodeError = message;
        sink.append(std::move(command));
        return true;
    };
    if (!pipeline) return reject({kClass, selector, 1139}, "No pipeline state was set on the encoder");
    const mc_kernel& kernel = pipeline->kernel();
    const std::string kernelName = kernel.name;
    const std::string function = "Compute Function(" + kernelName + "): ";
    // An argument table's unset bind point is "never set"; a classic encoder's is "missing".
    auto missing = [&](const char* kind, const mc_param& param) {
        const std::string index = std::to_string(param.index);
        return request.fromArgumentTable
                   ? function + kind + " binding at index " + index + " for " + param.name + " was never set."
                   : function + "missing " + kind + " binding at index " + index + " for " + param.name + "[0].";
    };
    dispatch.kernel = &kernel;
    dispatch.kernelName = kernelName;

    const MTL::Size& tg = request.threadsPerThreadgroup;
    const std::uint64_t threads = volume(tg);
    if (threads == 0) return reject({kClass, selector, 1146}, sizeText("threadsPerThreadgroup", tg) + " must not be 0.");
    if (threads > Device::kMaxThreadsPerThreadgroup)
        return reject({kClass, selector, 1149}, sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                                                    std::to_string(Device::kMaxThreadsPerThreadgroup) +
                                                    ". (device threadgroup size limit)");
    if (threads > pipeline->maxTotalThreadsPerThreadgroup())
        return reject({kClass, selector, 1152}, sizeText("threadsPerThreadgroup", tg) + " must be <= " +
                                                    std::to_string(pipeline->maxTotalThreadsPerThreadgroup()) +
                                                    ". (kernel threadgroup size limit)");
    // A pipeline made with requiredThreadsPerThreadgroup takes that size and no other, per
    // dimension: its kernel may be compiled for it (cooperative tensors need it on a Mac).
    const MTL::Size required = pipeline->requiredThreadsPerThreadgroup();
    if ((required.width || required.height || required.depth) &&
        (tg.width != required.width || tg.height != required.height || tg.depth != required.depth) &&
        layerRejects({kClass, selector, 1155}, sizeText("threadsPerThreadgroup", tg) + " must match the pipeline's " +
                                                   sizeText("requiredThreadsPerThreadgroup", required) + "."))
        return false;
    if (volume(grid) == 0) {
        // Nothing to run; only the layer calls it a mistake (with Apple's odd ".y").
        std::string message = gridCountsThreads ? sizeText("threadsPerGrid", grid) + " must not be 0."
                                                : sizeText("threadgroupsPerGrid", grid, "y") + " must not be 0.";
        layerRejects({kClass, selector, 1158}, message);
        return false;
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
    dispatch.parameters.simd_width = device.threadExecutionWidth();
    const GpuEmulation& emulation = device.emulation();
    dispatch.parameters.gpu_family = emulation.family;
    dispatch.parameters.cooperative_layout = emulation.cooperativeLayout;
    dispatch.parameters.cooperative_seed = emulation.cooperativeSeed;

    // Bind what the kernel declares, checking what Metal's debug layer checks.
    std::uint64_t threadgroupTotal = pipeline->staticThreadgroupMemoryLength();
    const bool validated = pipeline->validated();
    bool unboundArgument = false;
    // Texture arguments shader validation reports (Apple's: nil texture, usage mismatch):
    // the argument, its kind, the texture's usage and what the access needs.
    struct TextureMisuse {
        const mc_param* param;
        validation::ReportKind kind;
        std::uint64_t usage, needed;
    };
    std::vector<TextureMisuse> textureMisuses;
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        const std::string index = std::to_string(param.index);
        if (param.kind == MC_PARAM_BUFFER) {
            const BufferBinding& binding = bindings.buffers[param.index];
            if (!binding.bound()) {
                // Metal's debug layer objects; Metal itself runs the kernel (an optional
                // argument may be nil) and the GPU faults only if the kernel touches it.
                if (layerRejects(arguments(1023), missing("buffer", param))) return false;
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
                if (binding.offset % alignment != 0) {
                    if (layerRejects(arguments(1040), function + "the offset into the buffer " + param.name +
                                                          " that is bound at buffer index " + index +
                                                          " must be a multiple of " + std::to_string(alignment) +
                                                          " but was set to " + std::to_string(binding.offset) + "."))
                        return false;
                    // Apple's GPUs tolerate it; a CPU's aligned vector load of the argument's
                    // type faults, with no address to name it by.
                    command.faultSuspects.withoutAddress.push_back(
                        "argument " + argumentText(param.name, "buffer", param.index) + " is bound at offset " +
                        std::to_string(binding.offset) + ", which is not a multiple of " + std::to_string(alignment) +
                        ", the alignment of its type");
                }
                dispatch.parameters.buffers[param.index] = binding.buffer->memory() + binding.offset;
                command.faultSuspects.memory.push_back({argumentText(param.name, "buffer", param.index),
                                                        reinterpret_cast<std::uint64_t>(binding.buffer->memory()),
                                                        length, binding.buffer->allocatedSize(), binding.offset,
                                                        false});
                sink.keepAlive(binding.buffer->asPublicClass());
                sink.useBuffer(binding.buffer, writes(param));
            } else {
                if (param.access == MC_ACCESS_READ_WRITE &&
                    layerRejects(arguments(1047), function + "Read-only bytes are being bound at index " + index +
                                                      " to a shader argument with write access enabled (did you "
                                                      "mean to use const or constant in the shader?)."))
                    return false;
                dispatch.parameters.buffers[param.index] = binding.bytes;
                command.faultSuspects.memory.push_back({argumentText(param.name, "buffer", param.index),
                                                        reinterpret_cast<std::uint64_t>(binding.bytes), length,
                                                        length, 0, true});
            }
            const std::uint64_t space = length - binding.offset;
            dispatch.parameters.buffer_lengths[param.index] = space;
            if (param.is_reference && space < param.pointee_size) {
                const std::string tooSmall = function + "argument " + param.name + "[0] from Buffer(" + index +
                                             ") with offset(" + std::to_string(binding.offset) + ") and length(" +
                                             std::to_string(length) + ") has space for " + std::to_string(space) +
                                             " bytes, but argument has a length(" +
                                             std::to_string(param.pointee_size) + ").";
                // Under shader validation the kernel runs, as on a Mac with the layer off, and
                // its instrumented load of the object is reported (and zero-filled). Without
                // validation the command buffer fails: the kernel would read past the bytes.
                if (!validated) return reject(arguments(1055), tooSmall);
                if (layerRejects(arguments(1055), tooSmall)) return false;
            }
        } else if (param.kind == MC_PARAM_THREADGROUP) {
            std::uint64_t length = bindings.threadgroupLengths[param.index];
            // As for buffers: the layer objects, Metal runs. llama.cpp binds 0 bytes to a
            // threadgroup argument its kernel never touches; one that does touch it finds a
            // null pointer and faults, which fails the command buffer, not the process.
            if (length == 0) {
                if (layerRejects(arguments(1072), function + "missing threadgroupMemory binding at index " + index +
                                                      " for " + param.name + "[0]."))
                    return false;
                command.faultSuspects.null.push_back(
                    {argumentText(param.name, "threadgroup", param.index),
                     "no threadgroup memory (setThreadgroupMemoryLength was not called for index " + index + ")",
                     false});
            }
            // A `threadgroup T&` argument (naga writes every workgroup variable so) needs the
            // whole T: a shorter length would let the kernel's stores reach the next argument.
            // Our wording, after the buffer form's; under shader validation the kernel runs and
            // its first access through the reference is reported instead.
            if (length != 0 && param.is_reference && length < param.pointee_size &&
                layerRejects(arguments(1074), function + "argument " + param.name + "[0] from threadgroupMemory(" +
                                                  index + ") with length(" + std::to_string(length) +
                                                  ") has space for " + std::to_string(length) +
                                                  " bytes, but argument has a length(" +
                                                  std::to_string(param.pointee_size) + ")."))
                return false;
            dispatch.threadgroupArgumentLengths[param.index] = length;
            threadgroupTotal += (length + 15) / 16 * 16;
        } else if (param.kind == MC_PARAM_TEXTURE) {
            Texture* texture = bindings.textures[param.index];
            // As for buffers: the layer objects, Metal runs (the kernel reads zero, its writes
            // are dropped).
            if (!texture) {
                if (layerRejects(arguments(1096), missing("texture", param))) return false;
                textureMisuses.push_back({&param, validation::ReportKind::NullTexture, 0, 0});
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
            if ((texture->shape().usage & needed) != needed) {
                if (layerRejects(arguments(1109), function + "texture usage (0x" +
                                                      std::to_string(texture->shape().usage) +
                                                      ") doesn't specify MTLTextureUsageShader" +
                                                      (needed & MTL::TextureUsageShaderWrite ? "Write" : "Read") +
                                                      " (0x" + std::to_string(needed) + ") for " + param.name + "[0]."))
                    return false;
                textureMisuses.push_back({&param, validation::ReportKind::TextureUsage, texture->shape().usage, needed});
            }
            const std::string mismatch = formatMismatch(*texture, param);
            if (!mismatch.empty() &&
                layerRejects(arguments(1105), function + "the pixel format (" +
                                                  pixelFormatName(texture->shape().format) +
                                                  ") of the texture bound at texture binding at index " + index +
                                                  " for " + param.name + "[0] " + mismatch + "."))
                return false;
            dispatch.parameters.textures[param.index] = texture->kernelView();
            sink.keepAlive(texture->asPublicClass());
            sink.useBuffer(texture->memoryBuffer(), writes(param)); // a texture over a buffer uses its memory
        } else if (param.kind == MC_PARAM_TENSOR) {
            Tensor* tensor = bindings.tensors[param.index];
            // Kernels read a tensor's description through the pointer, so there is no
            // running without one.
            if (!tensor) return reject(arguments(1023), missing("tensor", param));
            if (static_cast<mc_u32>(tensor->dataType()) != param.tensor_data_type ||
                tensor->rank() != param.tensor_rank) {
                // Apple's names of the data types (their numbers say nothing to a reader),
                // and the argument as the kernel declares it.
                const std::string wanted = Tensor::dataTypeName(static_cast<MTL::TensorDataType>(param.tensor_data_type));
                return reject(arguments(1126), function + "tensor bound at index " + index + " for " + param.name +
                                                   " has data type " + Tensor::dataTypeName(tensor->dataType()) +
                                                   " and rank " + std::to_string(tensor->rank()) +
                                                   ", but the argument" +
                                                   (param.type_name ? std::string(" (") + param.type_name + ")" : "") +
                                                   " has data type " + wanted + " and rank " +
                                                   std::to_string(param.tensor_rank) + ".");
            }
            if (dispatch.tensors.empty()) dispatch.tensors.reserve(kernel.param_count);
            tensor->kernelView(dispatch.tensors.emplace_back());
            dispatch.parameters.buffers[param.index] = &dispatch.tensors.back();
            dispatch.parameters.buffer_lengths[param.index] = sizeof(mc_tensor);
            sink.keepAlive(tensor->asPublicClass());
            sink.useBuffer(tensor->buffer(), writes(param));
        } else if (param.kind == MC_PARAM_SAMPLER) {
            SamplerState* sampler = bindings.samplers[param.index];
            if (!sampler) {
                if (layerRejects(arguments(1118), missing("sampler", param))) return false;
                continue;
            }
            dispatch.parameters.samplers[param.index] = sampler->kernelView();
            sink.keepAlive(sampler->asPublicClass());
        }
    }
    if (threadgroupTotal > Device::kMaxThreadgroupMemoryLength)
        return reject(arguments(1080), function + "total used threadgroupMemoryLength(" +
                                           std::to_string(threadgroupTotal) + ") must be <= " +
                                           std::to_string(Device::kMaxThreadgroupMemoryLength) + ".");
    dispatch.threadgroupMemoryLimit = Device::kMaxThreadgroupMemoryLength;
    if (validated || unboundArgument) {
        std::vector<val::BufferBinding> checkedBindings;
        const mc_param* unbound = nullptr; // the one argument with nothing bound, if one
        unsigned unboundCount = 0;
        for (mc_u32 i = 0; i < kernel.param_count; ++i) {
            const mc_param& param = kernel.params[i];
            if (param.kind != MC_PARAM_BUFFER) continue;
            checkedBindings.push_back(checkedBinding(param, bindings.buffers[param.index]));
            if (!checkedBindings.back().bound) {
                unbound = &param;
                ++unboundCount;
            }
        }
        val::DispatchInfo info;
        info.kernel = kernelName;
        info.kernelFrameName = kernel.frame_name ? kernel.frame_name : "";
        info.pipelineLabel = pipeline->label().text();
        info.pipelineUid = pipeline->uid();
        info.encoderLabel = request.encoderLabel->text(std::to_string(request.encoderIndex));
        info.dispatchIndex = request.dispatchIndex;
        info.concurrentSpan = request.concurrentSpan;
        if (validated) {
            command.validation = std::make_shared<val::DispatchValidation>(
                std::move(info), std::move(checkedBindings), val::shaderValidationSettings(),
                val::DispatchValidation::Purpose::ShaderValidation);
            for (const TextureMisuse& misuse : textureMisuses)
                command.validation->textureBindingReport(
                    misuse.kind, misuse.param->name, misuse.param->index,
                    validation::SourceLocation{kernel.file ? kernel.file : "", kernelName, misuse.param->line,
                                               misuse.param->column},
                    misuse.usage, misuse.needed);
        } else if (unboundCount == 1 && iso::configuredIsolation() != iso::Isolation::None) {
            // One argument with nothing bound: the plain kernel runs with null there (so that
            // `if (p)` sees it missing), and the device process contains an access through it,
            // a fault near address 0 that the command buffer charges to it. Only one: all such
            // arguments are null, and a fault's address could not tell two apart.
            command.faultSuspects.null.push_back(
                {argumentText(unbound->name, "buffer", unbound->index), "no buffer bound", true});
            command.guardInThisProcess = [pipeline, checkedBindings = std::move(checkedBindings),
                                          info = std::move(info)](DispatchCommand& run) {
                guardWithCheckedFlavour(run, *pipeline, checkedBindings, info);
            };
        } else {
            guardWithCheckedFlavour(command, *pipeline, std::move(checkedBindings), std::move(info));
        }
    }
    if (!command.library) command.library = pipeline->libraryOf(dispatch.kernel);
    sink.keepAlive(pipeline->asPublicClass());
    sink.append(std::move(command));
    return true;
}

} // namespace metalcpu::rt
