#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::exec {

class DispatchObserver;
class ShaderLog;

/// Everything the executor needs to run one dispatch. The runtime fills it from the
/// encoder's state; the executor never sees Metal objects.
struct Dispatch {
    const mc_kernel* kernel = nullptr;
    std::string kernelName;
    mc_dispatch parameters{};                    ///< what kernels read (buffers, sizes)
    std::uint32_t threadgroups[3] = {1, 1, 1};   ///< threadgroups in the grid
    std::uint32_t gridThreads[3] = {0, 0, 0};    ///< threads in the grid; edge groups are cut to it
    std::uint64_t threadgroupArgumentLengths[METALCPU_MAX_THREADGROUP_BINDINGS] = {};
    std::uint64_t threadgroupMemoryLimit = METALCPU_MAX_THREADGROUP_MEMORY_LENGTH; ///< device limit for static + dynamic memory
    /// Set for an instrumented kernel (shader validation): told of invalid accesses (not owned).
    DispatchObserver* observer = nullptr;
    /// Where the kernel's os_log messages go (not owned); null: they are discarded.
    ShaderLog* log = nullptr;
    /// The tensors bound at tensor_handle parameters: `parameters.buffers[i]` points at one of
    /// them. Reserved before the first is added, so the pointers hold while the dispatch
    /// moves (never copy a Dispatch that has tensors).
    std::vector<mc_tensor> tensors;
    /// Names the dispatch for whoever runs the executor (a device process's fault record).
    std::uint64_t tag = 0;
};

/// How a dispatch ended.
struct DispatchResult {
    bool ok = true;
    std::string error; ///< for people: what went wrong, naming the kernel
};

} // namespace metalcpu::exec
