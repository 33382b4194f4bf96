#pragma once

#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <string>

namespace metalcpu::rt {

/// Which Apple GPU the device presents itself as, and how cooperative tensors divide their
/// elements among threads there: the device-specific part of Metal 4 that portable kernels
/// must not depend on (docs/configuration.md: METALCPU_GPU_FAMILY, METALCPU_COOPERATIVE_LAYOUT).
struct GpuEmulation {
    mc_u32 family = MC_GPU_FAMILY_APPLE10;                   ///< mc_gpu_family
    mc_u32 cooperativeLayout = MC_COOPERATIVE_LAYOUT_APPLE10; ///< mc_cooperative_layout_kind
    std::uint64_t cooperativeSeed = 1;

    /// From the environment: unknown values are a warning and the default.
    static GpuEmulation fromConfig();
    /// The layout a family uses when METALCPU_COOPERATIVE_LAYOUT is `family`.
    static mc_u32 layoutOfFamily(mc_u32 family);
    /// "apple10", "shuffled", ...: for logs and error messages.
    static std::string familyName(mc_u32 family);
    static std::string layoutName(mc_u32 layout);
};

} // namespace metalcpu::rt
