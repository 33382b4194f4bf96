// Tests of <metal_simdgroup_matrix> one lane at a time, against a stub of the runtime's
// SIMD-group rendezvous: the test says which lane is calling, and the stub keeps each lane's
// value in a round table. A product runs every lane twice: the first pass fills the table
// with every lane's operands, the second computes from it (as a real round would).
#include <gtest/gtest.h>

#include <metal_stdlib>

#include <cstring>

namespace {

unsigned g_lane = 0;
alignas(64) unsigned char g_round[32 * METALCPU_SIMD_VALUE_BYTES];

void lane_exchange(const void* value, mc_u32 size, const mc_simd_site*, mc_simd_round* round) {
    if (size > 0) std::memcpy(g_round + g_lane * METALCPU_SIMD_VALUE_BYTES, value, size);
    *round = mc_simd_round{g_round, 0xffffffffu, g_lane, 32u};
}

const mc_group* no_group() { return nullptr; }

/// The layout Apple GPUs use (see the survey), written out: lane l holds (row, column) and
/// (row, column + 1).
unsigned expected_row(unsigned l) { return ((l / 4) & 4) + (l / 2) % 4; }
unsigned expected_column(unsigned l) { return ((l / 4) & 2) * 2 + (l % 2) * 2; }

class SimdgroupMatrixTest : public ::testing::Test {
protected:
    void SetUp() override {
        services_.abi_version = METALCPU_KERNEL_ABI_VERSION;
        services_.simdgroup_exchange = lane_exchange;
        services_.current_group = no_group;
        metalcpu_kernel::g_services = &services_;
        std::memset(g_round, 0, sizeof g_round);
    }
    void TearDown() override { metalcpu_kernel::g_services = nullptr; }

    mc_services services_{};
};

// Test that simdgroup_load gives each lane the elements of Apple's lane layout, that the 32
// lanes cover the 64 elements once, and a few lanes spelled out.
TEST_F(SimdgroupMatrixTest, ThreadElementsFollowTheLaneLayout) {
    float source[64];
    for (int i = 0; i < 64; ++i) source[i] = float(i); // element (r, c) is r * 8 + c
    int seen[64] = {};
    metal::simdgroup_float8x8 m[32];
    for (g_lane = 0; g_lane < 32; ++g_lane) {
        metal::simdgroup_load(m[g_lane], source);
        const metal::float2 e = m[g_lane].thread_elements();
        const unsigned r = expected_row(g_lane), c = expected_column(g_lane);
        EXPECT_EQ(e[0], float(r * 8 + c)) << "lane " << g_lane;
        EXPECT_EQ(e[1], float(r * 8 + c + 1)) << "lane " << g_lane;
        ++seen[int(e[0])];
        ++seen[int(e[1])];
    }
    for (int i = 0; i < 64; ++i) EXPECT_EQ(seen[i], 1) << "element " << i;
    EXPECT_EQ(m[0].thread_elements()[0], 0.0f);  // (0, 0)
    EXPECT_EQ(m[1].thread_elements()[0], 2.0f);  // (0, 2)
    EXPECT_EQ(m[2].thread_elements()[0], 8.0f);  // (1, 0)
    EXPECT_EQ(m[9].thread_elements()[1], 7.0f);  // (0, 7)
    EXPECT_EQ(m[19].thread_elements()[0], 42.0f); // (5, 2)
    EXPECT_EQ(m[31].thread_elements()[1], 63.0f); // (7, 7)
}

// Test that thread_elements() is a writable reference (MLX assigns through a reinterpret_cast
// of it) and that simdgroup_store writes what was assigned where the layout says.
TEST_F(SimdgroupMatrixTest, ThreadElementsAreWritable) {
    half out[64] = {};
    for (g_lane = 0; g_lane < 32; ++g_lane) {
        metal::simdgroup_half8x8 m;
        reinterpret_cast<metal::half2&>(m.thread_elements()) = metal::half2(half(g_lane), half(g_lane + 100));
        metal::simdgroup_store(m, out);
    }
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(float(out[expected_row(l) * 8 + expected_column(l)]), float(l));
        EXPECT_EQ(float(out[expected_row(l) * 8 + expected_column(l) + 1]), float(l + 100));
    }
}

// Test the origin (x: column, y: row), the row stride and the transposed load and store.
TEST_F(SimdgroupMatrixTest, LoadAndStoreWithOriginStrideAndTranspose) {
    constexpr unsigned kStride = 19, kRows = 12;
    float source[kRows * kStride];
    for (unsigned i = 0; i < kRows * kStride; ++i) source[i] = float(i);
    float plain[kRows * kStride], transposed[kRows * kStride];
    for (float& f : plain) f = -1.0f;
    for (float& f : transposed) f = -1.0f;
    const metal::ulong2 origin(5, 3); // column 5, row 3
    for (g_lane = 0; g_lane < 32; ++g_lane) {
        metal::simdgroup_float8x8 m, t;
        metal::simdgroup_load(m, source, kStride, origin);
        metal::simdgroup_load(t, source, kStride, origin, true);
        const unsigned r = expected_row(g_lane), c = expected_column(g_lane);
        for (unsigned k = 0; k < 2; ++k) {
            EXPECT_EQ(m.thread_elements()[k], source[(3 + r) * kStride + 5 + c + k]);
            EXPECT_EQ(t.thread_elements()[k], source[(3 + c + k) * kStride + 5 + r]);
        }
        metal::simdgroup_store(m, plain, kStride, origin);
        metal::simdgroup_store(m, transposed, kStride, origin, true);
    }
    for (unsigned row = 0; row < kRows; ++row)
        for (unsigned column = 0; column < kStride; ++column) {
            const bool inside = row >= 3 && row < 11 && column >= 5 && column < 13;
            EXPECT_EQ(plain[row * kStride + column], inside ? source[row * kStride + column] : -1.0f);
            // Inside, the block's (r, c) = (row - 3, column - 5) holds the source block's (c, r).
            const float swapped = inside ? source[(3 + column - 5) * kStride + 5 + (row - 3)] : -1.0f;
            EXPECT_EQ(transposed[row * kStride + column], swapped);
        }
}

// Test the diagonal constructor, the default constructor and make_filled_simdgroup_matrix in
// both forms, for the three element types.
TEST_F(SimdgroupMatrixTest, ConstructorsAndFilledMatrices) {
    for (g_lane = 0; g_lane < 32; ++g_lane) {
        const unsigned r = expected_row(g_lane), c = expected_column(g_lane);
        const metal::simdgroup_float8x8 d(3.0f);
        EXPECT_EQ(d.thread_elements()[0], r == c ? 3.0f : 0.0f);
        EXPECT_EQ(d.thread_elements()[1], r == c + 1 ? 3.0f : 0.0f);
        const metal::simdgroup_matrix<float, 8, 8> zero(0);
        EXPECT_EQ(zero.thread_elements()[0], 0.0f);
        const metal::simdgroup_bfloat8x8 b(bfloat(2.0f));
        EXPECT_EQ(float(b.thread_elements()[0]), r == c ? 2.0f : 0.0f);
        const metal::simdgroup_half8x8 fill = metal::make_filled_simdgroup_matrix<half, 8>(half(1.5f));
        EXPECT_EQ(float(fill.thread_elements()[0]), 1.5f);
        EXPECT_EQ(float(fill.thread_elements()[1]), 1.5f);
        const auto wide = metal::make_filled_simdgroup_matrix<bfloat, 8, 8>(bfloat(-4.0f));
        EXPECT_EQ(float(wide.thread_elements()[1]), -4.0f);
        EXPECT_EQ(metal::simdgroup_float8x8().thread_elements()[1], 0.0f);
    }
}

// Test simdgroup_multiply_accumulate with half A, float B and C (ggml's mix), D being C, and
// simdgroup_multiply, against products computed here.
TEST_F(SimdgroupMatrixTest, MultiplyAccumulateMixedTypes) {
    half a[64];
    float b[64], c[64], ab[64], abc[64];
    for (int i = 0; i < 64; ++i) {
        a[i] = half(float((i * 7) % 13) - 6.0f);
        b[i] = float((i * 5) % 11) * 0.5f - 2.0f;
        c[i] = float(i % 9) - 4.0f;
    }
    for (int r = 0; r < 8; ++r)
        for (int col = 0; col < 8; ++col) {
            float sum = 0.0f;
            for (int k = 0; k < 8; ++k) sum += float(a[r * 8 + k]) * b[k * 8 + col];
            ab[r * 8 + col] = sum;
            abc[r * 8 + col] = sum + c[r * 8 + col];
        }
    float product[64] = {}, accumulated[64] = {};
    for (int pass = 0; pass < 2; ++pass)
        for (g_lane = 0; g_lane < 32; ++g_lane) {
            metal::simdgroup_half8x8 ma;
            metal::simdgroup_float8x8 mb, mc, md;
            metal::simdgroup_load(ma, a);
            metal::simdgroup_load(mb, b);
            metal::simdgroup_load(mc, c);
            metal::simdgroup_multiply(md, ma, mb);
            metal::simdgroup_multiply_accumulate(mc, ma, mb, mc);
            if (pass == 1) {
                metal::simdgroup_store(md, product);
                metal::simdgroup_store(mc, accumulated);
            }
        }
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(product[i], ab[i]) << i; // small integers and halves: exact
        EXPECT_EQ(accumulated[i], abc[i]) << i;
    }
}

} // namespace
