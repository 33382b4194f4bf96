#include "runtime/gpu_family.h"

#include "scoped_state.h"

#include <gtest/gtest.h>

namespace metalcpu::rt {
namespace {

using testing::ScopedEnvironmentVariable;

// Test that the default device is an apple10 with the layout MLX and PyTorch hard-code.
TEST(GpuEmulation, DefaultsToApple10) {
    ScopedEnvironmentVariable family("METALCPU_GPU_FAMILY", std::nullopt);
    ScopedEnvironmentVariable layout("METALCPU_COOPERATIVE_LAYOUT", std::nullopt);
    ScopedEnvironmentVariable seed("METALCPU_COOPERATIVE_LAYOUT_SEED", std::nullopt);
    const GpuEmulation emulation = GpuEmulation::fromConfig();
    EXPECT_EQ(emulation.family, mc_u32(MC_GPU_FAMILY_APPLE10));
    EXPECT_EQ(emulation.cooperativeLayout, mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10));
    EXPECT_EQ(emulation.cooperativeSeed, 1u);
}

// Test that an earlier family brings its own layout unless a layout is asked for by name.
TEST(GpuEmulation, FamilyDecidesTheLayout) {
    ScopedEnvironmentVariable family("METALCPU_GPU_FAMILY", "apple9");
    {
        ScopedEnvironmentVariable layout("METALCPU_COOPERATIVE_LAYOUT", "family");
        const GpuEmulation emulation = GpuEmulation::fromConfig();
        EXPECT_EQ(emulation.family, mc_u32(MC_GPU_FAMILY_APPLE9));
        EXPECT_EQ(emulation.cooperativeLayout, mc_u32(MC_COOPERATIVE_LAYOUT_APPLE9));
    }
    ScopedEnvironmentVariable layout("METALCPU_COOPERATIVE_LAYOUT", "padded");
    ScopedEnvironmentVariable seed("METALCPU_COOPERATIVE_LAYOUT_SEED", "77");
    const GpuEmulation emulation = GpuEmulation::fromConfig();
    EXPECT_EQ(emulation.cooperativeLayout, mc_u32(MC_COOPERATIVE_LAYOUT_PADDED));
    EXPECT_EQ(emulation.cooperativeSeed, 77u);
    EXPECT_EQ(GpuEmulation::layoutName(emulation.cooperativeLayout), "padded");
    EXPECT_EQ(GpuEmulation::familyName(emulation.family), "apple9");
}

// Test that unknown names fall back to the defaults instead of turning the feature off.
TEST(GpuEmulation, UnknownNamesFallBack) {
    ScopedEnvironmentVariable family("METALCPU_GPU_FAMILY", "m5");
    ScopedEnvironmentVariable layout("METALCPU_COOPERATIVE_LAYOUT", "random");
    const GpuEmulation emulation = GpuEmulation::fromConfig();
    EXPECT_EQ(emulation.family, mc_u32(MC_GPU_FAMILY_APPLE10));
    EXPECT_EQ(emulation.cooperativeLayout, mc_u32(MC_COOPERATIVE_LAYOUT_APPLE10));
}

} // namespace
} // namespace metalcpu::rt
