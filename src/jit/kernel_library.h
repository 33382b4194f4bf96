#pragma once

#include "jit/specialisation.h"

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::jit {

/// An opened .metallib: the kernels it holds and their reflection. Shared by the Library,
/// Function and pipeline objects made from it; the file stays open while any of them lives.
/// A process loads each library once: opening the same file with the same contents again,
/// while the first is alive, returns that one.
class KernelLibrary {
public:
    /// Opens a kernel library file, checked before anything of it is loaded and loaded from
    /// a sealed copy of the bytes checked (library_file.h); nullptr with a message in
    /// `error` when it is not a sound kernel library. A non-empty `cacheKey` marks a cache
    /// entry, which must have been built for that key and belong to this user.
    /// `unavailable`, when given, says whether a failure was this process's for now (out of
    /// descriptors or memory) rather than the file's. `described` is what an error calls the
    /// library; empty: "library file <path>".
    static std::shared_ptr<KernelLibrary> open(const std::string& path, std::string* error,
                                               const std::string& cacheKey = {}, bool* unavailable = nullptr,
                                               const std::string& described = {});
    ~KernelLibrary();

    /// The kernel with this host name, or nullptr.
    const mc_kernel* find(const std::string& name) const;
    /// Host names of all kernels, in the order the files declared them.
    const std::vector<std::string>& kernelNames() const { return names_; }
    /// Names of the vertex and fragment functions of its files, which it names but does not
    /// hold (mc_module::render_functions), in the order the files declared them.
    const std::vector<std::string>& renderFunctionNames() const { return renderNames_; }
    /// The threadgroup memory a kernel's `threadgroup` variables take, as Metal reports it
    /// in staticThreadgroupMemoryLength.
    std::uint64_t staticThreadgroupMemory(const mc_kernel& kernel) const;
    const std::string& path() const { return path_; }
    /// A number of its own among the libraries this process opened (a device process knows
    /// it by that number, src/isolation).
    std::uint64_t serial() const { return serial_; }
    /// The sealed memory file it was loaded from (a device process loads the same bytes).
    int memoryFile() const { return memoryFile_; }
    /// The library, among this one, its shader-validation flavours and its kernels' own
    /// machine code (kernelCode()), that holds `kernel`; nullptr when none does.
    std::shared_ptr<KernelLibrary> holderOf(const mc_kernel* kernel);

    /// Whether `kernel`'s row has machine code to run: a reflection image's rows (deferred
    /// machine code, reflectionImageLines()) have neither entry point.
    static bool hasCode(const mc_kernel& kernel) { return kernel.run_group || kernel.run_thread; }
    /// Kernel `name` with its machine code: find(name) when this library holds it; for a
    /// kernel of a reflection image, the kernel's own library — its part of the text its module
    /// carries (mc_module::specialisation_source, selectingKernel()) compiled through the
    /// kernel cache the first time it is asked for (buildKernelCode()), loaded while this
    /// library lives. nullptr with the reason in `error` (the compiler's messages when its code
    /// does not compile). So a pipeline costs its own kernel's compile, not the library's.
    const mc_kernel* kernelCode(const std::string& name, std::string* error);
    /// The content hash the file was sealed with (library_file.h), checked when it was opened.
    const std::string& contentHash() const { return contentHash_; }

    /// Every kernel of the library compiled with shader validation (metalcpu/checked.h), built
    /// from the instrumented sources embedded in this library the first time it is asked for.
    /// nullptr with a message in `error` when the library carries no such sources or they
    /// do not compile. Pipelines do not ask for it (validationKernel() compiles one kernel).
    std::shared_ptr<KernelLibrary> validationFlavour(std::string* error);
    /// Kernel `name` compiled with shader validation, or nullptr with the reason in `error`:
    /// the kernel's own flavour, its part of the instrumented sources alone
    /// (METALCPU_ONLY_KERNEL, msl::kernelSelector(): the code it can reach,
    /// msl::selectKernelCode()), compiled (through the kernel cache) the first time it is asked
    /// for and loaded while this library lives. So a validated pipeline costs its kernel's
    /// compile, not the library's, and code that does not compile instrumented costs only the
    /// kernels that reach it their validation. The whole flavour stands in once compiled, and
    /// where nothing can be selected (a specialised library's text, a library from before).
    const mc_kernel* validationKernel(const std::string& name, std::string* error);
    /// Whether a shader-validation flavour, the whole or a kernel's, was asked for (so
    /// compiled, found in the cache or refused): tests check that plain dispatches do not pay
    /// for it.
    bool validationFlavourAsked() const;

    /// Kernel `name` compiled with `values` for its file's function constants (the library
    /// holding it, built or found in the cache), as Library::newFunction(name, values) makes
    /// it. nullptr with an empty `error` when the kernel's file has no function constants
    /// (this library is the answer), nullptr with Metal's message in `error` when
    /// a value is missing or of the wrong type, or the specialised text does not compile.
    std::shared_ptr<KernelLibrary> specialise(const std::string& name, const ConstantValues& values,
                                              std::string* error);
    /// The function constants kernel `name` needs a value for and has none in this library
    /// (it was made without values): a pipeline cannot be made of it.
    std::vector<const mc_function_constant*> unspecialisedConstants(const std::string& name) const;
    /// The function constants kernel `name` reaches, for MTL::Function reflection.
    std::vector<const mc_function_constant*> functionConstants(const std::string& name) const;

    KernelLibrary(const KernelLibrary&) = delete;
    KernelLibrary& operator=(const KernelLibrary&) = delete;

private:
    KernelLibrary() = default;
    std::weak_ptr<KernelLibrary> self_;
    std::uint64_t serial_ = 0;
    void* handle_ = nullptr;
    int memoryFile_ = -1; ///< what handle_ was loaded from; open while it is loaded (debuggers read it)
    std::string path_;
    std::string contentHash_;
    std::vector<std::string> names_;
    std::vector<std::string> renderNames_;
    std::map<std::string, const mc_kernel*> kernels_;
    std::map<std::string, const mc_module*> modules_; ///< of each kernel
    std::map<std::uint64_t, mc_threadgroup_site> sites_; ///< by key: the largest record of each site
    /// By (owner, key): the records of sites in kernel templates' bodies, per instantiation.
    std::map<std::pair<std::uint64_t, std::uint64_t>, mc_threadgroup_site> ownedSites_;
    std::vector<std::string> validationSources_;
    /// The errors of the modules whose instrumented translation failed (they carry
    /// validationFailureSource() instead of a validation source).
    std::string validationTranslationErrors_;
    /// Why a kernel of such a module has no shader-validation flavour.
    std::string translationFailure() const;
    std::vector<std::uint64_t> constants_; ///< program-scope constants registered for validation
    mutable std::mutex validationMutex_;
    std::shared_ptr<KernelLibrary> validation_;
    std::string validationError_;
    /// Per kernel: its own flavour (validationKernel()), or why it has none.
    std::map<std::string, std::shared_ptr<KernelLibrary>> kernelFlavours_;
    std::map<std::string, std::string> kernelFlavourErrors_;
    /// validationSources_ compile one kernel already (a specialised library's, makeTwinSource()).
    bool oneKernelSources_ = false;
    /// A reflection image's kernels compiled so far (kernelCode()), or why one does not compile.
    mutable std::mutex codeMutex_;
    std::map<std::string, std::shared_ptr<KernelLibrary>> codeImages_;
    std::map<std::string, std::string> codeImageErrors_;

    std::shared_ptr<KernelLibrary> kernelValidationFlavour(const std::string& name, std::string* error);
    /// validationFlavour(), under validationMutex_.
    std::shared_ptr<KernelLibrary> wholeValidationFlavour(std::string* error);

    /// For a library specialise() made: the instrumented text its shader-validation flavour
    /// compiles is the parent's, specialised alike (specialisedSource()), made when the flavour
    /// is first asked for. The specialised library does not carry it: a copy per pipeline of
    /// the parent's text made llama.cpp's kernel cache gigabytes (issue 10).
    struct ValidationTwin {
        std::shared_ptr<KernelLibrary> parent; ///< keeps its module's validation_source alive
        std::string kernel;
        std::string values;
    };
    std::optional<ValidationTwin> twin_;
    void adoptValidationTwin(ValidationTwin twin);
    /// Turns twin_ into validationSources_ (or its translation's errors); under validationMutex_.
    void makeTwinSource();
};

} // namespace metalcpu::jit
