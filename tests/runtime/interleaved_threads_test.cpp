// Barrier-free kernels whose threads run interleaved in their uniform loops (issue 14,
// compiler/passes/interleaved_threads.h): per-thread accumulators, arrays and vectors that live
// across the loop's iterations, early returns before and inside the loop, a `continue`, a
// guarded store, parameters written, a 2-D register-tiled product on uneven grids; and the kernels that keep one
// thread after another (a `break`, a header naming a thread id or reading memory, atomics),
// with the same results. Against a CPU model, over groups of 1, 3, 37 and 64 threads in grids
// the groups do not divide, plain and shader-validated, canary words around the output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = METALCPU_ROW_KERNEL_SOURCE R"(

// A scalar, an array and a vector per thread, across the iterations of a loop whose bounds are
// an argument's; an early return before it, a `continue` in it, a guarded store after it.
ROW_KERNEL(running_sums) {
    if (gid % 7 == 3) {
        out[gid] = -100.0f;
        return;
    }
    float total = 0.0f;
    float parts[3] = {0.0f, 1.0f, 2.0f};
    float4 counts = float4(0.0f);
    const uint start = gid * 3;
    for (uint k = 0; k < n; k += 5) {
        const float x = in[(start + k) % n];
        if (x < -6.0f) continue;
        total += x;
        parts[k % 3] += 0.5f * x;
        counts[k % 4] += 1.0f;
    }
    if (total > 0.0f)
        out[gid] = total + parts[0] + 2 * parts[1] + 4 * parts[2] + counts.x + 2 * counts.y + 3 * counts.z + 5 * counts.w;
    else
        out[gid] = total - parts[0];
}

// A return inside the loop: the thread drops out of the later iterations.
ROW_KERNEL(return_in_loop) {
    float total = 0.0f;
    for (uint k = 0; k < 8 && k < n; ++k) {
        total += in[(gid + k) % n];
        if (total > 10.0f) {
            out[gid] = total;
            return;
        }
    }
    out[gid] = -total;
}

// Parameters written: a pointer advanced before the loop, one moved to an element and back in
// it, builtins reassigned in it. Each lane keeps its own copies.
ROW_KERNEL(advanced_parameters) {
    out += gid;
    float total = 0.0f;
    for (uint k = 0; k < n; k += 3) {
        const uint at = (gid + k) % n;
        in += at;
        total += *in * float(k + 1);
        in -= at;
        gid += 1;
        lid += 2;
    }
    *out = total + float(lid);
}

// Kept one thread after another: a break in the loop,
ROW_KERNEL(break_in_loop) {
    float total = 0.0f;
    for (uint k = 0; k < 8 && k < n; ++k) {
        total += in[(gid + k) % n];
        if (total > 10.0f) break;
    }
    out[gid] = total;
}

// a loop whose header names a thread id,
ROW_KERNEL(thread_strided) {
    float total = 0.0f;
    for (uint k = lid; k < n; k += size) total += in[k];
    out[gid] = total;
}

// a loop whose bound is read from a buffer,
ROW_KERNEL(bound_from_memory) {
    float total = 0.0f;
    for (uint k = 0; k < uint(in[0] + 9.0f); ++k) total += in[(gid + k) % n];
    out[gid] = total;
}

// and atomics, whose order between threads interleaving would change.
kernel void counted(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                    constant uint& n [[buffer(2)]], device atomic_uint* counter [[buffer(3)]],
                    uint gid [[thread_position_in_grid]]) {
    float total = 0.0f;
    for (uint k = 0; k < 4; ++k) {
        total += in[(gid + k) % n];
        atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    }
    out[gid] = total;
}

// The register-tiled product's shape: each thread a 2x4 block of C from float4 rows of B, the
// k loop's bound an argument, the edges of an uneven grid returned from.
struct Shape {
    uint rows, cols, inner;
};
kernel void block_product(device const float* A [[buffer(0)]], device const float* B [[buffer(1)]],
                          device float* C [[buffer(2)]], constant Shape& s [[buffer(3)]],
                          uint2 gid [[thread_position_in_grid]]) {
    const uint i = gid.y * 2;
    const uint j = gid.x * 4;
    if (i >= s.rows || j >= s.cols) {
        return;
    }
    float4 top = float4(0.0f), bottom = float4(0.0f);
    for (uint k = 0; k < s.inner; ++k) {
        const float4 b = *(device const float4*)(B + k * s.cols + j);
        top += A[i * s.inner + k] * b;
        bottom += A[(i + 1) * s.inner + k] * b;
    }
    *(device float4*)(C + i * s.cols + j) = top;
    *(device float4*)(C + (i + 1) * s.cols + j) = bottom;
}
)";

class InterleavedThreads : public SimdShapedKernelTest<kKernels> {
protected:
    /// Runs kernel `name` over a grid of 3.5 groups and a bit and compares each thread's
    /// output with `expected(in, gid)`.
    template <class Model>
    void check(const char* name, Model expected, MTL::Buffer* extra = nullptr) {
        runOverWholeNumbers(
            name,
            [&](const std::vector<float>& x, GuardedBuffer& out) {
                unsigned failures = 0;
                for (unsigned i = 0; i < x.size() && failures < 10; ++i) {
                    const float want = expected(x, i);
                    if (out.data<float>()[i] == want) continue;
                    ADD_FAILURE() << "thread " << i << ": " << out.data<float>()[i] << ", expected " << want;
                    ++failures;
                }
            },
            extra);
    }
};

float runningSums(const std::vector<float>& in, unsigned gid) {
    if (gid % 7 == 3) return -100.0f;
    const auto n = static_cast<unsigned>(in.size());
    float total = 0, parts[3] = {0, 1, 2}, counts[4] = {};
    for (unsigned k = 0; k < n; k += 5) {
        const float x = in[(gid * 3 + k) % n];
        if (x < -6.0f) continue;
        total += x;
        parts[k % 3] += 0.5f * x;
        counts[k % 4] += 1.0f;
    }
    if (total > 0.0f)
        return total + parts[0] + 2 * parts[1] + 4 * parts[2] + counts[0] + 2 * counts[1] + 3 * counts[2] +
               5 * counts[3];
    return total - parts[0];
}

// Test per-thread scalars, arrays and vectors across the interleaved loop, with an early return,
// a continue and a guarded store: each thread keeps its own.
TEST_P(InterleavedThreads, RunningSums) { check("running_sums", runningSums); }

// Test parameters written before and in the interleaved loop: pointers and builtins, per lane.
TEST_P(InterleavedThreads, WrittenParameters) {
    check("advanced_parameters", [&](const std::vector<float>& in, unsigned gid) {
        const auto n = static_cast<unsigned>(in.size());
        float total = 0;
        unsigned rounds = 0;
        for (unsigned k = 0; k < n; k += 3, ++rounds) total += in[(gid + rounds + k) % n] * float(k + 1);
        return total + float(gid % size() + 2 * rounds); // gid and lid grow each round
    });
}

// Test a return inside the loop, and a break (which keeps one thread after another).
TEST_P(InterleavedThreads, LeavingTheLoop) {
    for (const bool returns : {true, false})
        check(returns ? "return_in_loop" : "break_in_loop", [&](const std::vector<float>& in, unsigned gid) {
            const auto n = static_cast<unsigned>(in.size());
            float total = 0;
            for (unsigned k = 0; k < 8 && k < n; ++k) {
                total += in[(gid + k) % n];
                if (total > 10.0f) return total;
            }
            return returns ? -total : total;
        });
}

// Test the kernels that keep one thread after another: their results are the same.
TEST_P(InterleavedThreads, FallBacks) {
    check("thread_strided", [&](const std::vector<float>& in, unsigned gid) {
        const auto n = static_cast<unsigned>(in.size());
        const unsigned first = gid / size() * size(), s = std::min(size(), n - first), lid = gid - first;
        float total = 0;
        for (unsigned k = lid; k < n; k += s) total += in[k];
        return total;
    });
    check("bound_from_memory", [&](const std::vector<float>& in, unsigned gid) {
        const auto n = static_cast<unsigned>(in.size());
        float total = 0;
        for (unsigned k = 0; k < unsigned(in[0] + 9.0f); ++k) total += in[(gid + k) % n];
        return total;
    });
    std::uint32_t zero = 0;
    MTL::Buffer* counter = device_->newBuffer(&zero, sizeof zero, MTL::ResourceStorageModeShared);
    check(
        "counted",
        [&](const std::vector<float>& in, unsigned gid) {
            const auto n = static_cast<unsigned>(in.size());
            float total = 0;
            for (unsigned k = 0; k < 4; ++k) total += in[(gid + k) % n];
            return total;
        },
        counter);
    EXPECT_EQ(*static_cast<std::uint32_t*>(counter->contents()), 4 * (3 * size() + size() / 2 + 1));
    counter->release();
}

// Test the register-tiled shape on 2-D grids the groups do not divide (rows of 2, columns of 4
// per thread; threads past the matrix return), groups of size() threads as one row and as
// near-square blocks: every element of C against a CPU product, canaries around C.
TEST_P(InterleavedThreads, BlockProduct) {
    struct Shape {
        std::uint32_t rows, cols, inner;
    } shape{14, 44, 9};
    const std::vector<float> a = wholeNumbers(shape.rows * shape.inner), b = wholeNumbers(shape.inner * shape.cols + 5);
    MTL::Buffer* bufferA = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* bufferB = device_->newBuffer(b.data(), b.size() * 4, MTL::ResourceStorageModeShared);
    MTL::ComputePipelineState* state = kernel("block_product");
    ASSERT_NE(state, nullptr);
    unsigned wide = 1;
    while ((wide + 1) * (wide + 1) <= size()) ++wide;
    for (const MTL::Size group : {MTL::Size(size(), 1, 1), MTL::Size(wide, size() / wide, 1)}) {
        SCOPED_TRACE(std::to_string(group.width) + "x" + std::to_string(group.height));
        GuardedBuffer c(device_, shape.rows * shape.cols * 4);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(bufferA, 0, 0);
        encoder->setBuffer(bufferB, 0, 1);
        c.bind(encoder, 2);
        encoder->setBytes(&shape, sizeof shape, 3);
        // One thread more than the blocks in each direction: those return.
        encoder->dispatchThreads(MTL::Size(shape.cols / 4 + 1, shape.rows / 2 + 1, 1), group);
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        unsigned failures = 0;
        for (unsigned r = 0; r < shape.rows; ++r)
            for (unsigned col = 0; col < shape.cols && failures < 10; ++col) {
                float want = 0;
                for (unsigned k = 0; k < shape.inner; ++k) want += a[r * shape.inner + k] * b[k * shape.cols + col];
                const float got = c.data<float>()[r * shape.cols + col];
                if (got == want) continue;
                ADD_FAILURE() << "C[" << r << "][" << col << "]: " << got << ", expected " << want;
                ++failures;
            }
        c.expectCanariesIntact();
    }
    state->release();
    bufferA->release();
    bufferB->release();
}

// Test which kernels have their threads interleaved, in both flavours (METALCPU_LOG_LEVEL=debug
// says why the others do not).
TEST_P(InterleavedThreads, Lowerings) {
    constexpr std::uint32_t kInterleaved = MC_KERNEL_WORK_ITEM_LOOPS | MC_KERNEL_INTERLEAVED_THREADS;
    expectLowerings({{"running_sums", kInterleaved},
                     {"return_in_loop", kInterleaved},
                     {"block_product", kInterleaved},
                     {"advanced_parameters", kInterleaved},
                     {"break_in_loop", 0},
                     {"thread_strided", 0},
                     {"bound_from_memory", 0},
                     {"counted", 0}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Groups, InterleavedThreads,
                         ::testing::Combine(::testing::Values(1u, 3u, 37u, 64u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
