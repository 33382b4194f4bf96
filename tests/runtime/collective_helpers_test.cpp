// Collective helpers (a function whose body is `return simd_f(params);`) called as whole
// statements of a kernel: split into work-item loops like the collective itself
// (docs/compiler.md, "Work-item loops"), with the same results as on fibers.
//
// scan_rows_* has the shape of MLX's contiguous scan: an Op struct whose members wrap the
// SIMD-group prefix functions (`op.simd_exclusive_scan(x)`, `op.simd_scan(x)`), pointer
// parameters advanced to the row, per-thread runs of values, the SIMD-groups' totals through
// threadgroup memory, SIMD-group 0 scanning them under a per-thread `if`, and the running total
// of a row longer than the group carried from chunk to chunk. helper_with_returns calls a free
// helper after threads past the grid's end and some others have returned: the prefix covers
// the SIMD-group's remaining threads only, as Metal's active threads. element_scan has the
// shape of MLX's strided scan: collectives whose values go to elements of per-thread arrays
// (`values[i] = op.simd_scan(values[i]);`), in a loop the group runs once. Groups of 1, 7, 33 and 64
// threads (partial SIMD-groups), widths 32 and 8, grids that the groups do not divide, plain
// and shader-validated, canaries around every output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

constexpr unsigned kReads = 4; // consecutive values per thread in scan_rows

const char* const kHelperKernels = METALCPU_ROW_KERNEL_SOURCE R"(
template <typename U>
struct SumOp {
    U operator()(U a, U b) { return a + b; }
    U simd_scan(U x) { return simd_prefix_inclusive_sum(x); }
    U simd_exclusive_scan(U x) { return simd_prefix_exclusive_sum(x); }
};

template <typename T, typename Op>
kernel void scan_rows(device const T* in [[buffer(0)]],
                      device T* out [[buffer(1)]],
                      constant uint& n [[buffer(2)]],
                      uint row [[threadgroup_position_in_grid]],
                      uint lid [[thread_index_in_threadgroup]],
                      uint lsize [[threads_per_threadgroup]],
                      uint simd_size [[threads_per_simdgroup]],
                      uint simd_lane_id [[thread_index_in_simdgroup]],
                      uint simd_group_id [[simdgroup_index_in_threadgroup]]) {
    Op op;
    in += row * n;
    out += row * n;
    const uint simd_groups = (lsize + simd_size - 1) / simd_size;
    T prefix = T(0);
    T values[4];
    threadgroup T simdgroup_sums[64];
    for (uint r = 0; r < (n + 4 * lsize - 1) / (4 * lsize); r++) {
        const uint offset = r * lsize * 4 + lid * 4;
        for (int i = 0; i < 4; i++) values[i] = offset + i < n ? in[offset + i] : T(0);
        for (int i = 1; i < 4; i++) values[i] = op(values[i], values[i - 1]);

        // Where this thread starts in its SIMD-group; the SIMD-group's total to memory.
        T prev_thread = op.simd_exclusive_scan(values[3]);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (simd_lane_id == simd_size - 1 || lid == lsize - 1) simdgroup_sums[simd_group_id] = op(prev_thread, values[3]);
        threadgroup_barrier(mem_flags::mem_threadgroup);

        // SIMD-group 0 turns the totals into each SIMD-group's offset.
        if (simd_group_id == 0) {
            T total = simd_lane_id < simd_groups ? simdgroup_sums[simd_lane_id] : T(0);
            T through = op.simd_scan(total);
            simdgroup_sums[simd_lane_id] = through - total;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);

        for (int i = 0; i < 4; i++) values[i] = op(op(op(values[i], prefix), simdgroup_sums[simd_group_id]), prev_thread);
        for (int i = 0; i < 4; i++)
            if (offset + i < n) out[offset + i] = values[i];

        // The chunk's last value is the next chunk's running total.
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid == lsize - 1) simdgroup_sums[0] = values[3];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        prefix = simdgroup_sums[0];
    }
}
template [[host_name("scan_rows_int")]] kernel void scan_rows<int, SumOp<int>>(
    device const int*, device int*, constant uint&, uint, uint, uint, uint, uint, uint);
template [[host_name("scan_rows_float")]] kernel void scan_rows<float, SumOp<float>>(
    device const float*, device float*, constant uint&, uint, uint, uint, uint, uint, uint);

float running_total(float x) { return simd_prefix_inclusive_sum(x); }

// Three columns a thread: each column's prefix sum over the SIMD-group, and its total plus
// the largest doubled prefix, through the elements of per-thread arrays (the second collective
// an argument whose type the hoisting cannot name, the third an element's `+=`).
ROW_KERNEL(element_scan) {
    SumOp<float> op;
    float values[3];
    float totals[3];
    for (int i = 0; i < 3; i++) values[i] = gid < n ? in[gid * 3 + i] : 0.0f;
    for (int i = 0; i < 3; i++) {
        totals[i] = simd_sum(values[i]);
        values[i] = op.simd_scan(values[i]);
        totals[i] += simd_max(values[i] * 2.0f);
    }
    for (int i = 0; i < 3; i++) {
        out[gid * 6 + i] = values[i];
        out[gid * 6 + 3 + i] = totals[i];
    }
}

ROW_KERNEL(helper_with_returns) {
    if (gid >= n) return;
    float x = in[gid];
    if (int(x) % 5 == 3) return;
    float total = running_total(x);
    out[gid] = total;
}
)";

class CollectiveHelpers : public SimdShapedKernelTest<kHelperKernels> {
protected:
    /// A shared buffer holding `values` (+1).
    MTL::Buffer* floats(const std::vector<float>& values) {
        return device_->newBuffer(values.data(), values.size() * sizeof(float), MTL::ResourceStorageModeShared);
    }
};

// Test the MLX-shaped scan over rows of one chunk (kReads values a thread), two and a half
// chunks and one value, int and float (whole numbers: float sums are exact), against a CPU
// prefix sum.
TEST_P(CollectiveHelpers, ScanRows) {
    constexpr unsigned kRows = 3;
    const unsigned chunk = size() * kReads;
    for (const bool isFloat : {false, true}) {
        MTL::ComputePipelineState* state = kernel(isFloat ? "scan_rows_float" : "scan_rows_int");
        ASSERT_NE(state, nullptr);
        for (unsigned n : {chunk, 2 * chunk + chunk / 2 + 3, 1u}) {
            SCOPED_TRACE(std::string(isFloat ? "float" : "int") + ", row length " + std::to_string(n));
            const std::vector<float> values = wholeNumbers(n * kRows);
            MTL::Buffer* in = device_->newBuffer(values.size() * 4, MTL::ResourceStorageModeShared);
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (isFloat) static_cast<float*>(in->contents())[i] = values[i];
                else static_cast<std::int32_t*>(in->contents())[i] = std::int32_t(values[i]);
            }
            GuardedBuffer out(device_, values.size() * 4);
            runRows(state, in, out, n, kRows * size());
            unsigned failures = 0;
            for (unsigned r = 0; r < kRows; ++r) {
                double sum = 0;
                for (unsigned i = 0; i < n && failures < 10; ++i) {
                    const std::size_t at = std::size_t(r) * n + i;
                    sum += values[at];
                    const double got = isFloat ? double(out.data<float>()[at]) : double(out.data<std::int32_t>()[at]);
                    if (got == sum) continue;
                    ADD_FAILURE() << "row " << r << " element " << i << ": " << got << ", expected " << sum;
                    ++failures;
                }
            }
            out.expectCanariesIntact();
            in->release();
        }
        state->release();
    }
}

// Test a free helper called after threads returned (past the grid's end, and where the value
// is 3 mod 5): each remaining thread gets the sum of its SIMD-group's remaining threads up to
// itself; a returned thread's output keeps the -1000 written before. The grid is cut in its
// last group (n + 5 threads, not a multiple of most group sizes).
TEST_P(CollectiveHelpers, HelperAfterReturns) {
    MTL::ComputePipelineState* state = kernel("helper_with_returns");
    ASSERT_NE(state, nullptr);
    for (unsigned n : {size() * 3 + 2, 1u, 100u}) {
        SCOPED_TRACE("n " + std::to_string(n));
        const unsigned threads = n + 5;
        const std::vector<float> values = wholeNumbers(threads);
        MTL::Buffer* in = floats(values);
        GuardedBuffer out(device_, threads * 4);
        for (unsigned i = 0; i < threads; ++i) out.data<float>()[i] = -1000.0f;
        runRows(state, in, out, n, threads);
        // Lanes are counted within each threadgroup: SIMD-group = (gid % size) / width.
        const auto returned = [&](unsigned gid) { return gid >= n || int(values[gid]) % 5 == 3; };
        unsigned failures = 0;
        for (unsigned gid = 0; gid < threads && failures < 10; ++gid) {
            const unsigned first = gid - (gid % size()) % width();
            double expected = -1000.0;
            if (!returned(gid)) {
                expected = 0;
                for (unsigned other = first; other <= gid; ++other)
                    if (!returned(other)) expected += values[other];
            }
            const double got = out.data<float>()[gid];
            if (got == expected) continue;
            ADD_FAILURE() << "thread " << gid << ": " << got << ", expected " << expected;
            ++failures;
        }
        out.expectCanariesIntact();
        in->release();
    }
    state->release();
}

// Test collectives into array elements: for each SIMD-group of each group (the last ones
// partial, threads past n handing in zeros), each column's inclusive prefix sum, and its
// total plus twice its largest prefix. The grid (n + 3 threads) is cut in its last group.
TEST_P(CollectiveHelpers, ElementTargets) {
    MTL::ComputePipelineState* state = kernel("element_scan");
    ASSERT_NE(state, nullptr);
    for (unsigned n : {size() * 2 + 5, 1u, 70u}) {
        SCOPED_TRACE("n " + std::to_string(n));
        const unsigned threads = n + 3;
        const std::vector<float> values = wholeNumbers(threads * 3);
        MTL::Buffer* in = floats(values);
        GuardedBuffer out(device_, threads * 6 * 4);
        runRows(state, in, out, n, threads);
        const auto value = [&](unsigned gid, unsigned column) { return gid < n ? values[gid * 3 + column] : 0.0f; };
        unsigned failures = 0;
        for (unsigned gid = 0; gid < threads && failures < 10; ++gid) {
            // The SIMD-group's lanes: from its first thread to the group's or the grid's end.
            const unsigned first = gid - (gid % size()) % width();
            const unsigned groupEnd = std::min(gid - gid % size() + size(), threads);
            const unsigned last = std::min(first + width(), groupEnd);
            for (unsigned column = 0; column < 3; ++column) {
                double prefix = 0, total = 0, largest = -1e30;
                for (unsigned lane = first; lane < last; ++lane) {
                    total += value(lane, column);
                    double through = 0;
                    for (unsigned k = first; k <= lane; ++k) through += value(k, column);
                    largest = std::max(largest, 2 * through);
                    if (lane <= gid) prefix = through;
                }
                const double gotPrefix = out.data<float>()[gid * 6 + column];
                const double gotTotal = out.data<float>()[gid * 6 + 3 + column];
                if (gotPrefix == prefix && gotTotal == total + largest) continue;
                ADD_FAILURE() << "thread " << gid << " column " << column << ": " << gotPrefix << ", " << gotTotal
                              << ", expected " << prefix << ", " << total + largest;
                ++failures;
            }
        }
        out.expectCanariesIntact();
        in->release();
    }
    state->release();
}

// Test that the helpers' kernels are split into work-item loops, in both flavours.
TEST_P(CollectiveHelpers, Lowering) {
    expectLowerings({{"scan_rows_int", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"scan_rows_float", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"helper_with_returns", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"element_scan", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, CollectiveHelpers,
                         ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, CollectiveHelpers,
                         ::testing::Values(SimdShape{7, 8, false}, SimdShape{33, 8, true}, SimdShape{64, 8, false}),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
