#include "runtime/library.h"

#include "foundation/factories.h"
#include "jit/library_cache.h"
#include "runtime/compile_options.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "support/config.h"
#include "support/files.h"
#include "support/log.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <new>
#include <vector>

namespace metalcpu::rt {

Library::Library(Device* device, std::shared_ptr<jit::KernelLibrary> kernels, ThreadgroupLimits limits)
    : device_(device), kernels_(std::move(kernels)), limits_(limits) {}

namespace {

/// The edit distance between `a` and `b` (insertions, deletions, substitutions).
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string Library::renderFunctionRefusal(const std::string& name) const {
    const std::vector<std::string>& render = kernels_->renderFunctionNames();
    if (std::find(render.begin(), render.end(), name) == render.end()) return {};
    return "Function " + name + " is a render function (vertex or fragment), and render functions are not supported "
           "by metalcpu: it runs compute kernels only, so the library holds its file's kernels and not its render "
           "functions";
}

MTL::Function* Library::newFunction(const std::string& name) {
    const mc_kernel* kernel = kernels_->find(name);
    if (!kernel && !renderFunctionRefusal(name).empty()) {
        // Metal would return a function that no compute pipeline takes; this one says why not.
        support::log().warn("newFunction: {}", renderFunctionRefusal(name));
        return nullptr;
    }
    if (!kernel) {
        // Metal returns nil and says nothing; the pipeline made from it then only says that
        // its function is nil. Say which names there are: a warning with the debug layer, at
        // METALCPU_LOG_LEVEL=info otherwise.
        const std::vector<std::string> names = kernels_->kernelNames();
        std::string message = "newFunction: no function '" + name + "' in the library";
        if (!names.empty()) {
            const std::string* closest = &names.front();
            for (const std::string& candidate : names)
                if (editDistance(candidate, name) < editDistance(*closest, name)) closest = &candidate;
            if (editDistance(*closest, name) <= std::max<std::size_t>(2, name.size() / 3))
                message += " (did you mean '" + *closest + "'?)";
            message += "; it has: ";
            constexpr std::size_t kListed = 20;
            for (std::size_t i = 0; i < names.size() && i < kListed; ++i) message += (i ? ", " : "") + names[i];
            if (names.size() > kListed) message += ", and " + std::to_string(names.size() - kListed) + " more";
        } else {
            message += ", which has no functions";
        }
        if (DebugLayer::mode() != DebugLayer::Mode::Off) support::log().warn("{}", message);
        else support::log().info("{}", message);
        return nullptr;
    }
    return ns::make<Function>(device_, kernels_, kernel, limits_);
}

MTL::Function* Library::newFunction(const std::string& name, const jit::ConstantValues& values, NS::Error** error) {
    const mc_kernel* kernel = kernels_->find(name);
    if (!kernel && !renderFunctionRefusal(name).empty()) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorUnsupported, renderFunctionRefusal(name));
        return nullptr;
    }
    if (!kernel) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorFunctionNotFound,
                 "Function " + name + " was not found in the library");
        return nullptr;
    }
    std::string why;
    std::shared_ptr<jit::KernelLibrary> specialised = kernels_->specialise(name, values, &why);
    if (!specialised && why.empty()) return ns::make<Function>(device_, kernels_, kernel, limits_); // no function constants
    if (!specialised) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorCompileFailure, why);
        return nullptr;
    }
    const mc_kernel* compiled = specialised->find(name);
    if (!compiled) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorInternal,
                 "Function " + name + " is missing from its specialised library");
        return nullptr;
    }
    return ns::make<Function>(device_, std::move(specialised), compiled, limits_);
}

NS::Array* Library::functionNames() const {
    std::vector<NS::Object*> names;
    for (const std::string& name : kernels_->kernelNames()) names.push_back(ns::makeString(name));
    for (const std::string& name : kernels_->renderFunctionNames()) names.push_back(ns::makeString(name));
    NS::Array* array = ns::makeArray(names);
    for (NS::Object* name : names) name->release();
    return ns::autoreleased(array);
}

Function::Function(Device* device, std::shared_ptr<jit::KernelLibrary> kernels, const mc_kernel* kernel,
                   ThreadgroupLimits limits)
    : device_(device), library_(std::move(kernels)), kernel_(kernel), limits_(limits),
      name_(ns::makeString(kernel->name)) {}

Function::~Function() { name_->release(); }

namespace {

/// Why a library file did not open: the NS::Error's code and description.
struct OpenFailure {
    MTL::LibraryError code = MTL::LibraryErrorInternal;
    std::string description;
};

/// The library at `path`, or nullptr with `failure` filled in. `described` is what the
/// failure calls it (jit::KernelLibrary::open).
MTL::Library* openLibraryFile(Device* device, const std::string& path, OpenFailure& failure,
                              const std::string& described = {}) {
    if (path.empty() || !support::fileExists(path)) {
        failure = {MTL::LibraryErrorFileNotFound,
                   "Library file not found: " + (path.empty() ? std::string("(no path)") : path)};
        return nullptr;
    }
    std::string reason;
    std::shared_ptr<jit::KernelLibrary> kernels = jit::KernelLibrary::open(path, &reason, {}, nullptr, described);
    if (!kernels) {
        failure = {MTL::LibraryErrorInternal, reason};
        return nullptr;
    }
    return ns::make<Library>(device, std::move(kernels));
}

/// The default library: METALCPU_DEFAULT_LIBRARY's, else default.metallib beside the
/// executable, else in the working directory.
MTL::Library* openDefaultLibrary(Device* device, OpenFailure& failure) {
    const std::string configured = support::config().defaultLibrary;
    if (!configured.empty()) return openLibraryFile(device, configured, failure);
    const std::string besideExecutable = support::executableDirectory() + "/default.metallib";
    std::error_code unknown;
    const std::string inWorkingDirectory = (std::filesystem::current_path(unknown) / "default.metallib").string();
    for (const std::string& candidate : {besideExecutable, inWorkingDirectory})
        if (support::fileExists(candidate)) return openLibraryFile(device, candidate, failure);
    failure = {MTL::LibraryErrorFileNotFound,
               "no default library: default.metallib is neither beside the executable (" + besideExecutable +
                   ") nor in the working directory (" + inWorkingDirectory +
                   "); build it with metal_add_library(<target> OUTPUT_NAME default SOURCES ...) or the metal and "
                   "metallib tools, or set METALCPU_DEFAULT_LIBRARY to its path"};
    return nullptr;
}

} // namespace

MTL::Library* newLibraryWithFile(Device* device, const std::string& path, NS::Error** error) {
    OpenFailure failure;
    MTL::Library* library = openLibraryFile(device, path, failure);
    if (!library) setError(error, kLibraryErrorDomain, failure.code, failure.description);
    return library;
}

MTL::Library* newLibraryWithData(Device* device, const void* bytes, std::size_t size, NS::Error** error) {
    // The loader takes libraries from files it checks and seals (jit/library_file.h): the
    // bytes go into an anonymous memory file, opened by its /proc name, as a file on disk is.
    const int file = memfd_create("metalcpu-library-data", MFD_CLOEXEC);
    const std::string path = "/proc/self/fd/" + std::to_string(file);
    bool written = file >= 0;
    for (std::size_t done = 0; written && done < size;) {
        const ssize_t wrote = write(file, static_cast<const char*>(bytes) + done, size - done);
        written = wrote > 0;
        done += written ? static_cast<std::size_t>(wrote) : 0;
    }
    OpenFailure failure{MTL::LibraryErrorInternal, "cannot hold the library data in memory"};
    // Errors name what the caller gave, not the memory file's passing /proc name.
    MTL::Library* library = written ? openLibraryFile(device, path, failure, "library data") : nullptr;
    if (file >= 0) close(file);
    if (!library) setError(error, kLibraryErrorDomain, failure.code, failure.description);
    return library;
}

MTL::Library* newDefaultLibrary(Device* device, NS::Error** error) {
    OpenFailure failure;
    MTL::Library* library = openDefaultLibrary(device, failure);
    if (library) return library;
    setError(error, kLibraryErrorDomain, failure.code, failure.description);
    // newDefaultLibrary() has no error to give: a nil library must not go unexplained.
    support::log().log(error ? spdlog::level::info : spdlog::level::warn, "newDefaultLibrary: {}",
                       failure.description);
    return nullptr;
}

MTL::Library* newLibraryWithSource(Device* device, const NS::String* source, const MTL::CompileOptions* options,
                                   NS::Error** error, SourceCall call, MTL::LanguageVersion defaultVersion) {
    if (!source) {
        // Apple's debug layer asserts on nil arguments in this style; the wording and the
        // line are metalcpu's (docs/validation-api.md).
        DebugLayer::reject({"MTLDebugDevice",
                            call == SourceCall::WithError ? "newLibraryWithSource:options:error:"
                                                          : "newLibraryWithSource:options:completionHandler:",
                            call == SourceCall::WithError ? 1101u : 1102u},
                           "source must not be nil.");
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorCompileFailure,
                 "Compilation failed: source must not be nil");
        return nullptr;
    }
    // The MSL front end runs in this process: what it throws (std::bad_alloc, when memory
    // runs out before METALCPU_COMPILE_TOKEN_LIMIT stops a huge source) is a failed compile,
    // never an exception through the API.
    try {
        jit::KernelCompileSettings settings = compileSettingsOf(options, defaultVersion);
        jit::SourceBuild build = jit::buildLibraryFromSource(ns::stringOf(source), settings);
        if (!build.ok) {
            setError(error, kLibraryErrorDomain, MTL::LibraryErrorCompileFailure,
                     "Compilation failed: \n\n" + build.diagnostics);
            return nullptr;
        }
        const CompileOptions* chosen = ns::implOf<CompileOptions>(options);
        return ns::make<Library>(device, std::move(build.library),
                                 chosen ? ThreadgroupLimits{chosen->maxTotalThreadsPerThreadgroup,
                                                            chosen->requiredThreadsPerThreadgroup}
                                        : ThreadgroupLimits{});
    } catch (const std::bad_alloc&) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorCompileFailure,
                 "Compilation failed: \n\nerror: this process ran out of memory while compiling the kernels "
                 "(METALCPU_COMPILE_TOKEN_LIMIT bounds how large a source the front end takes)\n");
    } catch (const std::exception& e) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorInternal,
                 std::string("Compilation failed: internal error: ") + e.what());
    } catch (...) {
        setError(error, kLibraryErrorDomain, MTL::LibraryErrorInternal, "Compilation failed: internal error");
    }
    return nullptr;
}

} // namespace metalcpu::rt
