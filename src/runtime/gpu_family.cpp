#include "runtime/gpu_family.h"

#include "support/config.h"
#include "support/log.h"

namespace metalcpu::rt {
namespace {

struct Named {
    const char* name;
    mc_u32 value;
};

constexpr Named kFamilies[] = {{"apple7", MC_GPU_FAMILY_APPLE7},
                               {"apple8", MC_GPU_FAMILY_APPLE8},
                               {"apple9", MC_GPU_FAMILY_APPLE9},
                               {"apple10", MC_GPU_FAMILY_APPLE10}};
constexpr Named kLayouts[] = {{"apple10", MC_COOPERATIVE_LAYOUT_APPLE10},
                              {"apple9", MC_COOPERATIVE_LAYOUT_APPLE9},
                              {"shuffled", MC_COOPERATIVE_LAYOUT_SHUFFLED},
                              {"padded", MC_COOPERATIVE_LAYOUT_PADDED}};

template <std::size_t N>
const Named* find(const Named (&table)[N], const std::string& name) {
    for (const Named& entry : table)
        if (name == entry.name) return &entry;
    return nullptr;
}

template <std::size_t N>
std::string nameOf(const Named (&table)[N], mc_u32 value) {
    for (const Named& entry : table)
        if (entry.value == value) return entry.name;
    return "unknown (" + std::to_string(value) + ")";
}

} // namespace

GpuEmulation GpuEmulation::fromConfig() {
    const support::Config& config = support::config();
    GpuEmulation emulation;
    if (const Named* family = find(kFamilies, config.gpuFamily)) emulation.family = family->value;
    else
        support::log().warn("METALCPU_GPU_FAMILY={} is not one of apple7, apple8, apple9, apple10; using apple10",
                             config.gpuFamily);
    emulation.cooperativeLayout = layoutOfFamily(emulation.family);
    if (config.cooperativeLayout != "family") {
        if (const Named* layout = find(kLayouts, config.cooperativeLayout)) emulation.cooperativeLayout = layout->value;
        else
            support::log().warn("METALCPU_COOPERATIVE_LAYOUT={} is not one of family, apple10, apple9, shuffled, "
                                 "padded; using the family's",
                                 config.cooperativeLayout);
    }
    emulation.cooperativeSeed = static_cast<std::uint64_t>(config.cooperativeLayoutSeed);
    return emulation;
}

mc_u32 GpuEmulation::layoutOfFamily(mc_u32 family) {
    // Apple10 (M5) introduced the 16x16 fragments libraries hard-code; earlier families
    // are emulated with simdgroup_matrix's 8x8 lane map.
    return family >= MC_GPU_FAMILY_APPLE10 ? MC_COOPERATIVE_LAYOUT_APPLE10 : MC_COOPERATIVE_LAYOUT_APPLE9;
}

std::string GpuEmulation::familyName(mc_u32 family) { return nameOf(kFamilies, family); }
std::string GpuEmulation::layoutName(mc_u32 layout) { return nameOf(kLayouts, layout); }

} // namespace metalcpu::rt
