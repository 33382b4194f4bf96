#pragma once

#include "foundation/object.h"
#include "jit/kernel_library.h"
#include "runtime/label.h"

#include <Metal/MTLLibrary.hpp>

#include <memory>
#include <string>

namespace metalcpu::rt {

class Device;

/// MTL::CompileOptions' threadgroup settings, which every pipeline of the library's kernels
/// takes: a cap on its maximum (0: none) and the one size its dispatches must use (0, 0, 0: any).
struct ThreadgroupLimits {
    NS::UInteger maxTotalThreads = 0;
    MTL::Size requiredThreads = MTL::Size(0, 0, 0);
};

/// A library: one opened kernel library file (.metallib or a cached build of a source string).
class Library final : public ns::Implements<MTL::Library> {
public:
    Library(Device* device, std::shared_ptr<jit::KernelLibrary> kernels, ThreadgroupLimits limits = {});
    const char* className() const override { return "MTLLibrary"; }

    /// A +1 function for the kernel with this name, or nullptr (Metal gives no error; a
    /// render function's name is logged as a warning with renderFunctionRefusal()).
    MTL::Function* newFunction(const std::string& name);
    /// A +1 function for the kernel with this name specialised with `values` for its
    /// function constants, compiled (or found in the kernel cache) now; nullptr and an
    /// NS::Error (MTLLibraryErrorDomain) for an unknown name, a required constant without a
    /// value, or a value of the wrong type.
    MTL::Function* newFunction(const std::string& name, const jit::ConstantValues& values, NS::Error** error);
    /// The kernel names, then those of the render functions its files define (as Apple lists
    /// them), autoreleased.
    NS::Array* functionNames() const;
    /// For the name of a vertex or fragment function of its files, which it does not hold
    /// (compiler/render_functions.h): why newFunction() gives none. Empty for other names.
    std::string renderFunctionRefusal(const std::string& name) const;

    Device* device() const { return device_; }
    Label& label() { return label_; }
    const std::shared_ptr<jit::KernelLibrary>& kernels() const { return kernels_; }

private:
    Device* device_;
    std::shared_ptr<jit::KernelLibrary> kernels_;
    ThreadgroupLimits limits_;
    Label label_;
};

/// A kernel function of a library. Keeps the library's code loaded while it lives.
class Function final : public ns::Implements<MTL::Function> {
public:
    Function(Device* device, std::shared_ptr<jit::KernelLibrary> kernels, const mc_kernel* kernel,
             ThreadgroupLimits limits);
    const char* className() const override { return "MTLFunction"; }

    const mc_kernel& kernel() const { return *kernel_; }
    /// Its library's compile options' threadgroup settings.
    const ThreadgroupLimits& limits() const { return limits_; }
    const std::shared_ptr<jit::KernelLibrary>& library() const { return library_; }
    Device* device() const { return device_; }
    NS::String* name() const { return name_; }
    Label& label() { return label_; }
    ~Function() override;

private:
    Device* device_;
    std::shared_ptr<jit::KernelLibrary> library_;
    const mc_kernel* kernel_;
    ThreadgroupLimits limits_;
    NS::String* name_;
    Label label_;
};

/// Device::newDefaultLibrary(): default.metallib from METALCPU_DEFAULT_LIBRARY, beside the
/// executable, or in the working directory. nullptr (with `error`) when there is none.
MTL::Library* newDefaultLibrary(Device* device, NS::Error** error);
/// Device::newLibrary(path or URL): opens a .metallib. Relative paths are taken from the
/// working directory, as programs using the deprecated path overload expect.
MTL::Library* newLibraryWithFile(Device* device, const std::string& path, NS::Error** error);
/// Device::newLibrary(dispatch_data_t): a .metallib's bytes, from the program's memory
/// (an embedded library), checked and loaded as a file's are.
MTL::Library* newLibraryWithData(Device* device, const void* bytes, std::size_t size, NS::Error** error);
/// Which form of Device::newLibrary(source, …) was called, for the debug layer's report.
enum class SourceCall { WithError, WithCompletionHandler };

/// Device::newLibrary(source, options): compiles at run time, through the cache. A nil
/// `source` is nullptr plus an NS::Error (and the debug layer's assertion). `defaultVersion`
/// is the language version when the options set none (MTL4::Compiler: the newest, 4.0).
MTL::Library* newLibraryWithSource(Device* device, const NS::String* source, const MTL::CompileOptions* options,
                                   NS::Error** error, SourceCall call = SourceCall::WithError,
                                   MTL::LanguageVersion defaultVersion = MTL::LanguageVersion3_2);

} // namespace metalcpu::rt
