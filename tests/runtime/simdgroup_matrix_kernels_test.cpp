// SIMD-group matrices run through the public API: C = A · B (A is M×K, C is M×N) written the
// two ways real libraries write it, against a CPU product.
//  - gemm_loads, as ggml writes it: the threads stage an 8-row block of A and B's rows (B is
//    given as N×K, the way ggml holds src1) in threadgroup memory, each SIMD-group
//    simdgroup_loads them (B's block transposed) and multiply-accumulates into a float
//    matrix, then simdgroup_stores its tile to device memory.
//  - gemm_elements, as MLX's steel GEMM writes it: no load or store; each lane reads and
//    writes its own two elements through thread_elements() with the lane formula.
// Each SIMD-group owns one 8×8 tile of C; a threadgroup of 1, 2 or 4 SIMD-groups covers 8 rows
// and 8, 16 or 32 columns. Inputs are multiples of 1/16 in [-1, 1], so in half, bfloat and float every
// product and every sum up to K = 64 is exact: the tolerance is zero. C sits in a guarded
// buffer whose canaries catch a store outside the matrix.
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

struct Shape { uint m, n, k; };

// The first row and column of C a threadgroup covers: 8 rows, 8 columns per SIMD-group.
uint2 group_origin(uint group, constant Shape& shape, ushort simdgroups) {
    const uint columns = 8 * simdgroups;
    return uint2(group / (shape.n / columns) * 8, group % (shape.n / columns) * columns);
}

template <class T>
kernel void gemm_loads(device const T* a [[buffer(0)]],
                       device const T* b_rows [[buffer(1)]],
                       device float* c [[buffer(2)]],
                       constant Shape& shape [[buffer(3)]],
                       threadgroup T* staged [[threadgroup(0)]],
                       uint group [[threadgroup_position_in_grid]],
                       ushort lid [[thread_index_in_threadgroup]],
                       ushort threads [[threads_per_threadgroup]],
                       ushort sg [[simdgroup_index_in_threadgroup]],
                       ushort simdgroups [[simdgroups_per_threadgroup]]) {
    const uint row0 = group_origin(group, shape, simdgroups).x, col0 = group_origin(group, shape, simdgroups).y;
    threadgroup T* sa = staged;      // A[row0 .. row0 + 8][k0 .. k0 + 8], row-major
    threadgroup T* sb = staged + 64; // B's rows col0 ... (columns of C), 8 values of k each

    simdgroup_matrix<T, 8, 8> ma, mb;
    simdgroup_float8x8 mc = make_filled_simdgroup_matrix<float, 8>(0.f);
    for (uint k0 = 0; k0 < shape.k; k0 += 8) {
        for (uint i = lid; i < 64 + 64 * simdgroups; i += threads) {
            if (i < 64) sa[i] = a[(row0 + i / 8) * shape.k + k0 + i % 8];
            else sb[i - 64] = b_rows[(col0 + (i - 64) / 8) * shape.k + k0 + (i - 64) % 8];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        simdgroup_load(ma, sa, 8);
        simdgroup_load(mb, sb + 64 * sg, 8, 0, true);
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    simdgroup_store(mc, c, shape.n, ulong2(col0 + 8 * sg, row0));
}
template [[host_name("gemm_loads_float")]] kernel void gemm_loads<float>(
    device const float*, device const float*, device float*, constant Shape&, threadgroup float*,
    uint, ushort, ushort, ushort, ushort);
template [[host_name("gemm_loads_half")]] kernel void gemm_loads<half>(
    device const half*, device const half*, device float*, constant Shape&, threadgroup half*,
    uint, ushort, ushort, ushort, ushort);
template [[host_name("gemm_loads_bfloat")]] kernel void gemm_loads<bfloat>(
    device const bfloat*, device const bfloat*, device float*, constant Shape&, threadgroup bfloat*,
    uint, ushort, ushort, ushort, ushort);

template <class T>
kernel void gemm_elements(device const T* a [[buffer(0)]],
                          device const T* b [[buffer(1)]],
                          device float* c [[buffer(2)]],
                          constant Shape& shape [[buffer(3)]],
                          uint group [[threadgroup_position_in_grid]],
                          ushort lane [[thread_index_in_simdgroup]],
                          ushort sg [[simdgroup_index_in_threadgroup]],
                          ushort simdgroups [[simdgroups_per_threadgroup]]) {
    const uint row0 = group_origin(group, shape, simdgroups).x;
    const uint col0 = group_origin(group, shape, simdgroups).y + 8 * sg;
    const short qid = lane / 4;
    const short fm = (qid & 4) + ((lane / 2) % 4);
    const short fn = (qid & 2) * 2 + (lane % 2) * 2;

    simdgroup_matrix<T, 8, 8> ma, mb;
    simdgroup_float8x8 mc(0);
    for (uint k0 = 0; k0 < shape.k; k0 += 8) {
        const uint ai = (row0 + fm) * shape.k + k0 + fn;
        reinterpret_cast<thread vec<T, 2>&>(ma.thread_elements()) = vec<T, 2>(a[ai], a[ai + 1]);
        const uint bi = (k0 + fm) * shape.n + col0 + fn;
        mb.thread_elements()[0] = b[bi];
        mb.thread_elements()[1] = b[bi + 1];
        simdgroup_multiply_accumulate(mc, ma, mb, mc);
    }
    const float2 d = reinterpret_cast<thread float2&>(mc.thread_elements());
    c[(row0 + fm) * shape.n + col0 + fn] = d.x;
    c[(row0 + fm) * shape.n + col0 + fn + 1] = d.y;
}
template [[host_name("gemm_elements_float")]] kernel void gemm_elements<float>(
    device const float*, device const float*, device float*, constant Shape&, uint, ushort, ushort, ushort);
template [[host_name("gemm_elements_half")]] kernel void gemm_elements<half>(
    device const half*, device const half*, device float*, constant Shape&, uint, ushort, ushort, ushort);
template [[host_name("gemm_elements_bfloat")]] kernel void gemm_elements<bfloat>(
    device const bfloat*, device const bfloat*, device float*, constant Shape&, uint, ushort, ushort, ushort);

// One SIMD-group with fewer than 32 threads: the lanes that do not exist count as zeros.
kernel void partial(device const float* a [[buffer(0)]],
                    device float* c [[buffer(1)]]) {
    simdgroup_float8x8 m;
    simdgroup_load(m, a);
    simdgroup_multiply(m, m, m);
    simdgroup_store(m, c);
}

// A diagonal matrix, declared, in a kernel that calls no other SIMD-group function: the
// constructor needs its lane, which a coroutine could not tell it, so the barrier must not make
// the kernel one; split into work-item loops, it learns the lane from the thread's index.
kernel void diagonal(device float* c [[buffer(0)]],
                     ushort lane [[thread_index_in_simdgroup]]) {
    const simdgroup_float8x8 d(2.0f);
    threadgroup_barrier(mem_flags::mem_none);
    c[lane * 2] = d.thread_elements()[0];
    c[lane * 2 + 1] = d.thread_elements()[1];
}
)";

struct Shape {
    std::uint32_t m, n, k;
};

/// A multiple of 1/16 in [-1, 1], from the element's position: exact in half, bfloat and float.
float inputValue(unsigned i, unsigned salt) { return float(int((i * 37u + salt * 11u) % 33u) - 16) / 16.0f; }

/// The element type of A and B.
enum class Element { Float, Half, Bfloat };

class SimdgroupMatrixKernels : public ShapedKernelTest<kKernels> {
protected:
    unsigned simdgroups() const { return groupSize() / 32; }

    /// Runs `name` on an M×K A and a K×N B (given as N×K rows when `bRows`) and checks C.
    void gemm(const char* name, Element element, bool bRows, Shape shape) {
        SCOPED_TRACE(std::string(name) + " " + std::to_string(shape.m) + "x" + std::to_string(shape.n) + "x" +
                     std::to_string(shape.k));
        const std::size_t elementSize = element == Element::Float ? 4 : 2;
        std::vector<float> a(std::size_t(shape.m) * shape.k), b(std::size_t(shape.k) * shape.n);
        for (unsigned i = 0; i < a.size(); ++i) a[i] = inputValue(i, 1);
        for (unsigned i = 0; i < b.size(); ++i) b[i] = inputValue(i, 2); // b[k * n + j]
        MTL::Buffer* aBuffer = device_->newBuffer(a.size() * elementSize, MTL::ResourceStorageModeShared);
        MTL::Buffer* bBuffer = device_->newBuffer(b.size() * elementSize, MTL::ResourceStorageModeShared);
        for (unsigned i = 0; i < a.size(); ++i) store(aBuffer, i, a[i], element);
        for (unsigned k = 0; k < shape.k; ++k)
            for (unsigned j = 0; j < shape.n; ++j)
                store(bBuffer, bRows ? j * shape.k + k : k * shape.n + j, b[k * shape.n + j], element);
        GuardedBuffer c(device_, std::size_t(shape.m) * shape.n * 4);

        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(aBuffer, 0, 0);
        encoder->setBuffer(bBuffer, 0, 1);
        c.bind(encoder, 2);
        encoder->setBytes(&shape, sizeof shape, 3);
        encoder->setThreadgroupMemoryLength(64 * (1 + simdgroups()) * elementSize, 0);
        const unsigned groups = shape.m / 8 * (shape.n / (8 * simdgroups()));
        encoder->dispatchThreadgroups(MTL::Size(groups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);

        const float* out = c.data<float>();
        unsigned wrong = 0;
        for (unsigned i = 0; i < shape.m; ++i)
            for (unsigned j = 0; j < shape.n; ++j) {
                float sum = 0.0f;
                for (unsigned k = 0; k < shape.k; ++k) sum += a[i * shape.k + k] * b[k * shape.n + j];
                if (out[i * shape.n + j] != sum && ++wrong <= 5)
                    ADD_FAILURE() << "C[" << i << "][" << j << "] = " << out[i * shape.n + j] << ", expected " << sum;
            }
        EXPECT_EQ(wrong, 0u);
        c.expectCanariesIntact();
        state->release();
        aBuffer->release();
        bBuffer->release();
    }

    static void store(MTL::Buffer* buffer, unsigned i, float value, Element element) {
        switch (element) {
        case Element::Float: static_cast<float*>(buffer->contents())[i] = value; break;
        case Element::Half: static_cast<_Float16*>(buffer->contents())[i] = _Float16(value); break;
        case Element::Bfloat: { // the high half of the float: exact for these inputs
            std::uint32_t bits;
            std::memcpy(&bits, &value, sizeof bits);
            static_cast<std::uint16_t*>(buffer->contents())[i] = std::uint16_t(bits >> 16);
            break;
        }
        }
    }

    /// Matrix sizes for this group size: N a multiple of the columns a group covers.
    std::vector<Shape> shapes() const {
        const std::uint32_t n = 8 * simdgroups();
        return {{8, n, 8}, {24, 2 * n, 40}, {16, 3 * n, 64}};
    }
};

/// Kernels that run in one SIMD-group of their own size, plain and shader-validated.
class SimdgroupMatrixOneGroup : public ShapedKernelTest<kKernels> {
protected:
    /// Runs `name` once in one group of `threads` threads with `inputs` at 0, 1, ... and `out` next.
    void runOneGroup(const char* name, std::initializer_list<MTL::Buffer*> inputs, GuardedBuffer& out,
                     unsigned threads) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        NS::UInteger index = 0;
        for (MTL::Buffer* buffer : inputs) encoder->setBuffer(buffer, 0, index++);
        out.bind(encoder, index);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(threads, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }

};

// Test the ggml-shaped GEMM (staged loads, transposed load, store to device) in float, half
// and bfloat.
TEST_P(SimdgroupMatrixKernels, GemmWithLoadsAndStores) {
    for (const Shape& shape : shapes()) {
        gemm("gemm_loads_float", Element::Float, true, shape);
        gemm("gemm_loads_half", Element::Half, true, shape);
        gemm("gemm_loads_bfloat", Element::Bfloat, true, shape);
    }
}

// Test the MLX-shaped GEMM, which relies on the lane layout of thread_elements() alone.
TEST_P(SimdgroupMatrixKernels, GemmThroughThreadElements) {
    for (const Shape& shape : shapes()) {
        gemm("gemm_elements_float", Element::Float, false, shape);
        gemm("gemm_elements_half", Element::Half, false, shape);
        gemm("gemm_elements_bfloat", Element::Bfloat, false, shape);
    }
}

// Test metalcpu's rule for a SIMD-group of fewer than 32 threads (Metal requires all 32): the
// absent lanes hold zeros, and their elements are not stored. With 16 threads, lanes 0-15 hold
// rows 0-3, so (A·A)[r][c] sums over k < 4 only, for r < 4; the rest of C is untouched.
TEST_P(SimdgroupMatrixOneGroup, PartialSimdgroupCountsAbsentLanesAsZero) {
    std::vector<float> a(64);
    for (unsigned i = 0; i < 64; ++i) a[i] = inputValue(i, 3);
    MTL::Buffer* aBuffer = device_->newBuffer(a.data(), 64 * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer c(device_, 64 * 4);
    runOneGroup("partial", {aBuffer}, c, 16);
    const std::uint32_t* words = c.data<std::uint32_t>();
    for (unsigned r = 0; r < 8; ++r)
        for (unsigned col = 0; col < 8; ++col) {
            if (r >= 4) {
                EXPECT_EQ(words[r * 8 + col], kCanary) << r << "," << col;
                continue;
            }
            float sum = 0.0f;
            for (unsigned k = 0; k < 4; ++k) sum += a[r * 8 + k] * a[k * 8 + col];
            EXPECT_EQ(c.data<float>()[r * 8 + col], sum) << r << "," << col;
        }
    c.expectCanariesIntact();
    aBuffer->release();
}

// Test the diagonal constructor's lane layout, in a kernel where it is the only collective.
TEST_P(SimdgroupMatrixOneGroup, DiagonalConstructorAlone) {
    GuardedBuffer c(device_, 64 * 4);
    runOneGroup("diagonal", {}, c, 32);
    for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned q = lane / 4, row = (q & 4) + (lane / 2) % 4, column = (q & 2) * 2 + (lane % 2) * 2;
        EXPECT_EQ(c.data<float>()[lane * 2], row == column ? 2.0f : 0.0f) << lane;
        EXPECT_EQ(c.data<float>()[lane * 2 + 1], row == column + 1 ? 2.0f : 0.0f) << lane;
    }
    c.expectCanariesIntact();
}

// Test that every kernel here is split into work-item loops (simdgroup_matrix_work_items_test
// has the forms that are not), in both flavours.
TEST_P(SimdgroupMatrixKernels, SplitIntoWorkItemLoops) {
    expectLowerings({{"gemm_loads_float", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"gemm_loads_half", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"gemm_elements_float", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"gemm_elements_half", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"gemm_loads_bfloat", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"gemm_elements_bfloat", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"partial", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"diagonal", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

// Test that matrices of another size and a load from memory of another element type are
// compile errors naming the construct at its .metal line, not pages of template errors.
class SimdgroupMatrixCompile : public MetalTest {};

TEST_F(SimdgroupMatrixCompile, MisuseIsACompileError) {
    struct Case {
        const char* body;
        const char* message;
        const char* line;
    };
    const Case cases[] = {
        {"    simdgroup_matrix<float, 4, 4> m;\n    simdgroup_store(m, c, 4);\n", "simdgroup_matrix is 8x8 only",
         "program_source:4:"},
        {"    simdgroup_float8x8 m;\n    simdgroup_load(m, h);\n",
         "simdgroup_load: the source's element type must be the matrix's", "program_source:5:"},
    };
    for (const auto& [body, message, line] : cases) {
        const std::string source = "#include <metal_stdlib>\nusing namespace metal;\n"
                                   "kernel void k(device float* c [[buffer(0)]], device const half* h [[buffer(1)]]) {\n" +
                                   std::string(body) + "}\n";
        NS::Error* error = nullptr;
        MTL::Library* library =
            device_->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), nullptr, &error);
        EXPECT_EQ(library, nullptr);
        if (library) library->release();
        const std::string text = error ? error->localizedDescription()->utf8String() : "";
        EXPECT_NE(text.find(message), std::string::npos) << text;
        EXPECT_NE(text.find(line), std::string::npos) << text;
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupMatrixKernels,
                         ::testing::Combine(::testing::Values(32u, 64u, 96u, 128u), ::testing::Bool()), kernelShapeName);
INSTANTIATE_TEST_SUITE_P(OneSimdgroup, SimdgroupMatrixOneGroup,
                         ::testing::Combine(::testing::Values(32u), ::testing::Bool()), kernelShapeName);

} // namespace
} // namespace metalcpu::testing
