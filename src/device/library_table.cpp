#include "device/library_table.h"

#include "exec/services.h"
#include "validation/allocations.h"

#include <dlfcn.h>
#include <mutex>
#include <unistd.h>

namespace metalcpu::device {

LibraryTable::Library::~Library() {
    for (std::uint64_t begin : constants) val::AllocationRegistry::shared().remove(begin);
    if (handle) dlclose(handle);
    if (file >= 0) close(file);
}

bool LibraryTable::load(iso::LibraryId id, int file, const std::string& path, std::string* error) {
    auto library = std::make_unique<Library>();
    library->file = file;
    // The host checked these bytes (no code runs at load, no dependencies) and sealed them.
    const std::string loadable = "/proc/self/fd/" + std::to_string(file);
    library->handle = dlopen(loadable.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library->handle) {
        const char* why = dlerror();
        *error = "cannot load " + path + (why ? std::string(": ") + why : std::string());
        return false;
    }
    auto open = reinterpret_cast<mc_library_open_fn>(dlsym(library->handle, METALCPU_LIBRARY_OPEN_SYMBOL));
    const mc_module* const* modules = nullptr;
    const mc_threadgroup_site* sites = nullptr;
    mc_u32 moduleCount = 0, siteCount = 0;
    if (!open || open(exec::kernelServices(), &modules, &moduleCount, &sites, &siteCount) !=
                     static_cast<int>(METALCPU_KERNEL_ABI_VERSION)) {
        *error = path + " is not a kernel library of this metalcpu";
        return false;
    }
    for (mc_u32 m = 0; m < moduleCount; ++m) {
        const mc_module* module = modules[m];
        if (!module || module->abi_version != METALCPU_KERNEL_ABI_VERSION) continue;
        for (mc_u32 c = 0; c < module->constant_count; ++c) {
            const mc_constant_data& data = module->constants[c];
            const auto begin = reinterpret_cast<std::uint64_t>(data.begin);
            std::string label = std::string("constant ") + data.name;
            val::AllocationRegistry::shared().add(begin, data.length, [label] { return label; },
                                                 validation::AddressSpace::Constant);
            library->constants.push_back(begin);
        }
        for (mc_u32 k = 0; k < module->kernel_count; ++k)
            library->kernels.emplace(module->kernels[k].name, &module->kernels[k]);
    }
    std::unique_lock lock(mutex_);
    libraries_[id] = std::move(library);
    return true;
}

void LibraryTable::unload(iso::LibraryId id) {
    std::unique_ptr<Library> gone;
    std::unique_lock lock(mutex_);
    auto found = libraries_.find(id);
    if (found == libraries_.end()) return;
    gone = std::move(found->second);
    libraries_.erase(found);
}

const mc_kernel* LibraryTable::find(iso::LibraryId id, const std::string& name) const {
    std::shared_lock lock(mutex_);
    auto library = libraries_.find(id);
    if (library == libraries_.end()) return nullptr;
    auto kernel = library->second->kernels.find(name);
    return kernel == library->second->kernels.end() ? nullptr : kernel->second;
}

} // namespace metalcpu::device
