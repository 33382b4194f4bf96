// A threadgroup-wide prefix sum written in the shape of MLX's contiguous scan: each thread
// holds a run of consecutive values and their own prefix, `simd_prefix_exclusive_sum` of the
// threads' totals places each thread in its SIMD-group, the SIMD-groups' totals go to
// threadgroup memory, a barrier, SIMD-group 0 scans the totals (`simd_prefix_exclusive_sum`,
// `simd_prefix_inclusive_sum`), a barrier, and each thread adds its SIMD-group's offset back;
// a row longer than the group takes several such chunks, each carrying the total so far.
// Inclusive and exclusive, int and float (small whole numbers, so float sums are exact and
// compared exactly), against a CPU prefix sum; one threadgroup per row, rows as long as the
// group's chunk, longer and not a multiple of it, shorter; groups of 1, 7, 32, 40, 96, 256 and
// 1024 threads; widths 4 to 64; plain and shader-validated. Each kernel comes twice: the
// thread's values in a C array, as MLX writes them, and in a vector (both work-item loops).
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

constexpr unsigned kReads = 4; // consecutive values per thread

// The kernel template, with `$NAME` for its name and `$VALUES` for the declaration of the
// thread's values: an array, as MLX writes it, or a vector.
const char* const kScanTemplate = R"(
template <typename T, bool Inclusive>
kernel void $NAME(device const T* in [[buffer(0)]],
                  device T* out [[buffer(1)]],
                  constant uint& n [[buffer(2)]],
                  uint row [[threadgroup_position_in_grid]],
                  uint lid [[thread_index_in_threadgroup]],
                  uint size [[threads_per_threadgroup]],
                  uint simd_lane [[thread_index_in_simdgroup]],
                  uint simd_group [[simdgroup_index_in_threadgroup]],
                  uint simd_groups [[simdgroups_per_threadgroup]]) {
    threadgroup T simd_totals[kMaxSimdgroups];
    threadgroup T chunk_total[1];
    device const T* x = in + ulong(row) * n;
    device T* y = out + ulong(row) * n;
    T carry = T(0);
    for (uint base = 0; base < n; base += size * kReads) {
        // This thread's values and their inclusive prefix; past the row's end, zeros.
        const uint first = base + lid * kReads;
        $VALUES;
        for (uint k = 0; k < kReads; ++k) values[k] = first + k < n ? x[first + k] : T(0);
        for (uint k = 1; k < kReads; ++k) values[k] += values[k - 1];

        // Where this thread starts within its SIMD-group, and the SIMD-group's total.
        const T mine = values[kReads - 1];
        const T before = simd_prefix_exclusive_sum(mine);
        const T total = simd_sum(mine);
        if (simd_lane == 0) simd_totals[simd_group] = total;
        threadgroup_barrier(mem_flags::mem_threadgroup);

        // SIMD-group 0 turns the totals into each SIMD-group's offset, and the chunk's total.
        if (simd_group == 0) {
            const T t = simd_lane < simd_groups ? simd_totals[simd_lane] : T(0);
            const T through = simd_prefix_inclusive_sum(t);
            if (simd_lane < simd_groups) simd_totals[simd_lane] = through - t;
            if (simd_lane == simd_groups - 1) chunk_total[0] = through;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);

        const T offset = carry + simd_totals[simd_group] + before;
        for (uint k = 0; k < kReads; ++k) {
            if (first + k >= n) break;
            const T exclusive = k == 0 ? T(0) : values[k - 1];
            y[first + k] = offset + (Inclusive ? values[k] : exclusive);
        }
        carry += chunk_total[0];
        // The next chunk overwrites the totals only when every thread has read them.
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}
)";

struct ScanKernel {
    std::string name;
    bool inclusive;
    bool isFloat;
};

/// scan_{inclusive,exclusive}_{int,float}, the thread's values in an array, and the same
/// kernels with `_vector`, the values in a vector.
std::vector<ScanKernel> scanKernels() {
    std::vector<ScanKernel> kernels;
    for (const char* layout : {"", "_vector"})
        for (bool isFloat : {false, true})
            for (bool inclusive : {true, false})
                kernels.push_back({std::string("scan_") + (inclusive ? "inclusive_" : "exclusive_") +
                                       (isFloat ? "float" : "int") + layout,
                                   inclusive, isFloat});
    return kernels;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

std::string scanSource() {
    std::string source = "#include <metal_stdlib>\nusing namespace metal;\n"
                         "constant constexpr uint kReads = " + std::to_string(kReads) + ";\n"
                         "constant constexpr uint kMaxSimdgroups = 64; // SIMD-group 0 scans one total per lane\n";
    source += replaced(replaced(kScanTemplate, "$NAME", "scan_rows"), "$VALUES", "T values[kReads]");
    source += replaced(replaced(kScanTemplate, "$NAME", "scan_rows_vector"), "$VALUES", "vec<T, kReads> values");
    for (const ScanKernel& k : scanKernels()) {
        const std::string t = k.isFloat ? "float" : "int";
        const bool vector = k.name.ends_with("_vector");
        source += "template [[host_name(\"" + k.name + "\")]] kernel void " + (vector ? "scan_rows_vector<" : "scan_rows<") +
                  t + ", " + (k.inclusive ? "true" : "false") + ">(device const " + t + "*, device " + t +
                  "*, constant uint&, uint, uint, uint, uint, uint, uint);\n";
    }
    return source;
}
const std::string kSource = scanSource();
const char* const kKernels = kSource.c_str();

constexpr unsigned kRows = 3;

/// Whole numbers from -8 to 7, different in each row: sums stay small enough for a float to
/// hold them exactly.
std::vector<std::int32_t> rowInputs(unsigned n) {
    std::vector<std::int32_t> values(std::size_t(n) * kRows);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::int32_t((i * 2654435761u >> 9) % 16u) - 8;
    return values;
}

/// The prefix sums of each row of `values`.
std::vector<std::int64_t> scanReference(const std::vector<std::int32_t>& values, unsigned n, bool inclusive) {
    std::vector<std::int64_t> out(values.size());
    for (unsigned r = 0; r < kRows; ++r) {
        std::int64_t sum = 0;
        for (unsigned i = 0; i < n; ++i) {
            const std::size_t at = std::size_t(r) * n + i;
            if (inclusive) sum += values[at];
            out[at] = sum;
            if (!inclusive) sum += values[at];
        }
    }
    return out;
}

class ScanKernels : public SimdShapedKernelTest<kKernels> {
protected:
    /// Runs `scan` over kRows rows of `n` values, one threadgroup per row, against the reference.
    void check(const ScanKernel& scan, unsigned n) {
        SCOPED_TRACE(scan.name + ", row length " + std::to_string(n));
        MTL::ComputePipelineState* state = kernel(scan.name.c_str());
        ASSERT_NE(state, nullptr);
        const std::vector<std::int32_t> values = rowInputs(n);
        MTL::Buffer* in = device_->newBuffer(values.size() * 4, MTL::ResourceStorageModeShared);
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (scan.isFloat) static_cast<float*>(in->contents())[i] = float(values[i]);
            else static_cast<std::int32_t*>(in->contents())[i] = values[i];
        }
        GuardedBuffer out(device_, values.size() * 4);
        runRows(state, in, out, n, kRows * size());
        const std::vector<std::int64_t> expected = scanReference(values, n, scan.inclusive);
        unsigned failures = 0;
        for (std::size_t i = 0; i < values.size() && failures < 10; ++i) {
            const double got = scan.isFloat ? double(out.data<float>()[i]) : double(out.data<std::int32_t>()[i]);
            if (got == double(expected[i])) continue;
            ADD_FAILURE() << "row " << i / n << " element " << i % n << ": " << got << ", expected " << expected[i];
            ++failures;
        }
        out.expectCanariesIntact();
        in->release();
        state->release();
    }
};

// Test each scan over rows of one chunk (kReads values per thread), two and a half chunks,
// less than a chunk, and one value.
TEST_P(ScanKernels, Rows) {
    const unsigned chunk = size() * kReads;
    for (const ScanKernel& scan : scanKernels())
        for (unsigned n : {chunk, 2 * chunk + chunk / 2 + 3, chunk / 2 + 1, 1u}) check(scan, n);
}

// Test the scans' lowering in both flavours: with the thread's values in a vector or in a
// per-thread C array, as MLX writes them (kept in its slot across the barriers), they are split
// into work-item loops, not run on fibers.
TEST_P(ScanKernels, Lowering) {
    for (const ScanKernel& scan : scanKernels())
        expectLowerings({{scan.name.c_str(), MC_KERNEL_WORK_ITEM_LOOPS}}, [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, ScanKernels,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 40u, 96u, 256u, 1024u),
                                            ::testing::Values(32u), ::testing::Bool()),
                         simdShapeName);
// Other widths, with no more SIMD-groups in a group than a SIMD-group has lanes.
INSTANTIATE_TEST_SUITE_P(OtherWidths, ScanKernels,
                         ::testing::Values(SimdShape{1, 4, false}, SimdShape{13, 4, false}, SimdShape{40, 8, false},
                                           SimdShape{7, 64, false}, SimdShape{96, 64, false},
                                           SimdShape{1024, 64, false}),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
