// The kernel libraries a device process holds: the host's libraries, loaded from the memory
// files the host checked and sealed, under the numbers the host gave them.
#pragma once

#include "isolation/dispatch_messages.h"

#include <metalcpu/kernel_abi.h>

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

namespace metalcpu::device {

class LibraryTable {
public:
    /// Loads the library in memory file `file` (which the table then owns) as `id`; false with
    /// the reason in `error`.
    bool load(iso::LibraryId id, int file, const std::string& path, std::string* error);
    /// Unloads library `id` (no dispatch of it runs any more).
    void unload(iso::LibraryId id);
    /// Kernel `name` of library `id`, or nullptr.
    const mc_kernel* find(iso::LibraryId id, const std::string& name) const;

private:
    struct Library {
        void* handle = nullptr;
        int file = -1;
        std::map<std::string, const mc_kernel*> kernels;
        std::vector<std::uint64_t> constants; ///< registered for shader validation
        ~Library();
    };
    mutable std::shared_mutex mutex_;
    std::map<iso::LibraryId, std::unique_ptr<Library>> libraries_;
};

} // namespace metalcpu::device
