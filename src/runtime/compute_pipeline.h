#pragma once

#include "foundation/object.h"
#include "jit/kernel_library.h"
#include "runtime/label.h"

#include <Metal/MTLComputePipeline.hpp>

#include <atomic>
#include <memory>
#include <string>

namespace metalcpu::rt {

class Device;

/// A compute pipeline: a kernel ready to dispatch, with the limits Metal reports for it.
class ComputePipelineState final : public ns::Implements<MTL::ComputePipelineState> {
public:
    ComputePipelineState(Device* device, std::shared_ptr<jit::KernelLibrary> library, const mc_kernel* kernel,
                         std::uint32_t maxTotalThreads, std::uint64_t staticThreadgroupMemory, bool validated,
                         std::string uid);
    const char* className() const override { return "MTLComputePipelineState"; }

    const mc_kernel& kernel() const { return *kernel_; }
    Device* device() const { return device_; }
    Label& label() { return label_; }
    std::uint32_t maxTotalThreadsPerThreadgroup() const { return maxTotalThreads_; }
    /// The descriptor's requiredThreadsPerThreadgroup: (0, 0, 0) when not set, else the size
    /// every dispatch's threadsPerThreadgroup must be (the debug layer checks it).
    MTL::Size requiredThreadsPerThreadgroup() const { return requiredThreads_; }
    void setRequiredThreadsPerThreadgroup(MTL::Size size) { requiredThreads_ = size; }
    std::uint64_t staticThreadgroupMemoryLength() const { return staticThreadgroupMemory_; }
    /// Runs the kernel's shader-validation flavour (kernel() is that flavour's).
    bool validated() const { return validated_; }
    /// The Shader Validation UID (shaderValidationUid()).
    const std::string& uid() const { return uid_; }
    /// The kernel's shader-validation flavour, loaded (and compiled, the first time) on
    /// demand; nullptr with the reason in `why` when the library cannot provide it. A
    /// dispatch with nothing bound to an argument runs it to contain accesses through the
    /// argument (ComputeCommandEncoder::dispatch).
    const mc_kernel* checkedKernel(std::string* why);
    /// The library holding `kernel` (kernel() or checkedKernel()), which a device process
    /// loads to run it; nullptr for a kernel of no library (tests make such pipelines of
    /// kernels written in C++, which run in this process).
    std::shared_ptr<jit::KernelLibrary> libraryOf(const mc_kernel* kernel) const {
        if (kernel == kernel_) return kernelLibrary_; // every dispatch's: looked up once
        return library_ ? library_->holderOf(kernel) : nullptr;
    }
    /// True the first time it is called: whether to warn that this pipeline's dispatches run
    /// with stand-ins for unbound arguments (ComputeCommandEncoder::bindStandIns).
    bool noteStandInsOnce() { return !standInsNoted_.exchange(true); }

private:
    Device* device_;
    std::shared_ptr<jit::KernelLibrary> library_; ///< keeps the kernel's code loaded
    const mc_kernel* kernel_;
    std::shared_ptr<jit::KernelLibrary> kernelLibrary_; ///< the library holding kernel_
    std::uint32_t maxTotalThreads_;
    MTL::Size requiredThreads_ = MTL::Size(0, 0, 0);
    std::uint64_t staticThreadgroupMemory_;
    bool validated_;
    std::string uid_;
    Label label_;
    std::atomic<bool> standInsNoted_{false};
};

/// The Shader Validation UID of `kernel` in `library`: 16 hex digits, a hash of the library
/// file's contents and the kernel's name, so the same library and function give the same UID
/// in every run (and a rebuilt library with other contents a new one), as Apple's UIDs are
/// "persistent across multiple runs". The contents are known by the hash the file was sealed
/// with, checked when the library was opened (jit/library_file.h).
std::string shaderValidationUid(const std::shared_ptr<jit::KernelLibrary>& library, const mc_kernel& kernel);

/// False, with the error naming them and `hint` (how to specialize them on the caller's API),
/// when `function` has function constants without values; true otherwise.
bool unspecializedConstantsError(const MTL::Function* function, const char* hint, NS::Error** error);

/// Device::newComputePipelineState(function or descriptor, error). `shaderValidation` is the
/// descriptor's MTL::ShaderValidation; with the environment it decides whether the pipeline
/// runs the kernel's instrumented flavour (val::pipelineIsValidated). `requiredThreads` is the
/// descriptor's requiredThreadsPerThreadgroup; the function's library's compile options may set
/// it too (and a maximum), and the pipeline takes whichever is set. nullptr and an NS::Error
/// when both are set and differ, or when the required size holds more threads than the
/// pipeline's maximum.
MTL::ComputePipelineState* newComputePipelineState(Device* device, const MTL::Function* function,
                                                   const NS::String* label, NS::UInteger maxTotalThreads,
                                                   NS::Error** error,
                                                   MTL::ShaderValidation shaderValidation = MTL::ShaderValidationDefault,
                                                   MTL::Size requiredThreads = MTL::Size(0, 0, 0));

} // namespace metalcpu::rt
