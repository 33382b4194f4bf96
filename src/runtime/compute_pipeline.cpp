#include "runtime/compute_pipeline.h"

#include "foundation/factories.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/library.h"
#include "validation/settings.h"

#include <algorithm>

namespace metalcpu::rt {

ComputePipelineState::ComputePipelineState(Device* device, std::shared_ptr<jit::KernelLibrary> library,
                                           const mc_kernel* kernel, std::uint32_t maxTotalThreads,
                                           std::uint64_t staticThreadgroupMemory, bool validated)
    : device_(device), library_(std::move(library)), kernel_(kernel), maxTotalThreads_(maxTotalThreads),
      staticThreadgroupMemory_(staticThreadgroupMemory), validated_(validated) {}

const mc_kernel* ComputePipelineState::checkedKernel(std::string* why) {
    if (validated_) return kernel_;
    std::lock_guard lock(checkedMutex_);
    if (!checkedLibrary_) checkedLibrary_ = library_->validationFlavour(why);
    const mc_kernel* twin = checkedLibrary_ ? checkedLibrary_->find(kernel_->name) : nullptr;
    if (checkedLibrary_ && !twin && why) *why = "the kernel is missing from its shader-validation flavour";
    return twin;
}

MTL::ComputePipelineState* newComputePipelineState(Device* device, const MTL::Function* function,
                                                   const NS::String* label, NS::UInteger maxTotalThreads,
                                                   NS::Error** error, MTL::ShaderValidation shaderValidation) {
    Function* kernelFunction = ns::implOf<Function>(function);
    if (!kernelFunction) {
        setError(error, kPipelineErrorDomain, 1, "the compute function is nil");
        return nullptr;
    }
    const mc_kernel* kernelPointer = &kernelFunction->kernel();
    std::shared_ptr<jit::KernelLibrary> library = kernelFunction->library();
    const std::string labelText = label ? std::string(ns::stringOf(label)) : std::string();
    const bool validated = val::pipelineIsValidated(val::shaderValidationSettings(),
                                                    static_cast<int>(shaderValidation), labelText);
    if (validated) {
        std::string why;
        std::shared_ptr<jit::KernelLibrary> instrumented = library->validationFlavour(&why);
        const mc_kernel* twin = instrumented ? instrumented->find(kernelPointer->name) : nullptr;
        if (!twin) {
            setError(error, kPipelineErrorDomain, 4,
                     std::string("Compute function '") + kernelPointer->name +
                         "': shader validation is on but its instrumented flavour is unavailable: " +
                         (why.empty() ? "the kernel is missing from it" : why));
            return nullptr;
        }
        library = instrumented;
        kernelPointer = twin;
    }
    const mc_kernel& kernel = *kernelPointer;
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& param = kernel.params[i];
        if (param.kind == MC_PARAM_UNSUPPORTED) {
            setError(error, kPipelineErrorDomain, 2,
                     std::string("Compute function '") + kernel.name + "': argument '" + param.name + "' of type " +
                         param.type_name + " is not supported by metalcpu yet");
            return nullptr;
        }
    }
    std::uint64_t staticMemory = library->staticThreadgroupMemory(kernel);
    if (staticMemory > Device::kMaxThreadgroupMemoryLength) {
        setError(error, kPipelineErrorDomain, 3,
                 "Threadgroup memory size (" + std::to_string(staticMemory) +
                     ") exceeds the maximum threadgroup memory allowed (" +
                     std::to_string(Device::kMaxThreadgroupMemoryLength) + ")");
        return nullptr;
    }
    std::uint32_t maxThreads = Device::kMaxThreadsPerThreadgroup;
    if (kernel.max_total_threads_per_threadgroup) maxThreads = std::min(maxThreads, kernel.max_total_threads_per_threadgroup);
    if (maxTotalThreads) maxThreads = std::min<std::uint32_t>(maxThreads, static_cast<std::uint32_t>(maxTotalThreads));
    MTL::ComputePipelineState* pipeline =
        ns::make<ComputePipelineState>(device, library, &kernel, maxThreads, staticMemory, validated);
    if (label) ns::implOf<ComputePipelineState>(pipeline)->label().set(label);
    return pipeline;
}

} // namespace metalcpu::rt
