// metal-flash-attention's two headers as kernels use them: `metal_simdgroup_event`, which
// declares Apple's SIMD-group async copies with `__asm("air.simdgroup_async_copy_*")` labels
// and wraps them in `simdgroup_event`, and `metal_simdgroup_matrix_storage`, a vec<T, 64>
// multiplied with `__metal_simdgroup_matrix_8x8_multiply_accumulate`. The declarations are
// MFA's text (GEMMHeaders.swift), the wrappers shortened to what the kernels call.
//
// Each SIMD-group copies its own block, in threadgroups of any size: partial SIMD-groups, one
// thread alone, and a lane that returned before the copies (the lanes at a copy share it out
// among themselves, so it is still whole). Plain and validated (no report may arrive).
#include "guarded_buffer.h"
#include "lowering.h"
#include "metal_test.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

struct _simdgroup_event_t;
thread _simdgroup_event_t*
__metal_simdgroup_async_copy_1d(
  ulong, ulong, threadgroup void *, const device void *, ulong)
  __asm("air.simdgroup_async_copy_1d.p3i8.p1i8");
thread _simdgroup_event_t*
__metal_simdgroup_async_copy_1d(
  ulong, ulong, device void *, const threadgroup void *, ulong)
  __asm("air.simdgroup_async_copy_1d.p1i8.p3i8");
thread _simdgroup_event_t*
__metal_simdgroup_async_copy_2d(
  ulong, ulong,
  threadgroup void *, ulong, ulong, ulong2,
  const device void *, ulong, ulong, ulong2,
  long2, int)
  __asm("air.simdgroup_async_copy_2d.p3i8.p1i8");
thread _simdgroup_event_t*
__metal_simdgroup_async_copy_2d(
  ulong, ulong,
  device void *, ulong, ulong, ulong2,
  const threadgroup void *, ulong, ulong, ulong2,
  long2, int)
  __asm("air.simdgroup_async_copy_2d.p1i8.p3i8");
void __metal_wait_simdgroup_events(
  int, thread _simdgroup_event_t**)
  __asm("air.wait_simdgroup_events");

#pragma METAL internals : enable
namespace metal {
  enum class simdgroup_async_copy_clamp_mode { clamp_to_zero = 0, clamp_to_edge = 1 };
  struct simdgroup_event {
    METAL_FUNC simdgroup_event() thread {}
    template <typename T>
    METAL_FUNC void async_copy(threadgroup T *dst, const device T *src, ulong n_elements) thread {
      event = __metal_simdgroup_async_copy_1d(sizeof(T), alignof(T), reinterpret_cast<threadgroup void *>(dst),
                                              reinterpret_cast<const device void *>(src), n_elements);
    }
    template <typename T>
    METAL_FUNC void async_copy(device T *dst, const threadgroup T *src, ulong n_elements) thread {
      event = __metal_simdgroup_async_copy_1d(sizeof(T), alignof(T), reinterpret_cast<device void *>(dst),
                                              reinterpret_cast<const threadgroup void *>(src), n_elements);
    }
    template <typename T>
    METAL_FUNC void async_copy(threadgroup T *dst, ushort dst_elements_per_row, ushort2 dst_tile_dimensions,
                               const device T *src, uint src_elements_per_row, ushort2 src_tile_dimensions,
                               simdgroup_async_copy_clamp_mode clamp_mode) thread {
      event = __metal_simdgroup_async_copy_2d(sizeof(T), alignof(T),
        reinterpret_cast<threadgroup void *>(dst), ushort(dst_elements_per_row), 1, ulong2(dst_tile_dimensions),
        reinterpret_cast<const device void *>(src), uint(src_elements_per_row), 1, ulong2(src_tile_dimensions),
        long2(0), static_cast<int>(clamp_mode));
    }
    template <typename T>
    METAL_FUNC void async_copy(device T *dst, uint dst_elements_per_row, ushort2 dst_tile_dimensions,
                               const threadgroup T *src, ushort src_elements_per_row, ushort2 src_tile_dimensions) thread {
      event = __metal_simdgroup_async_copy_2d(sizeof(T), alignof(T),
        reinterpret_cast<device void *>(dst), uint(dst_elements_per_row), 1, ulong2(dst_tile_dimensions),
        reinterpret_cast<const threadgroup void *>(src), ushort(src_elements_per_row), 1, ulong2(src_tile_dimensions),
        long2(0), 0);
    }
    METAL_FUNC static void wait(int count, thread simdgroup_event *events) {
      __metal_wait_simdgroup_events(count, reinterpret_cast<thread _simdgroup_event_t**>(events));
    }
  private:
    thread _simdgroup_event_t* event;
  };

  template <typename T>
  struct simdgroup_matrix_storage {
    typedef vec<T, 64> storage_type;
    storage_type t;
    METAL_FUNC thread vec<T, 2>* thread_elements() thread {
      return reinterpret_cast<thread vec<T, 2>*>(&t);
    }
    template <typename U, typename V>
    METAL_FUNC void multiply(simdgroup_matrix_storage<U> a, simdgroup_matrix_storage<V> b) {
      t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, b.t, t, typename simdgroup_matrix_storage<T>::storage_type());
    }
  };
} // namespace metal
#pragma METAL internals : disable

// MFA's morton_order(): the column (x) and row (y) of a lane's two elements.
ushort2 morton_order(ushort lane_id) {
  ushort quad_id = lane_id / 4;
  ushort M_in_simd = (quad_id / 4) * 4 + (lane_id / 2) % 4;
  ushort N_in_simd = (quad_id & 2) * 2 + (lane_id % 2) * 2;
  return ushort2(N_in_simd, M_in_simd);
}

// SIMD-group `block` (over the grid) copies rows 5·block .. 5·block + 11 of `a` (shape.x rows,
// shape.y < 10 columns; fewer rows at the end) as a 10x12 tile, padded with zeros (even
// blocks) or with the source's edge (odd blocks), and the 16 elements from a[block] on; then
// copies both back to `out` and `flat`, without waiting (as MFA's last store of C).
kernel void tiles(device const float* a [[buffer(0)]],
                  device float* out [[buffer(1)]],
                  device float* flat [[buffer(2)]],
                  constant uint2& shape [[buffer(3)]],
                  uint group [[threadgroup_position_in_grid]],
                  ushort sg [[simdgroup_index_in_threadgroup]],
                  ushort sgs [[simdgroups_per_threadgroup]],
                  ushort lane [[thread_index_in_simdgroup]]) {
  threadgroup float tiles[4 * 120];
  threadgroup float flats[4 * 16];
  const uint block = group * sgs + sg;
  if (lane == 5 && block % 3 == 1) return;
  threadgroup float* tile = tiles + 120 * sg;
  threadgroup float* line = flats + 16 * sg;
  const uint r0 = 5 * block;
  const ushort2 source(shape.y, min(12u, shape.x - r0));
  simdgroup_event events[2];
  events[0].async_copy(tile, 10, ushort2(10, 12), a + r0 * shape.y, shape.y, source,
                       block % 2 ? simdgroup_async_copy_clamp_mode::clamp_to_edge
                                 : simdgroup_async_copy_clamp_mode::clamp_to_zero);
  events[1].async_copy(line, a + block, 16);
  simdgroup_event::wait(2, events);
  simdgroup_event back[2];
  back[0].async_copy(out + block * 120, 10, ushort2(10, 12), tile, 10, ushort2(10, 12));
  back[1].async_copy(flat + block * 16, line, 16);
}

// The intrinsics called in the kernel itself (metal-flash-attention's repro shape): each
// SIMD-group copies 32 floats of `in`, waits, and after a threadgroup barrier every thread
// reads another SIMD-group's copy.
kernel void direct(device const float* in [[buffer(0)]],
                   device float* out [[buffer(1)]],
                   uint gid [[thread_position_in_grid]],
                   uint group [[threadgroup_position_in_grid]],
                   ushort lid [[thread_index_in_threadgroup]],
                   ushort size [[threads_per_threadgroup]],
                   ushort sg [[simdgroup_index_in_threadgroup]],
                   ushort sgs [[simdgroups_per_threadgroup]]) {
  threadgroup float copies[4 * 32];
  thread _simdgroup_event_t* event = __metal_simdgroup_async_copy_1d(
    sizeof(float), alignof(float), (threadgroup void *)(copies + 32 * sg),
    (const device void *)(in + 32 * (group * sgs + sg)), 32);
  __metal_wait_simdgroup_events(1, &event);
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[gid] = copies[(lid + 1) % size] * 2;
}

// SIMD-group `block` multiplies its 8x8 blocks of `a` (float) and `b` (half) into
// 0.5 + a · b, once through MFA's storage and once through simdgroup_matrix, which must agree.
kernel void storage_products(device const float* a [[buffer(0)]],
                             device const half* b [[buffer(1)]],
                             device float* c [[buffer(2)]],
                             device float* twin [[buffer(3)]],
                             uint group [[threadgroup_position_in_grid]],
                             ushort sg [[simdgroup_index_in_threadgroup]],
                             ushort sgs [[simdgroups_per_threadgroup]],
                             ushort lane [[thread_index_in_simdgroup]]) {
  const uint block = group * sgs + sg;
  const ushort2 at = morton_order(lane);
  const uint first = 64 * block + at.y * 8 + at.x;
  simdgroup_matrix_storage<float> ma, mc;
  simdgroup_matrix_storage<half> mb;
  *ma.thread_elements() = float2(a[first], a[first + 1]);
  *mb.thread_elements() = half2(b[first], b[first + 1]);
  *mc.thread_elements() = float2(0.5f);
  mc.multiply(ma, mb);
  c[first] = (*mc.thread_elements())[0];
  c[first + 1] = (*mc.thread_elements())[1];

  simdgroup_float8x8 xa, xc;
  simdgroup_half8x8 xb;
  xa.thread_elements() = float2(a[first], a[first + 1]);
  xb.thread_elements() = half2(b[first], b[first + 1]);
  xc.thread_elements() = float2(0.5f);
  simdgroup_multiply_accumulate(xc, xa, xb, xc);
  twin[first] = xc.thread_elements()[0];
  twin[first + 1] = xc.thread_elements()[1];
}

// The same product written as MFA's multiply() writes it, a statement of the kernel's own:
// split into work-item loops (collective statements), where the call through the member
// template above keeps storage_products on fibers.
kernel void storage_products_split(device const float* a [[buffer(0)]],
                                   device const half* b [[buffer(1)]],
                                   device float* c [[buffer(2)]],
                                   uint group [[threadgroup_position_in_grid]],
                                   ushort sg [[simdgroup_index_in_threadgroup]],
                                   ushort sgs [[simdgroups_per_threadgroup]],
                                   ushort lane [[thread_index_in_simdgroup]]) {
  const uint block = group * sgs + sg;
  const ushort2 at = morton_order(lane);
  const uint first = 64 * block + at.y * 8 + at.x;
  vec<float, 64> ta, tc;
  vec<half, 64> tb;
  ta = vec<float, 64>(float2(a[first], a[first + 1]));
  tb = vec<half, 64>(half2(b[first], b[first + 1]));
  tc = vec<float, 64>(float2(0.5f));
  tc = __metal_simdgroup_matrix_8x8_multiply_accumulate(ta, tb, tc, vec<float, 64>());
  c[first] = (*reinterpret_cast<thread float2*>(&tc))[0];
  c[first + 1] = (*reinterpret_cast<thread float2*>(&tc))[1];
}

// Apple's builtins under simdgroup_load/simdgroup_store, on vec<T, 64> storage: SIMD-group
// `block` loads the 8x8 window at column block % 3, row block of the 11-column matrix `a`
// (transposed for odd blocks), stores it into threadgroup memory and loads it back (in half
// for blocks divisible by 3), then stores it as the block's 8x8 tile of `out`, transposed for
// blocks whose index / 2 is odd. `twin` gets the same through simdgroup_load/simdgroup_store.
kernel void storage_loads(device const float* a [[buffer(0)]],
                          device float* out [[buffer(1)]],
                          device float* twin [[buffer(2)]],
                          uint group [[threadgroup_position_in_grid]],
                          ushort sg [[simdgroup_index_in_threadgroup]],
                          ushort sgs [[simdgroups_per_threadgroup]]) {
  threadgroup float staged[4 * 64];
  threadgroup half halves[4 * 64];
  const uint block = group * sgs + sg;
  const bool load_transposed = block % 2 == 1, store_transposed = (block / 2) % 2 == 1;
  const ulong2 window(block % 3, block);
  vec<float, 64> t = __metal_simdgroup_matrix_8x8_load(a, 11, window, load_transposed);
  __metal_simdgroup_matrix_8x8_store(t, staged + 64 * sg, 8, ulong2(0), false);
  if (block % 3 == 0) {
    const vec<half, 64> h = vec<half, 64>(half2(*reinterpret_cast<thread float2*>(&t)));
    __metal_simdgroup_matrix_8x8_store(h, halves + 64 * sg, 8, ulong2(0), false);
    vec<half, 64> back = __metal_simdgroup_matrix_8x8_load(halves + 64 * sg, 8, ulong2(0), false);
    t = vec<float, 64>(float2(*reinterpret_cast<thread half2*>(&back)));
  } else {
    t = __metal_simdgroup_matrix_8x8_load(staged + 64 * sg, 8, ulong2(0), false);
  }
  __metal_simdgroup_matrix_8x8_store(t, out + 64 * block, 8, ulong2(0), store_transposed);

  simdgroup_float8x8 m;
  simdgroup_load(m, a, 11, window, load_transposed);
  simdgroup_store(m, twin + 64 * block, 8, ulong2(0), store_transposed);
}
)";

constexpr unsigned kGroups = 3, kLanes = 32, kColumns = 7;

class AsyncCopyKernels : public ShapedKernelTest<kKernels> {
protected:
    unsigned simdgroups() const { return (groupSize() + kLanes - 1) / kLanes; }
    unsigned blocks() const { return kGroups * simdgroups(); }

    /// Runs `name` over kGroups groups with `buffers` (and their offsets) at indices 0, 1, ...,
    /// then `bytes`, if given.
    void run(const char* name, std::initializer_list<std::pair<MTL::Buffer*, NS::UInteger>> buffers,
             const void* bytes = nullptr, std::size_t length = 0) {
        SCOPED_TRACE(name);
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        NS::UInteger index = 0;
        for (const auto& [buffer, offset] : buffers) encoder->setBuffer(buffer, offset, index++);
        if (bytes) encoder->setBytes(bytes, length, index);
        encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }
};

// Test the 2-D copies (a tile padded with zeros or with the source's edge where the source
// tile is smaller, and back) and the 1-D copies (both directions) element by element against
// the CPU, with the canaries around both outputs intact, and that the kernel, whose copies
// and wait are in member functions, runs on fibers.
TEST_P(AsyncCopyKernels, TilesAndLinesAreCopiedWhole) {
    expectLowerings({{"tiles", MC_KERNEL_USES_BARRIERS}}, [&](const char* name) { return kernel(name); });
    const unsigned rows = 5 * blocks() + 3;
    std::vector<float> a(rows * kColumns);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = float(i) + 0.25f;
    MTL::Buffer* input = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, blocks() * 120 * 4), flat(device_, blocks() * 16 * 4);
    const std::uint32_t shape[2] = {rows, kColumns};
    run("tiles", {{input, 0}, {out.buffer(), out.offset()}, {flat.buffer(), flat.offset()}}, shape, sizeof shape);
    unsigned wrong = 0;
    for (unsigned block = 0; block < blocks(); ++block) {
        const unsigned r0 = 5 * block, height = std::min(12u, rows - r0);
        for (unsigned y = 0; y < 12; ++y)
            for (unsigned x = 0; x < 10; ++x) {
                float expected = 0.0f;
                if (x < kColumns && y < height) expected = a[(r0 + y) * kColumns + x];
                else if (block % 2) expected = a[(r0 + std::min(y, height - 1)) * kColumns + std::min(x, kColumns - 1)];
                const float got = out.data<float>()[block * 120 + y * 10 + x];
                if (got != expected && ++wrong <= 5)
                    ADD_FAILURE() << "block " << block << " (" << x << ", " << y << "): " << got << ", expected "
                                  << expected;
            }
        for (unsigned i = 0; i < 16; ++i) {
            const float got = flat.data<float>()[block * 16 + i];
            if (got != a[block + i] && ++wrong <= 5)
                ADD_FAILURE() << "block " << block << " element " << i << ": " << got << ", expected " << a[block + i];
        }
    }
    EXPECT_EQ(wrong, 0u);
    out.expectCanariesIntact();
    flat.expectCanariesIntact();
    input->release();
}

// Test the intrinsics called in the kernel's own body: every thread reads what another
// SIMD-group copied, after the wait and a threadgroup barrier.
TEST_P(AsyncCopyKernels, DirectCallsInTheKernel) {
    expectLowerings({{"direct", MC_KERNEL_USES_BARRIERS}}, [&](const char* name) { return kernel(name); });
    std::vector<float> in(blocks() * 32);
    for (unsigned i = 0; i < in.size(); ++i) in[i] = float(i % 97) - 40.0f;
    MTL::Buffer* input = device_->newBuffer(in.data(), in.size() * 4, MTL::ResourceStorageModeShared);
    const unsigned threads = kGroups * groupSize();
    GuardedBuffer out(device_, threads * 4);
    run("direct", {{input, 0}, {out.buffer(), out.offset()}});
    for (unsigned g = 0; g < kGroups; ++g)
        for (unsigned lid = 0; lid < groupSize(); ++lid) {
            const unsigned j = (lid + 1) % groupSize();
            EXPECT_EQ(out.data<float>()[g * groupSize() + lid], in[32 * g * simdgroups() + j] * 2) << g << ", " << lid;
        }
    out.expectCanariesIntact();
    input->release();
}

/// The lane of a SIMD-group matrix holding element (row, column) (<metal_simdgroup_matrix>).
unsigned laneOf(unsigned row, unsigned column) {
    return (row & 4) * 4 + (row % 4) * 2 + (column & 4) * 2 + (column & 2) / 2;
}

// Test that MFA's storage product gives the bits simdgroup_multiply_accumulate gives (lanes
// outside a partial SIMD-group count as zeros and store nothing), and, in whole SIMD-groups,
// the exact product; and that the product as a statement of the kernel (work-item loops) gives
// the same bits.
TEST_P(AsyncCopyKernels, StorageProductsAreSimdgroupProducts) {
    const unsigned words = blocks() * 64;
    std::vector<float> a(words);
    std::vector<_Float16> b(words);
    for (unsigned i = 0; i < words; ++i) {
        a[i] = float(int((i * 37u + 11u) % 33u) - 16) / 16.0f;
        b[i] = _Float16(float(int((i * 29u + 5u) % 17u) - 8) / 8.0f);
    }
    MTL::Buffer* aBuffer = device_->newBuffer(a.data(), words * 4, MTL::ResourceStorageModeShared);
    MTL::Buffer* bBuffer = device_->newBuffer(b.data(), words * 2, MTL::ResourceStorageModeShared);
    expectLowerings({{"storage_products", MC_KERNEL_USES_BARRIERS},
                     {"storage_products_split", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
    GuardedBuffer c(device_, words * 4), twin(device_, words * 4), split(device_, words * 4);
    run("storage_products", {{aBuffer, 0}, {bBuffer, 0}, {c.buffer(), c.offset()}, {twin.buffer(), twin.offset()}});
    run("storage_products_split", {{aBuffer, 0}, {bBuffer, 0}, {split.buffer(), split.offset()}});
    EXPECT_EQ(std::memcmp(c.data<float>(), twin.data<float>(), words * 4), 0);
    EXPECT_EQ(std::memcmp(split.data<float>(), twin.data<float>(), words * 4), 0);
    for (unsigned block = 0; block < blocks(); ++block) {
        const unsigned firstThread = (block % simdgroups()) * kLanes;
        for (unsigned r = 0; r < 8; ++r)
            for (unsigned col = 0; col < 8; ++col) {
                const bool exists = firstThread + laneOf(r, col) < groupSize();
                const std::size_t at = block * 64 + r * 8 + col;
                std::uint32_t got, expected = kCanary;
                std::memcpy(&got, c.data<float>() + at, 4);
                if (exists && firstThread + kLanes <= groupSize()) {
                    float sum = 0.5f;
                    for (unsigned k = 0; k < 8; ++k) sum += a[block * 64 + r * 8 + k] * float(b[block * 64 + k * 8 + col]);
                    std::memcpy(&expected, &sum, 4);
                } else if (exists) {
                    continue; // a partial SIMD-group: the twin's bits, compared above
                }
                EXPECT_EQ(got, expected) << "block " << block << " C[" << r << "][" << col << "]";
            }
    }
    c.expectCanariesIntact();
    twin.expectCanariesIntact();
    split.expectCanariesIntact();
    aBuffer->release();
    bBuffer->release();
}

// Test Apple's load and store builtins on vec<T, 64> storage: the window of `a` each block
// loads (transposed or not, at its origin, with a stride of 11), through threadgroup memory
// (in half for some blocks, exact for these values), to `out` (transposed or not), element by
// element against the CPU; the same bits as simdgroup_load/simdgroup_store; lanes outside a
// partial SIMD-group store nothing (canary words); and the kernel, which needs only each
// thread's lane, runs as work-item loops.
TEST_P(AsyncCopyKernels, StorageLoadsAndStoresAreSimdgroupLoadsAndStores) {
    expectLowerings({{"storage_loads", MC_KERNEL_WORK_ITEM_LOOPS}}, [&](const char* name) { return kernel(name); });
    const unsigned rows = blocks() + 8, columns = 11, words = blocks() * 64;
    std::vector<float> a(rows * columns);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = float(int(i % 61) - 30) * 0.5f;
    MTL::Buffer* input = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, words * 4), twin(device_, words * 4);
    run("storage_loads", {{input, 0}, {out.buffer(), out.offset()}, {twin.buffer(), twin.offset()}});
    EXPECT_EQ(std::memcmp(out.data<float>(), twin.data<float>(), words * 4), 0);
    unsigned wrong = 0;
    for (unsigned block = 0; block < blocks(); ++block) {
        const unsigned firstThread = (block % simdgroups()) * kLanes;
        const bool loadTransposed = block % 2 == 1, storeTransposed = (block / 2) % 2 == 1;
        const unsigned origin = block * columns + block % 3;
        for (unsigned r = 0; r < 8; ++r)
            for (unsigned c = 0; c < 8; ++c) {
                const float element = a[origin + (loadTransposed ? c * columns + r : r * columns + c)];
                const unsigned at = block * 64 + (storeTransposed ? c * 8 + r : r * 8 + c);
                std::uint32_t got, expected = kCanary;
                std::memcpy(&got, out.data<float>() + at, 4);
                if (firstThread + laneOf(r, c) < groupSize()) std::memcpy(&expected, &element, 4);
                if (got != expected && ++wrong <= 5)
                    ADD_FAILURE() << "block " << block << " (" << r << ", " << c << "): " << std::hex << got
                                  << ", expected " << expected;
            }
    }
    EXPECT_EQ(wrong, 0u);
    out.expectCanariesIntact();
    twin.expectCanariesIntact();
    input->release();
}

// MFA v1's form: the copies from <metal_simdgroup_future>, which __HAVE_SIMDGROUP_FUTURE__
// announces. Each SIMD-group copies a 6x6 block of `a` into an 8x8 tile padded with zeros,
// and the tile back whole.
const char* const kFutureKernels = R"(#include <metal_stdlib>
#if defined(__HAVE_SIMDGROUP_FUTURE__)
#include <metal_simdgroup_future>
#endif
using namespace metal;
kernel void future_tiles(device const float* a [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         uint group [[threadgroup_position_in_grid]],
                         ushort sg [[simdgroup_index_in_threadgroup]],
                         ushort sgs [[simdgroups_per_threadgroup]]) {
  threadgroup float tiles[4 * 64];
  threadgroup float* tile = tiles + 64 * sg;
  const uint block = group * sgs + sg;
  __metal_simdgroup_event_t e = __metal_simdgroup_async_copy_2d(
    sizeof(float), alignof(float), (threadgroup void *)tile, 8, 1, ulong2(8, 8),
    (const device void *)(a + 36 * block), 6, 1, ulong2(6, 6), long2(0),
    int(simdgroup_async_copy_clamp_mode::clamp_to_zero));
  __metal_wait_simdgroup_events(1, &e);
  __metal_simdgroup_async_copy_1d(sizeof(float), alignof(float), (device void *)(out + 64 * block),
                                  (const threadgroup void *)tile, 64);
}
)";

class SimdgroupFutureKernels : public ShapedKernelTest<kFutureKernels> {};

// Test the copies of <metal_simdgroup_future> against the CPU, canaries intact.
TEST_P(SimdgroupFutureKernels, PaddedTileRoundTrip) {
    const unsigned blocks = kGroups * ((groupSize() + kLanes - 1) / kLanes);
    std::vector<float> a(blocks * 36);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = float(i) * 0.5f + 1.0f;
    MTL::Buffer* input = device_->newBuffer(a.data(), a.size() * 4, MTL::ResourceStorageModeShared);
    GuardedBuffer out(device_, blocks * 64 * 4);
    MTL::ComputePipelineState* state = kernel("future_tiles");
    ASSERT_NE(state, nullptr);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(input, 0, 0);
    out.bind(encoder, 1);
    encoder->dispatchThreadgroups(MTL::Size(kGroups, 1, 1), MTL::Size(groupSize(), 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    for (unsigned block = 0; block < blocks; ++block)
        for (unsigned y = 0; y < 8; ++y)
            for (unsigned x = 0; x < 8; ++x)
                EXPECT_EQ(out.data<float>()[block * 64 + y * 8 + x], x < 6 && y < 6 ? a[block * 36 + y * 6 + x] : 0.0f)
                    << "block " << block << " (" << x << ", " << y << ")";
    out.expectCanariesIntact();
    state->release();
    input->release();
}

INSTANTIATE_TEST_SUITE_P(Shapes, SimdgroupFutureKernels,
                         ::testing::Combine(::testing::Values(1u, 45u, 128u), ::testing::Bool()), kernelShapeName);

INSTANTIATE_TEST_SUITE_P(Shapes, AsyncCopyKernels,
                         ::testing::Combine(::testing::Values(1u, 13u, 32u, 45u, 64u, 128u), ::testing::Bool()),
                         kernelShapeName);

} // namespace
} // namespace metalcpu::testing
