// SIMD-group matrix kernels split into work-item loops (docs/compiler.md, "Work-item loops"):
// products written as call statements are collective statements, loads, stores and diagonal
// matrices learn their lane from the thread's index. `products` does all of it, in threadgroups
// of any size: threads that stage blocks of A and B in threadgroup memory, a barrier, loads
// (one transposed), a float-by-half multiply-accumulate into its own accumulator, a product
// with a diagonal matrix written back to an operand, a product under an `if` whose condition
// differs per thread, and a transposed store. `products_on_fibers` is the same text with the
// accumulation moved into an overloaded static member function, which the front end neither
// inlines (passes/helper_inlining.h refuses overloads of the same argument count) nor splits: it
// runs on fibers, and the two must agree bit for bit.
//
// Each SIMD-group's lanes that do not exist (a partial SIMD-group, or the 1-thread group)
// count as zeros in a product and store nothing, as on fibers; the CPU reference models that
// with the lane layout of <metal_simdgroup_matrix>.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"
#include "scoped_state.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kProducts = R"(
// Group g computes rows 8g .. 8g + 7 of C = 0.5 + A · B (A is rows × k, B given as its
// columns, (8 · simdgroups) × k); SIMD-group s its columns 8s .. 8s + 7. D gets, transposed,
// the product of twice A's last block of k with C, by the first 16 lanes of each SIMD-group.
kernel void products(device const float* a [[buffer(0)]],
                     device const half* b_columns [[buffer(1)]],
                     constant uint& k [[buffer(2)]],
                     device float* c [[buffer(3)]],
                     device float* d [[buffer(4)]],
                     uint group [[threadgroup_position_in_grid]],
                     ushort lid [[thread_index_in_threadgroup]],
                     ushort threads [[threads_per_threadgroup]],
                     ushort lane [[thread_index_in_simdgroup]],
                     ushort sg [[simdgroup_index_in_threadgroup]],
                     ushort simdgroups [[simdgroups_per_threadgroup]]) {
    threadgroup float sa[64];
    threadgroup half sb[256];
    const uint row0 = group * 8, columns = 8 * simdgroups;
    simdgroup_float8x8 ma;
    simdgroup_half8x8 mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.5f);
    for (uint k0 = 0; k0 < k; k0 += 8) {
        for (uint i = lid; i < 64 * (1 + simdgroups); i += threads) {
            if (i < 64) sa[i] = a[(row0 + i / 8) * k + k0 + i % 8];
            else sb[i - 64] = b_columns[(i - 64) / 8 * k + k0 + i % 8];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_load(ma, sa, 8);
        simdgroup_load(mb, sb + 64 * sg, 8, 0, true);
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    simdgroup_store(mc, c, columns, ulong2(8 * sg, row0));
    simdgroup_float8x8 twice(2.0f);
    simdgroup_multiply(ma, twice, ma);
    if (lane < 16) {
        simdgroup_multiply(mc, ma, mc);
    }
    simdgroup_store(mc, d, columns, ulong2(8 * sg, row0), true);
}
)";

/// The source of kernel `name` (in `kernels`, a float-by-`b` multiply-accumulate into `mc`)
/// and of its twin on fibers, `<name>_on_fibers`: the same text with the multiply-accumulate
/// moved into a static member function with an overload of the same argument count, which the
/// front end neither inlines nor splits (it chooses among overloads by argument count only).
std::string withTwinOnFibers(const char* kernels, const std::string& name, const std::string& b) {
    std::string twin = kernels;
    const auto replace = [&](const std::string& from, const std::string& to) {
        twin.replace(twin.find(from), from.size(), to);
    };
    replace("kernel void " + name + "(", "kernel void " + name + "_on_fibers(");
    replace("simdgroup_multiply_accumulate(mc, ma, mb, mc);", "Products::accumulate(mc, ma, mb);");
    return std::string("#include <metal_stdlib>\nusing namespace metal;\n") + kernels +
           "struct Products {\n"
           "    static void accumulate(thread simdgroup_float8x8& mc, thread const simdgroup_float8x8& ma,\n"
           "                           thread const " + b + "& mb) {\n"
           "        simdgroup_multiply_accumulate(mc, ma, mb, mc);\n"
           "    }\n"
           "    static void accumulate(thread simdgroup_float8x8& mc, thread const simdgroup_float8x8& ma, float scale) {\n"
           "        mc = ma;\n"
           "        (void)scale;\n"
           "    }\n"
           "};\n" + twin;
}

const std::string kSource = withTwinOnFibers(kProducts, "products", "simdgroup_half8x8");
const char* const kKernels = kSource.c_str();

constexpr unsigned kGroups = 3, kDepth = 24, kLanes = 32;

/// The lane of a SIMD-group matrix holding element (row, column) (<metal_simdgroup_matrix>).
unsigned laneOf(unsigned row, unsigned column) {
    return (row & 4) * 4 + (row % 4) * 2 + (column & 4) * 2 + (column & 2) / 2;
}

/// An 8×8 matrix as one SIMD-group holds it: element [row][column].
struct Matrix {
    float e[8][8] = {};
};

/// `into` with A · B (+ `start`, if given) for the elements of the lanes `active(lane)` says take
/// part, as a SIMD-group computes it: an element of an inactive lane is zero as an operand,
/// each element is summed in float from the start (or zero) in the order of k.
template <class Active>
Matrix product(const Matrix& a, const Matrix& b, const Matrix* start, Matrix into, const Active& active) {
    for (unsigned r = 0; r < 8; ++r)
        for (unsigned col = 0; col < 8; ++col) {
            if (!active(laneOf(r, col))) continue;
            float sum = start ? start->e[r][col] : 0.0f;
            for (unsigned k = 0; k < 8; ++k)
                sum += (active(laneOf(r, k)) ? a.e[r][k] : 0.0f) * (active(laneOf(k, col)) ? b.e[k][col] : 0.0f);
            into.e[r][col] = sum;
        }
    return into;
}

class SimdgroupMatrixWorkItems : public ShapedKernelTest<kKernels> {
protected:
    unsigned simdgroups() const { return (groupSize() + kLanes - 1) / kLanes; }
    unsigned columns() const { return 8 * simdgroups(); }
    std::size_t outputWords() const { return std::size_t(8 * kGroups) * columns(); }

    /// Runs `name` on A (rows × kDepth) and B's columns ((8 · simdgroups) × kDepth); C and D
    /// land in `c` and `d`.
    void run(const char* name, const std::vector<float>& a, const std::vector<_Float16>& b, GuardedBuffer& c,
             GuardedBuffer& d) {
        SCOPED_TRACE(name);
        MTL::Buffer* aBuffer = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
        MTL::Buffer* bBuffer = device_->newBuffer(b.data(), b.size() * 2, MTL::ResourceStorageModeShared);
        const std::uint32_t depth = kDepth;
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(aBuffer, 0, 0);
        encoder->setBuffer(bBuffer, 0, 1);
        encoder->setBytes(&depth, sizeof depth, 2);
        c.bind(encoder, 3);
        d.bind(encoder, 4);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        c.expectCanariesIntact();
        d.expectCanariesIntact();
        state->release();
        aBuffer->release();
        bBuffer->release();
    }

    /// Inputs from `value(i)`: A, and B's columns rounded to half.
    std::vector<float> inputA(float (*value)(unsigned, unsigned)) const {
        std::vector<float> a(std::size_t(8 * kGroups) * kDepth);
        for (unsigned i = 0; i < a.size(); ++i) a[i] = value(i, 1);
        return a;
    }
    std::vector<_Float16> inputB(float (*value)(unsigned, unsigned)) const {
        std::vector<_Float16> b(std::size_t(columns()) * kDepth);
        for (unsigned i = 0; i < b.size(); ++i) b[i] = _Float16(value(i, 2));
        return b;
    }
};

/// A multiple of 1/16 in [-1, 1]: every product and sum of these kernels is exact in float.
float exactValue(unsigned i, unsigned salt) { return float(int((i * 37u + salt * 11u) % 33u) - 16) / 16.0f; }
/// A value whose products round: the order of the sums shows in the bits.
float roundedValue(unsigned i, unsigned salt) { return std::sin(float(i) * 0.7f + float(salt)) * 1.3f; }

// Test `products` against the CPU reference, with exact inputs, and that it is split into
// work-item loops while its twin keeps the fibers (and computes the same).
TEST_P(SimdgroupMatrixWorkItems, ProductsMatchTheReference) {
    expectLowerings({{"products", MC_KERNEL_WORK_ITEM_LOOPS}, {"products_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
    const std::vector<float> a = inputA(exactValue);
    const std::vector<_Float16> b = inputB(exactValue);
    const unsigned threads = groupSize();
    for (const char* name : {"products", "products_on_fibers"}) {
        GuardedBuffer c(device_, outputWords() * 4), d(device_, outputWords() * 4);
        run(name, a, b, c, d);
        unsigned wrong = 0;
        for (unsigned g = 0; g < kGroups; ++g)
            for (unsigned s = 0; s < simdgroups(); ++s) {
                Matrix mc, ma, twice;
                for (unsigned r = 0; r < 8; ++r)
                    for (unsigned col = 0; col < 8; ++col) {
                        mc.e[r][col] = 0.5f;
                        twice.e[r][col] = r == col ? 2.0f : 0.0f;
                    }
                const auto exists = [&](unsigned lane) { return s * kLanes + lane < threads; };
                const auto takesBranch = [&](unsigned lane) { return lane < 16 && exists(lane); };
                for (unsigned k0 = 0; k0 < kDepth; k0 += 8) {
                    Matrix mb;
                    for (unsigned r = 0; r < 8; ++r)
                        for (unsigned col = 0; col < 8; ++col) {
                            ma.e[r][col] = a[(8 * g + r) * kDepth + k0 + col];
                            mb.e[r][col] = float(b[(8 * s + col) * kDepth + k0 + r]);
                        }
                    mc = product(ma, mb, &mc, mc, exists);
                }
                const Matrix stored = mc;
                ma = product(twice, ma, nullptr, ma, exists);
                mc = product(ma, mc, nullptr, mc, takesBranch);
                for (unsigned r = 0; r < 8; ++r)
                    for (unsigned col = 0; col < 8; ++col) {
                        const bool mine = exists(laneOf(r, col));
                        const std::size_t at = (8 * g + r) * columns() + 8 * s + col;
                        const std::size_t transposed = (8 * g + col) * columns() + 8 * s + r;
                        std::uint32_t got, expected = kCanary;
                        std::memcpy(&got, c.data<float>() + at, 4);
                        if (mine) std::memcpy(&expected, &stored.e[r][col], 4);
                        if (got != expected && ++wrong <= 5)
                            ADD_FAILURE() << name << " C[" << 8 * g + r << "][" << 8 * s + col << "] = "
                                          << c.data<float>()[at] << ", expected " << stored.e[r][col];
                        expected = kCanary;
                        std::memcpy(&got, d.data<float>() + transposed, 4);
                        if (mine) std::memcpy(&expected, &mc.e[r][col], 4);
                        if (got != expected && ++wrong <= 5)
                            ADD_FAILURE() << name << " D[" << 8 * g + col << "][" << 8 * s + r << "] = "
                                          << d.data<float>()[transposed] << ", expected " << mc.e[r][col];
                    }
            }
        EXPECT_EQ(wrong, 0u) << name;
    }
}

// Test that the work-item loops and the fibers give the same bits where the sums round.
TEST_P(SimdgroupMatrixWorkItems, BitIdenticalToFibers) {
    const std::vector<float> a = inputA(roundedValue);
    const std::vector<_Float16> b = inputB(roundedValue);
    GuardedBuffer c(device_, outputWords() * 4), d(device_, outputWords() * 4);
    GuardedBuffer fiberC(device_, outputWords() * 4), fiberD(device_, outputWords() * 4);
    run("products", a, b, c, d);
    run("products_on_fibers", a, b, fiberC, fiberD);
    EXPECT_EQ(std::memcmp(c.data<float>(), fiberC.data<float>(), outputWords() * 4), 0);
    EXPECT_EQ(std::memcmp(d.data<float>(), fiberD.data<float>(), outputWords() * 4), 0);
}

// SIMD-groups of 64 lanes (METALCPU_SIMD_WIDTH=64, for tests) hold one matrix per 32 lanes: a
// work-item loop computes each SIMD-group's two matrices apart (simd_compute_products), the
// fibers lane by lane. `wide_products` gives each 32 threads a tile of their own (`products`
// stores every SIMD-group's matrices to one tile), a multiply-accumulate and then a product
// under an `if` that differs per lane; `wide_products_on_fibers` is its twin on fibers.
const char* const kWideProducts = R"(
kernel void wide_products(device const float* a [[buffer(0)]],
                          device float* c [[buffer(1)]],
                          ushort lid [[thread_index_in_threadgroup]],
                          ushort lane [[thread_index_in_simdgroup]]) {
    const uint tile = lid / 32;
    simdgroup_float8x8 ma, mb;
    simdgroup_load(ma, a + 128 * tile, 8);
    simdgroup_load(mb, a + 128 * tile + 64, 8, 0, true);
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.25f);
    simdgroup_multiply_accumulate(mc, ma, mb, mc);
    if (lane % 3 != 1) {
        simdgroup_multiply(mc, mc, ma);
    }
    simdgroup_store(mc, c + 64 * tile, 8);
}
)";

const std::string kWideSource = withTwinOnFibers(kWideProducts, "wide_products", "simdgroup_float8x8");
const char* const kWideKernels = kWideSource.c_str();

/// A suite whose kernels run in one group on `a` (buffer 0) into `c` (buffer 1).
template <const char* const& Kernels>
class OneGroupProducts : public ShapedKernelTest<Kernels> {
protected:
    /// Runs `name` in one group of groupSize() threads on `a`; C lands in `c`, canaries checked.
    void run(const char* name, const std::vector<float>& a, GuardedBuffer& c) {
        SCOPED_TRACE(name);
        MTL::Buffer* aBuffer = this->device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
        MTL::ComputePipelineState* state = this->kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = this->queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setBuffer(aBuffer, 0, 0);
        c.bind(encoder, 1);
        this->dispatch(state, encoder, commands, this->groupSize());
        c.expectCanariesIntact();
        state->release();
        aBuffer->release();
    }
};

class SimdgroupMatrixWideWorkItems : public OneGroupProducts<kWideKernels> {
protected:
    void SetUp() override {
        width_.emplace("METALCPU_SIMD_WIDTH", "64");
        OneGroupProducts<kWideKernels>::SetUp();
    }
    void TearDown() override {
        OneGroupProducts<kWideKernels>::TearDown();
        width_.reset();
    }

    unsigned tiles() const { return (groupSize() + kLanes - 1) / kLanes; }

    std::vector<float> input(float (*value)(unsigned, unsigned)) const {
        std::vector<float> a(std::size_t(128) * tiles());
        for (unsigned i = 0; i < a.size(); ++i) a[i] = value(i, 4);
        return a;
    }

private:
    std::optional<ScopedEnvironmentVariable> width_;
};

// Test `wide_products` against the CPU reference, with exact inputs: each tile's lanes past
// the group's threads hold zeros and store nothing, and the product under the `if` is over
// the lanes whose index in their 64-lane SIMD-group takes it.
TEST_P(SimdgroupMatrixWideWorkItems, ProductsMatchTheReference) {
    expectLowerings({{"wide_products", MC_KERNEL_WORK_ITEM_LOOPS}, {"wide_products_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
    const std::vector<float> a = input(exactValue);
    for (const char* name : {"wide_products", "wide_products_on_fibers"}) {
        GuardedBuffer c(device_, std::size_t(64) * tiles() * 4);
        run(name, a, c);
        unsigned wrong = 0;
        for (unsigned tile = 0; tile < tiles(); ++tile) {
            const auto exists = [&](unsigned lane) { return tile * kLanes + lane < groupSize(); };
            const auto takesBranch = [&](unsigned lane) { return exists(lane) && ((tile % 2) * kLanes + lane) % 3 != 1; };
            Matrix ma, mb, mc;
            for (unsigned r = 0; r < 8; ++r)
                for (unsigned col = 0; col < 8; ++col) {
                    ma.e[r][col] = a[128 * tile + 8 * r + col];
                    mb.e[r][col] = a[128 * tile + 64 + 8 * col + r];
                    mc.e[r][col] = 0.25f;
                }
            mc = product(ma, mb, &mc, mc, exists);
            mc = product(mc, ma, nullptr, mc, takesBranch);
            for (unsigned r = 0; r < 8; ++r)
                for (unsigned col = 0; col < 8; ++col) {
                    std::uint32_t got, expected = kCanary;
                    std::memcpy(&got, c.data<float>() + 64 * tile + 8 * r + col, 4);
                    if (exists(laneOf(r, col))) std::memcpy(&expected, &mc.e[r][col], 4);
                    if (got != expected && ++wrong <= 5)
                        ADD_FAILURE() << name << " tile " << tile << " C[" << r << "][" << col << "] = "
                                      << c.data<float>()[64 * tile + 8 * r + col] << ", expected " << mc.e[r][col];
                }
        }
        EXPECT_EQ(wrong, 0u) << name;
    }
}

// Test that the two agree bit for bit where the sums round.
TEST_P(SimdgroupMatrixWideWorkItems, BitIdenticalToFibers) {
    const std::vector<float> a = input(roundedValue);
    GuardedBuffer c(device_, std::size_t(64) * tiles() * 4), fiberC(device_, std::size_t(64) * tiles() * 4);
    run("wide_products", a, c);
    run("wide_products_on_fibers", a, fiberC);
    EXPECT_EQ(std::memcmp(c.data<float>(), fiberC.data<float>(), std::size_t(64) * tiles() * 4), 0);
}

// tinygrad's WMMA loop body (its `__WMMA_8_8_8_float_float` helper inlined): each thread sets
// its elements of A and B from device memory and of C from its accumulator, multiplies, and
// reads C back, so the pieces before and after the product run in its two loops (docs/compiler.md,
// "SIMD-group matrices"). Some threads return after the second product: they take no part in
// the third (zeros) and store nothing. `fused_on_fibers` is its twin.
const char* const kFusedProducts = R"(
kernel void fused(device const float* a [[buffer(0)]],
                  device float* c [[buffer(1)]],
                  ushort lid [[thread_index_in_threadgroup]],
                  ushort threads [[threads_per_threadgroup]]) {
    float2 acc = float2(0.25f, -0.5f);
    for (uint step = 0; step < 3; ++step) {
        simdgroup_float8x8 ma, mb, mc;
        const uint at = 4 * (step * threads + lid);
        ma.thread_elements() = float2(a[at], a[at + 1]);
        mb.thread_elements() = float2(a[at + 2], a[at + 3]);
        mc.thread_elements() = acc;
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
        acc = mc.thread_elements() * 0.5f;
        if (step == 1 && lid % 7 == 3) return;
    }
    c[2 * lid] = acc.x;
    c[2 * lid + 1] = acc.y;
}
)";

const std::string kFusedSource = withTwinOnFibers(kFusedProducts, "fused", "simdgroup_float8x8");
const char* const kFusedKernels = kFusedSource.c_str();

class SimdgroupMatrixFusedPieces : public OneGroupProducts<kFusedKernels> {};

// Test that the kernel is split into work-item loops (its twin on fibers), that both give the
// same bits where the sums round, canaries intact, and that exactly the threads that returned
// stored nothing.
TEST_P(SimdgroupMatrixFusedPieces, BitIdenticalToFibers) {
    expectLowerings({{"fused", MC_KERNEL_WORK_ITEM_LOOPS}, {"fused_on_fibers", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
    std::vector<float> a(std::size_t(12) * groupSize());
    for (unsigned i = 0; i < a.size(); ++i) a[i] = roundedValue(i, 5);
    GuardedBuffer c(device_, std::size_t(8) * groupSize()), fiberC(device_, std::size_t(8) * groupSize());
    run("fused", a, c);
    run("fused_on_fibers", a, fiberC);
    EXPECT_EQ(std::memcmp(c.data<float>(), fiberC.data<float>(), std::size_t(8) * groupSize()), 0);
    for (unsigned lid = 0; lid < groupSize(); ++lid) {
        std::uint32_t got;
        std::memcpy(&got, c.data<float>() + 2 * lid, 4);
        EXPECT_EQ(got == kCanary, lid % 7 == 3) << "thread " << lid;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupMatrixFusedPieces,
                         ::testing::Combine(::testing::Values(1u, 13u, 32u, 45u, 64u, 128u), ::testing::Bool()),
                         kernelShapeName);
INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupMatrixWorkItems,
                         ::testing::Combine(::testing::Values(1u, 32u, 45u, 64u, 96u, 128u), ::testing::Bool()),
                         kernelShapeName);
INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupMatrixWideWorkItems,
                         ::testing::Combine(::testing::Values(1u, 45u, 64u, 96u, 128u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
