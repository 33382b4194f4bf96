#include "runtime/compute_pipeline.h"

#include "foundation/factories.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/library.h"
#include "support/hash.h"
#include "support/log.h"
#include "validation/settings.h"

#include <algorithm>
#include <cstdio>

namespace metalcpu::rt {
namespace {

/// MTL_SHADER_VALIDATION_DUMP_PIPELINES=1: Apple logs each pipeline's UID for the unified log's
/// "Shader Validation UID" filter; metalcpu prints the same line on stderr and to its log.
void dumpPipeline(const std::string& uid, const std::string& label, const mc_kernel& kernel, bool validated) {
    const std::string line = "Shader Validation UID: " + uid + ", pipeline: " + (label.empty() ? "(null)" : label) +
                             ", function: \"" + kernel.name + "\", shader validation: " + (validated ? "on" : "off");
    std::fputs((line + "\n").c_str(), stderr);
    std::fflush(stderr);
    support::logExceptStderr(spdlog::level::info, line);
}

/// Whether the kernel runs one fiber per thread: it has barriers or SIMD-group functions the
/// front end could split at neither as work-item loops nor as a coroutine.
bool runsOnFibers(const mc_kernel& kernel) {
    return (kernel.flags & MC_KERNEL_USES_BARRIERS) && !(kernel.flags & (MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_COROUTINES));
}

/// How the front end lowered a kernel: what METALCPU_LOG_LEVEL=debug shows for each pipeline,
/// so a kernel that fell back to fibers (the slow path) can be seen.
const char* loweringOf(const mc_kernel& kernel) {
    if ((kernel.flags & MC_KERNEL_WORK_ITEM_LOOPS) && (kernel.flags & MC_KERNEL_INTERLEAVED_THREADS))
        return "work-item loops (no barriers: the group's threads interleaved in its uniform loops)";
    if (kernel.flags & MC_KERNEL_WORK_ITEM_LOOPS) return "work-item loops (split at its barriers and SIMD-group functions)";
    if (kernel.flags & MC_KERNEL_COROUTINES) return "coroutines";
    if (runsOnFibers(kernel))
        return "fibers (barriers or SIMD-group functions the front end could not split at)";
    return "one loop over each group's threads";
}

/// How the front end had the kernel's code generated, chosen by its shape (the compiler's
/// emitter/code_generation.h), for the same log line.
std::string codeGenerationOf(const mc_kernel& kernel) {
    std::string text = kernel.flags & MC_KERNEL_OPTIMISED_O3 ? "-O3" : "-O2";
    text += kernel.flags & MC_KERNEL_VECTORISED_THREADS ? ", threads as SIMD lanes" : ", threads one by one";
    if (kernel.flags & MC_KERNEL_NARROW_VECTORS) text += ", vectors of 128 bits at most";
    return text;
}

} // namespace

std::string shaderValidationUid(const std::shared_ptr<jit::KernelLibrary>& library, const mc_kernel& kernel) {
    // The library's sealed content hash: the same file gives the same UIDs in every process.
    return support::Hasher().add(library->contentHash()).add(std::string_view(kernel.name)).hex().substr(0, 16);
}

ComputePipelineState::ComputePipelineState(Device* device, std::shared_ptr<jit::KernelLibrary> library,
                                           const mc_kernel* kernel, std::uint32_t maxTotalThreads,
                                           std::uint64_t staticThreadgroupMemory, bool validated, std::string uid)
    : device_(device), library_(std::move(library)), kernel_(kernel),
      kernelLibrary_(library_ ? library_->holderOf(kernel) : nullptr), maxTotalThreads_(maxTotalThreads),
      staticThreadgroupMemory_(staticThreadgroupMemory), validated_(validated), uid_(std::move(uid)) {}

const mc_kernel* ComputePipelineState::checkedKernel(std::string* why) {
    return validated_ ? kernel_ : library_->validationKernel(kernel_->name, why);
}

bool unspecializedConstantsError(const MTL::Function* function, const char* hint, NS::Error** error) {
    Function* kernelFunction = ns::implOf<Function>(function);
    if (!kernelFunction) return true;
    const char* name = kernelFunction->kernel().name;
    std::string names;
    for (const mc_function_constant* c : kernelFunction->library()->unspecialisedConstants(name))
        names += std::string(names.empty() ? "" : ", ") + "'" + c->name + "'";
    if (names.empty()) return true;
    setError(error, kPipelineErrorDomain, 5,
             std::string("Compute function '") + name + "' has function constants that were not specialized: " + names +
                 " (" + hint + ")");
    return false;
}

namespace {

bool isSet(MTL::Size size) { return size.width || size.height || size.depth; }

std::string sizeText(MTL::Size size) {
    return "(" + std::to_string(size.width) + ", " + std::to_string(size.height) + ", " + std::to_string(size.depth) +
           ")";
}

} // namespace

MTL::ComputePipelineState* newComputePipelineState(Device* device, const MTL::Function* function,
                                                   const NS::String* label, NS::UInteger maxTotalThreads,
                                                   NS::Error** error, MTL::ShaderValidation shaderValidation,
                                                   MTL::Size requiredThreads) {
    Function* kernelFunction = ns::implOf<Function>(function);
    if (!kernelFunction) {
        // Apple's framework asserts here, in the pipeline descriptor it makes of the function
        // (llama.cpp issue 7974, macOS 14.5: `-[MTLComputePipelineDescriptorInternal
        // setComputeFunction:withType:]:722: failed assertion `computeFunction must not be
        // nil.'`). With the layer it is reported so; without, nil and an error, as before.
        constexpr DebugLayer::Site site = {"MTLComputePipelineDescriptorInternal", "setComputeFunction:withType:", 722};
        DebugLayer::report(site, "computeFunction must not be nil.");
        setError(error, kPipelineErrorDomain, 1, "the compute function is nil");
        return nullptr;
    }
    const mc_kernel* kernelPointer = &kernelFunction->kernel();
    std::shared_ptr<jit::KernelLibrary> library = kernelFunction->library();
    // A function made without values for the function constants it requires
    // (Library::newFunction(name)) can be inspected but not run.
    if (!unspecializedConstantsError(function, "make the function with Library::newFunction(name, constantValues, error)",
                                     error))
        return nullptr;
    const val::PipelineIdentity identity{label ? std::string(ns::stringOf(label)) : std::string(),
                                         shaderValidationUid(library, *kernelPointer)};
    const val::ShaderValidationSettings settings = val::shaderValidationSettings();
    const bool validated = val::pipelineIsValidated(settings, static_cast<int>(shaderValidation), identity);
    // A kernel of a library compiled with deferred machine code (its reflection only) has its
    // code compiled now: Metal reports a kernel that does not compile at newLibrary, metalcpu
    // then only if the compiler's front end already refused it (docs/troubleshooting.md). A
    // validated pipeline runs only its instrumented flavour, so only that is compiled.
    const mc_kernel* plain = nullptr;
    if (!validated || jit::KernelLibrary::hasCode(*kernelPointer)) {
        std::string codeError;
        plain = library->kernelCode(kernelPointer->name, &codeError);
        if (!plain) {
            setError(error, kPipelineErrorDomain, 8,
                     std::string("Compute function '") + kernelPointer->name + "': " + codeError);
            return nullptr;
        }
        kernelPointer = plain;
    }
    if (validated) {
        std::string why;
        const mc_kernel* twin = library->validationKernel(kernelPointer->name, &why);
        if (!twin) {
            setError(error, kPipelineErrorDomain, 4,
                     std::string("Compute function '") + kernelPointer->name +
                         "': shader validation is on but its instrumented flavour is unavailable: " + why);
            return nullptr;
        }
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
    // The library of the kernel's code holds its sites' sizes: the plain kernel's, or where
    // only the instrumented flavour was compiled, its, which declares the same variables.
    const mc_kernel& sized = plain ? *plain : kernel;
    const std::shared_ptr<jit::KernelLibrary> sizes = library->holderOf(&sized);
    std::uint64_t staticMemory = (sizes ? sizes : library)->staticThreadgroupMemory(sized);
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
    // The library's compile options (MTL::CompileOptions) apply to every pipeline of its kernels.
    const ThreadgroupLimits& options = kernelFunction->limits();
    if (options.maxTotalThreads)
        maxThreads = std::min<std::uint32_t>(maxThreads, static_cast<std::uint32_t>(options.maxTotalThreads));
    if (isSet(options.requiredThreads) && isSet(requiredThreads) &&
        (options.requiredThreads.width != requiredThreads.width ||
         options.requiredThreads.height != requiredThreads.height ||
         options.requiredThreads.depth != requiredThreads.depth)) {
        setError(error, kPipelineErrorDomain, 6,
                 std::string("Compute function '") + kernel.name + "': the pipeline's requiredThreadsPerThreadgroup " +
                     sizeText(requiredThreads) + " differs from the " + sizeText(options.requiredThreads) +
                     " its library was compiled with (MTLCompileOptions)");
        return nullptr;
    }
    const MTL::Size required = isSet(requiredThreads) ? requiredThreads : options.requiredThreads;
    // A required size caps the pipeline's maximum, as Metal reports it; one past it is no size
    // a dispatch could use.
    const std::uint64_t requiredVolume = std::uint64_t(required.width) * required.height * required.depth;
    if (isSet(required) && (requiredVolume == 0 || requiredVolume > maxThreads)) {
        setError(error, kPipelineErrorDomain, 7,
                 std::string("Compute function '") + kernel.name + "': requiredThreadsPerThreadgroup " +
                     sizeText(required) + (requiredVolume == 0 ? " has a dimension of 0"
                                                               : " holds more threads than the pipeline's maximum (" +
                                                                     std::to_string(maxThreads) + ")"));
        return nullptr;
    }
    if (isSet(required)) maxThreads = static_cast<std::uint32_t>(requiredVolume);
    MTL::ComputePipelineState* pipeline =
        ns::make<ComputePipelineState>(device, library, &kernel, maxThreads, staticMemory, validated, identity.uid);
    if (label) ns::implOf<ComputePipelineState>(pipeline)->label().set(label);
    ns::implOf<ComputePipelineState>(pipeline)->setRequiredThreadsPerThreadgroup(required);
    // A kernel on fibers (the slow path) says why, so that whoever tunes it need not find the
    // library's compile log (a library from a cache or a .metallib was translated elsewhere).
    const bool fibers = runsOnFibers(kernel);
    support::log().debug("pipeline for kernel '{}'{}: {}{}{}; code: {}", kernel.name,
                         validated ? " (shader validation)" : "", loweringOf(kernel),
                         fibers && kernel.fibers_reason && *kernel.fibers_reason ? ": " : "",
                         fibers && kernel.fibers_reason ? kernel.fibers_reason : "", codeGenerationOf(kernel));
    // Every pipeline, instrumented or not: its UID is what selects it.
    if (settings.enabled && settings.dumpPipelines) dumpPipeline(identity.uid, identity.label, kernel, validated);
    return pipeline;
}

} // namespace metalcpu::rt
