#include "jit/kernel_library.h"

#include "compiler/translate.h"
#include "exec/services.h"
#include "jit/flavour_failure.h"
#include "jit/kernel_compiler.h"
#include "jit/library_cache.h"
#include "jit/library_file.h"
#include "support/log.h"
#include "validation/allocations.h"

#include <algorithm>
#include <atomic>
#include <dlfcn.h>
#include <set>
#include <unistd.h>

namespace metalcpu::jit {

namespace {

/// The first `count` lines of `text` (a compiler's diagnostics can run to pages).
std::string firstLines(const std::string& text, std::size_t count) {
    std::size_t end = 0;
    for (std::size_t n = 0; n < count; ++n) {
        end = text.find('\n', end);
        if (end == std::string::npos) return text;
        ++end;
    }
    return end >= text.size() ? text : text.substr(0, end) + "...";
}

/// The libraries this process has loaded and still uses, by path and content hash: each is
/// loaded once, however many Library objects are made of it (each load holds a descriptor
/// and a copy of the code).
class LoadedLibraries {
public:
    std::shared_ptr<KernelLibrary> find(const std::string& key) {
        std::lock_guard lock(mutex_);
        auto found = loaded_.find(key);
        return found == loaded_.end() ? nullptr : found->second.lock();
    }
    /// `library`, or the one another thread loaded from the same bytes meanwhile.
    std::shared_ptr<KernelLibrary> add(const std::string& key, std::shared_ptr<KernelLibrary> library) {
        std::lock_guard lock(mutex_);
        std::erase_if(loaded_, [](const auto& entry) { return entry.second.expired(); });
        std::weak_ptr<KernelLibrary>& slot = loaded_[key];
        if (std::shared_ptr<KernelLibrary> earlier = slot.lock()) return earlier;
        slot = library;
        return library;
    }

private:
    std::mutex mutex_;
    std::map<std::string, std::weak_ptr<KernelLibrary>> loaded_;
};

LoadedLibraries& loadedLibraries() {
    static LoadedLibraries* loaded = new LoadedLibraries; // libraries may outlive static destruction
    return *loaded;
}

/// The name the loader knows a memory file by: its /proc name with this process's id, not
/// "self", since a debugger reads the name from the loader's list and opens it in its own
/// process.
std::string loadableName(int memoryFile) {
    return "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(memoryFile);
}

} // namespace

std::shared_ptr<KernelLibrary> KernelLibrary::open(const std::string& path, std::string* error,
                                                   const std::string& cacheKey, bool* unavailable,
                                                   const std::string& described) {
    const std::string invalid = "Invalid " + (described.empty() ? "library file " + path : described);
    std::string reason;
    std::shared_ptr<KernelLibrary> library(new KernelLibrary);
    library->path_ = path;
    // The library owns the memory file and the handle from here on: an early return closes both.
    std::string level;
    library->memoryFile_ = readVerifiedLibrary(path, cacheKey, &reason, &library->contentHash_, unavailable, &level);
    if (library->memoryFile_ < 0) {
        *error = invalid + " (" + reason + ")";
        return nullptr;
    }
    // Checked again every time (the file may have changed), loaded once.
    const std::string loadedKey = library->contentHash_ + level + path;
    if (std::shared_ptr<KernelLibrary> loaded = loadedLibraries().find(loadedKey)) return loaded;
    library->handle_ = dlopen(loadableName(library->memoryFile_).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library->handle_) {
        const char* why = dlerror();
        *error = invalid + (why ? std::string(" (") + why + ")" : std::string());
        return nullptr;
    }
    auto openFn = reinterpret_cast<mc_library_open_fn>(dlsym(library->handle_, METALCPU_LIBRARY_OPEN_SYMBOL));
    if (!openFn) {
        *error = invalid + " (not a metalcpu kernel library)";
        return nullptr;
    }
    const mc_module* const* modules = nullptr;
    const mc_threadgroup_site* sites = nullptr;
    mc_u32 moduleCount = 0, siteCount = 0;
    int abi = openFn(exec::kernelServices(), &modules, &moduleCount, &sites, &siteCount);
    if (abi != static_cast<int>(METALCPU_KERNEL_ABI_VERSION)) {
        *error = invalid + " (built for kernel ABI " + std::to_string(abi) +
                 ", this metalcpu uses " + std::to_string(METALCPU_KERNEL_ABI_VERSION) + "; rebuild it)";
        return nullptr;
    }
    std::set<const char*> validationTexts;
    for (mc_u32 m = 0; m < moduleCount; ++m) {
        const mc_module* module = modules[m];
        if (!module || module->abi_version != METALCPU_KERNEL_ABI_VERSION) continue;
        // The parts of a file compiled in parts (compile_parts.h) point at one text: compiled once.
        if (const char* validation = module->validation_source; validation && validationTexts.insert(validation).second) {
            if (auto failed = validationFailureReason(validation)) library->validationTranslationErrors_ += *failed;
            else library->validationSources_.push_back(validation);
        }
        for (mc_u32 c = 0; c < module->constant_count; ++c) {
            // Shader validation checks untagged addresses against the registry.
            const mc_constant_data& data = module->constants[c];
            const auto begin = reinterpret_cast<std::uint64_t>(data.begin);
            std::string label = std::string("constant ") + data.name;
            val::AllocationRegistry::shared().add(begin, data.length, [label] { return label; },
                                                 validation::AddressSpace::Constant);
            library->constants_.push_back(begin);
        }
        // Each part of a file compiled in parts names them again.
        for (mc_u32 r = 0; r < module->render_function_count; ++r)
            if (const char* name = module->render_functions[r];
                std::find(library->renderNames_.begin(), library->renderNames_.end(), name) == library->renderNames_.end())
                library->renderNames_.push_back(name);
        for (mc_u32 k = 0; k < module->kernel_count; ++k) {
            const mc_kernel* kernel = &module->kernels[k];
            if (library->kernels_.emplace(kernel->name, kernel).second) {
                library->names_.push_back(kernel->name);
                library->modules_.emplace(kernel->name, module);
            }
        }
    }
    const auto keepLargest = [](mc_threadgroup_site& site, const mc_threadgroup_site& record) {
        if (record.size > site.size) site.size = record.size;
        if (record.align > site.align) site.align = record.align;
    };
    for (mc_u32 s = 0; s < siteCount; ++s) {
        // A site in a template has a record per instantiation: the largest counts for a
        // kernel that does not own it, its own for the kernel instantiation that does.
        const mc_threadgroup_site& record = sites[s];
        mc_threadgroup_site& site = library->sites_.try_emplace(record.key, record).first->second;
        keepLargest(site, record);
        if (record.owner) site.owner = record.owner; // marks a site of a kernel template's body
        if (record.owner)
            keepLargest(library->ownedSites_.try_emplace({record.owner, record.key}, record).first->second, record);
    }
    static std::atomic<std::uint64_t> serials{0};
    library->serial_ = ++serials;
    library->self_ = library;
    support::log().debug("loaded the {} image of {}", level, path);
    return loadedLibraries().add(loadedKey, std::move(library));
}

KernelLibrary::~KernelLibrary() {
    for (std::uint64_t begin : constants_) val::AllocationRegistry::shared().remove(begin);
    bool stillLoaded = false;
    if (handle_) {
        dlclose(handle_);
        // The loader keeps a library that holds a GNU unique symbol (kernels are compiled
        // -fno-gnu-unique, but METALCPU_KERNEL_FLAGS can undo it) and finds it again by its
        // name: were the memory file closed, the next library given the same descriptor
        // number would get this one's code. Such a library keeps its descriptor.
        if (void* again = dlopen(loadableName(memoryFile_).c_str(), RTLD_NOW | RTLD_NOLOAD)) {
            dlclose(again);
            stillLoaded = true;
            support::log().debug("{} stays loaded (it holds a GNU unique symbol); its memory file stays open", path_);
        }
    }
    if (memoryFile_ >= 0 && !stillLoaded) close(memoryFile_);
}

std::shared_ptr<KernelLibrary> KernelLibrary::holderOf(const mc_kernel* kernel) {
    if (!kernel || !kernel->name) return nullptr;
    const std::string name = kernel->name;
    if (find(name) == kernel) return self_.lock();
    {
        std::lock_guard lock(codeMutex_);
        auto code = codeImages_.find(name);
        if (code != codeImages_.end() && code->second->find(name) == kernel) return code->second;
    }
    std::lock_guard lock(validationMutex_);
    if (validation_ && validation_->find(name) == kernel) return validation_;
    auto own = kernelFlavours_.find(name);
    if (own != kernelFlavours_.end() && own->second && own->second->find(name) == kernel) return own->second;
    return nullptr;
}

const mc_kernel* KernelLibrary::kernelCode(const std::string& name, std::string* error) {
    const mc_kernel* row = find(name);
    if (!row) {
        if (error) *error = "no kernel " + name + " in " + path_;
        return nullptr;
    }
    if (hasCode(*row)) return row;
    {
        std::lock_guard lock(codeMutex_);
        if (auto found = codeImages_.find(name); found != codeImages_.end()) return found->second->find(name);
        if (auto failed = codeImageErrors_.find(name); failed != codeImageErrors_.end()) {
            if (error) *error = failed->second;
            return nullptr;
        }
    }
    // Compiled without the lock, so that dispatches (holderOf()) and other kernels' pipelines
    // need not wait; threads asking for the same kernel meet in the cache, which builds it once.
    const mc_module& module = *modules_.at(name);
    std::shared_ptr<KernelLibrary> compiled;
    std::string why;
    if (!module.specialisation_source) {
        why = path_ + " holds no machine code of kernel " + name + " and no text to compile it from";
    } else {
        // Only the kernel's own part of the text: its glue, and in a file whose kernels can be
        // selected, the code it reaches. The other kernels stay uncompiled.
        SourceBuild build = buildKernelCode(specialisedSource(module.specialisation_source, {}, name), name);
        const mc_kernel* kernel = build.ok ? build.library->find(name) : nullptr;
        if (kernel && hasCode(*kernel)) compiled = build.library;
        else if (build.ok) why = "the kernel is missing from its own compiled library " + build.libraryPath;
        else
            why = "its machine code, compiled when its first pipeline is made (" + path_ +
                  " holds its reflection only: METALCPU_DEFERRED_CODE_KERNELS), does not compile:\n" + build.diagnostics;
    }
    std::lock_guard lock(codeMutex_);
    if (compiled) return codeImages_.try_emplace(name, compiled).first->second->find(name);
    if (codeImageErrors_.emplace(name, why).second)
        support::log().warn("kernel {} has no machine code (its pipelines are refused): {}", name, firstLines(why, 12));
    if (error) *error = why;
    return nullptr;
}

void KernelLibrary::adoptValidationTwin(ValidationTwin twin) {
    std::lock_guard lock(validationMutex_);
    // A library is loaded once however often it is specialised to: the first twin stands.
    if (!twin_ && validationSources_.empty() && validationTranslationErrors_.empty()) twin_ = std::move(twin);
}

void KernelLibrary::makeTwinSource() {
    if (!twin_) return;
    const mc_module& module = *twin_->parent->modules_.at(twin_->kernel);
    if (auto failed = validationFailureReason(module.validation_source)) validationTranslationErrors_ += *failed;
    else validationSources_.push_back(specialisedSource(module.validation_source, twin_->values, twin_->kernel));
    oneKernelSources_ = true;
    twin_.reset();
}

std::shared_ptr<KernelLibrary> KernelLibrary::validationFlavour(std::string* error) {
    std::lock_guard lock(validationMutex_);
    makeTwinSource();
    return wholeValidationFlavour(error);
}

std::shared_ptr<KernelLibrary> KernelLibrary::wholeValidationFlavour(std::string* error) {
    if (!validation_ && validationError_.empty()) {
        if (validationSources_.empty()) {
            validationError_ = validationTranslationErrors_.empty()
                                   ? path_ + " carries no shader-validation flavour (build it with this metalcpu's metal tool)"
                                   : translationFailure();
        } else {
            SourceBuild build = buildValidationLibrary(validationSources_);
            if (build.ok) validation_ = build.library;
            else validationError_ = "the shader-validation flavour of " + path_ + " does not compile:\n" + build.diagnostics;
        }
    }
    if (!validation_ && error) *error = validationError_;
    return validation_;
}

bool KernelLibrary::validationFlavourAsked() const {
    std::lock_guard lock(validationMutex_);
    return validation_ || !validationError_.empty() || !kernelFlavours_.empty() || !kernelFlavourErrors_.empty();
}

const mc_kernel* KernelLibrary::validationKernel(const std::string& name, std::string* error) {
    std::shared_ptr<KernelLibrary> flavour = kernelValidationFlavour(name, error);
    if (!flavour) return nullptr;
    const mc_kernel* kernel = flavour->find(name);
    if (!kernel && error)
        *error = validationTranslationErrors_.empty() ? "the kernel is missing from its shader-validation flavour"
                                                      : translationFailure();
    return kernel;
}

std::shared_ptr<KernelLibrary> KernelLibrary::kernelValidationFlavour(const std::string& name, std::string* error) {
    std::lock_guard lock(validationMutex_);
    makeTwinSource();
    // The whole flavour, once compiled (validationFlavour()), holds every kernel.
    if (validation_) return validation_;
    if (auto found = kernelFlavours_.find(name); found != kernelFlavours_.end()) return found->second;
    if (auto failed = kernelFlavourErrors_.find(name); failed != kernelFlavourErrors_.end()) {
        if (error) *error = failed->second;
        return nullptr;
    }
    // Each kernel compiles its own part of the text, never the whole: the first validated
    // pipeline of a kernel costs that kernel's compile, whatever else its library holds, and a
    // kernel whose instrumented code does not compile fails only its own pipelines. No
    // batching when a second kernel of the library asks: programs use a few kernels of each
    // library, and a whole compile then would compile the first kernel again. Measured
    // (docs/validation.md, "One kernel's flavour"): one kernel of an 11-kernel library, 4.6 s
    // of CPU against the whole library's 135 s. Only the files that hold the kernel are
    // compiled.
    std::vector<std::string> sources;
    if (!oneKernelSources_)
        for (const std::string& source : validationSources_)
            if (std::string selected = selectingKernel(source, name); selected != source)
                sources.push_back(std::move(selected));
    if (sources.empty()) {
        // The kernel's file failed its instrumented translation: it has no text, and the
        // other files' would not hold the kernel.
        auto module = modules_.find(name);
        if (!oneKernelSources_ && module != modules_.end() && module->second->validation_source &&
            validationFailureReason(module->second->validation_source)) {
            kernelFlavourErrors_.emplace(name, translationFailure());
            if (error) *error = translationFailure();
            return nullptr;
        }
        // Nothing to select: a specialised library's text is its one kernel's already
        // (makeTwinSource()), and a library from before kernels could be selected holds them
        // all under no guard.
        return wholeValidationFlavour(error);
    }
    SourceBuild build = buildValidationLibrary(sources, name);
    if (!build.ok) {
        const std::string why = flavourCompileFailure(name, path_, build.diagnostics);
        const std::string first = firstInstrumentationError(build.diagnostics);
        support::log().warn("kernel {} of {} has no shader-validation flavour (its validated pipelines are refused): {}",
                            name, path_, first.empty() ? firstLines(build.diagnostics, 12) : first);
        kernelFlavourErrors_.emplace(name, why);
        if (error) *error = why;
        return nullptr;
    }
    kernelFlavours_.emplace(name, build.library);
    return build.library;
}

std::string KernelLibrary::translationFailure() const {
    return "the shader-validation translation of " + path_ + " failed:\n" + validationTranslationErrors_;
}

const mc_kernel* KernelLibrary::find(const std::string& name) const {
    auto found = kernels_.find(name);
    return found == kernels_.end() ? nullptr : found->second;
}

std::uint64_t KernelLibrary::staticThreadgroupMemory(const mc_kernel& kernel) const {
    std::uint64_t total = 0;
    for (mc_u32 i = 0; i < kernel.threadgroup_site_count; ++i) {
        const std::uint64_t key = kernel.threadgroup_sites[i];
        auto site = sites_.find(key);
        // No record: the variable's branch is dead in every instantiation.
        if (site == sites_.end()) continue;
        const mc_threadgroup_site* record = &site->second;
        if (kernel.threadgroup_owner && site->second.owner) {
            // A site of the kernel's own body: its instantiation's record, none when the
            // branch that declares it is dead there.
            auto owned = ownedSites_.find({kernel.threadgroup_owner, key});
            if (owned == ownedSites_.end()) continue;
            record = &owned->second;
        }
        std::uint64_t align = record->align < 16 ? 16 : record->align;
        total = (total + align - 1) / align * align + record->size;
    }
    return (total + 15) / 16 * 16;
}

std::shared_ptr<KernelLibrary> KernelLibrary::specialise(const std::string& name, const ConstantValues& values,
                                                        std::string* error) {
    auto module = modules_.find(name);
    if (module == modules_.end() || module->second->function_constant_count == 0) return nullptr;
    const mc_module& m = *module->second;
    if (!m.specialisation_source) {
        *error = "Function " + name + " cannot be specialised: " + path_ +
                 " holds it specialised already, or was built without its source";
        return nullptr;
    }
    Specialisation specialisation = specialisationOf(m, name, values);
    if (!specialisation.ok) {
        *error = specialisation.error;
        return nullptr;
    }
    SourceBuild build = buildSpecialisedLibrary(specialisedSource(m.specialisation_source, specialisation.values, name));
    if (!build.ok) {
        *error = "Function " + name + " does not compile with its function constants:\n" + build.diagnostics;
        return nullptr;
    }
    if (m.validation_source) build.library->adoptValidationTwin({self_.lock(), name, specialisation.values});
    return build.library;
}

std::vector<const mc_function_constant*> KernelLibrary::functionConstants(const std::string& name) const {
    auto module = modules_.find(name);
    return module == modules_.end() ? std::vector<const mc_function_constant*>{}
                                    : constantsOfKernel(*module->second, name);
}

std::vector<const mc_function_constant*> KernelLibrary::unspecialisedConstants(const std::string& name) const {
    std::vector<const mc_function_constant*> missing = functionConstants(name);
    std::erase_if(missing, [](const mc_function_constant* c) {
        return !(c->flags & MC_FUNCTION_CONSTANT_REQUIRED) || (c->flags & MC_FUNCTION_CONSTANT_DEFINED);
    });
    return missing;
}

} // namespace metalcpu::jit
