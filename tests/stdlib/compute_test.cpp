// Tests of <metal_compute>: mem_flags and the barriers, which call the runtime's
// threadgroup_barrier service with the flags, or its SIMD-group rendezvous.
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <vector>

namespace {

std::vector<mc_u32> g_barrier_calls;

std::vector<mc_u32> g_exchange_sizes;

void record_barrier(mc_u32 flags) { g_barrier_calls.push_back(flags); }

const mc_group* no_group() { return nullptr; }

void record_exchange(const void*, mc_u32 size, const mc_simd_site*, mc_simd_round* round) {
    g_exchange_sizes.push_back(size);
    *round = mc_simd_round{nullptr, 1u, 0u, 1u};
}

// Points metalcpu_kernel::g_services (the runtime's services, as a kernel library sees them)
// at a stub that records the barriers.
class ComputeTest : public ::testing::Test {
protected:
    void SetUp() override {
        g_barrier_calls.clear();
        g_exchange_sizes.clear();
        services_.abi_version = METALCPU_KERNEL_ABI_VERSION;
        services_.threadgroup_barrier = record_barrier;
        services_.simdgroup_exchange = record_exchange;
        services_.current_group = no_group;
        metalcpu_kernel::g_services = &services_;
    }
    void TearDown() override { metalcpu_kernel::g_services = nullptr; }

    mc_services services_{};
};

// Test that the mem_flags values are Metal's and combine with |.
TEST_F(ComputeTest, MemFlagsValues) {
    using metal::mem_flags;
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_none), 0u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_device), 1u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_threadgroup), 2u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_texture), 4u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_threadgroup_imageblock), 8u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_object_data), 16u);
    EXPECT_EQ(static_cast<uint>(mem_flags::mem_device | mem_flags::mem_threadgroup), 3u);
    EXPECT_EQ(static_cast<uint>((mem_flags::mem_device | mem_flags::mem_texture) & mem_flags::mem_texture), 4u);
}

// Test that threadgroup_barrier calls the runtime's barrier once with its flags.
TEST_F(ComputeTest, ThreadgroupBarrierCallsTheRuntime) {
    metal::threadgroup_barrier(metal::mem_flags::mem_threadgroup);
    metal::threadgroup_barrier(metal::mem_flags::mem_device | metal::mem_flags::mem_threadgroup);
    ASSERT_EQ(g_barrier_calls.size(), 2u);
    EXPECT_EQ(g_barrier_calls[0], 2u);
    EXPECT_EQ(g_barrier_calls[1], 3u);
}

// Test that simdgroup_barrier is the runtime's SIMD-group rendezvous without a value, not a
// threadgroup barrier.
TEST_F(ComputeTest, SimdgroupBarrierMeetsTheSimdgroupOnly) {
    metal::simdgroup_barrier(metal::mem_flags::mem_none);
    EXPECT_TRUE(g_barrier_calls.empty());
    ASSERT_EQ(g_exchange_sizes.size(), 1u);
    EXPECT_EQ(g_exchange_sizes[0], 0u);
}

} // namespace
