// Staged collective helpers (a member that makes several SIMD-group functions, MLX's
// `CumMax::simd_scan`: a loop of `simd_shuffle_up`s) called as whole statements of a kernel:
// split into work-item loops, each helper run for its SIMD-group once per collective
// (docs/compiler.md, "Work-item loops"), with the results Metal gives.
//
// mlx_scan is MLX's contiguous_scan (scan.h) cut to the forward direction, with MLX's own Op
// structs: CumSum (a single collective), CumMax and CumMin (five shuffles, then a shuffle and
// fill), CumProd<bool> (the same over bool); `op.simd_exclusive_scan(x)` may be any of them.
// Two changes let groups that are not whole SIMD-groups work (MLX dispatches whole ones):
// the group's last thread writes its SIMD-group's total, and SIMD-group 0 scans one total
// per SIMD-group, the init value past them. Groups of 1, 7, 33 and 64 threads, widths 32 and 8,
// three rows of one chunk, two and a half chunks and one value, plain and shader-validated,
// canaries around every output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

constexpr unsigned kReads = 4; // N_READS

const char* const kStagedKernels = R"(
#include <metal_stdlib>
using namespace metal;

template <typename U> struct Limits;
template <> struct Limits<int> { static constexpr constant int max = 2147483647; static constexpr constant int min = -2147483647 - 1; };
template <> struct Limits<float> { static constexpr constant float max = INFINITY; static constexpr constant float min = -INFINITY; };

template <typename U>
struct CumSum {
  static constexpr constant U init = static_cast<U>(0);
  template <typename T>
  U operator()(U a, T b) { return a + b; }
  U simd_scan(U x) { return simd_prefix_inclusive_sum(x); }
  U simd_exclusive_scan(U x) { return simd_prefix_exclusive_sum(x); }
};

template <typename U>
struct CumProd {
  static constexpr constant U init = static_cast<U>(1.0f);
  template <typename T>
  U operator()(U a, T b) { return a * b; }
  U simd_scan(U x) { return simd_prefix_inclusive_product(x); }
  U simd_exclusive_scan(U x) { return simd_prefix_exclusive_product(x); }
};

template <>
struct CumProd<bool> {
  static constexpr constant bool init = true;
  template <typename T>
  bool operator()(bool a, T b) { return a & static_cast<bool>(b); }
  bool simd_scan(bool x) {
    for (int i = 1; i <= 16; i *= 2) {
      bool other = simd_shuffle_up(x, i);
      x &= other;
    }
    return x;
  }
  bool simd_exclusive_scan(bool x) {
    x = simd_scan(x);
    return simd_shuffle_and_fill_up(x, init, 1);
  }
};

template <typename U>
struct CumMax {
  static constexpr constant U init = Limits<U>::min;
  template <typename T>
  U operator()(U a, T b) { return (a >= b) ? a : b; }
  U simd_scan(U x) {
    for (int i = 1; i <= 16; i *= 2) {
      U other = simd_shuffle_up(x, i);
      x = (x >= other) ? x : other;
    }
    return x;
  }
  U simd_exclusive_scan(U x) {
    x = simd_scan(x);
    return simd_shuffle_and_fill_up(x, init, 1);
  }
};

template <typename U>
struct CumMin {
  static constexpr constant U init = Limits<U>::max;
  template <typename T>
  U operator()(U a, T b) { return (a <= b) ? a : b; }
  U simd_scan(U x) {
    for (int i = 1; i <= 16; i *= 2) {
      U other = simd_shuffle_up(x, i);
      x = (x <= other) ? x : other;
    }
    return x;
  }
  U simd_exclusive_scan(U x) {
    x = simd_scan(x);
    return simd_shuffle_and_fill_up(x, init, 1);
  }
};

// KERNEL is the template's name; CALL(x) the call of the helper: `op.simd_exclusive_scan(x)`, or
// in parentheses, which keeps the twin on fibers as the reference of the same semantics.
#define DEFINE_SCAN(KERNEL, CALL) \
template <typename T, typename U, typename Op, int N_READS, bool inclusive> \
[[kernel]] void KERNEL( \
    const device T* in [[buffer(0)]], \
    device U* out [[buffer(1)]], \
    const constant uint& axis_size [[buffer(2)]], \
    uint gid [[thread_position_in_grid]], \
    uint lid [[thread_position_in_threadgroup]], \
    uint lsize [[threads_per_threadgroup]], \
    uint simd_size [[threads_per_simdgroup]], \
    uint simd_lane_id [[thread_index_in_simdgroup]], \
    uint simd_group_id [[simdgroup_index_in_threadgroup]]) { \
  Op op; \
  in += (gid / lsize) * axis_size; \
  out += (gid / lsize) * axis_size; \
  uint simd_groups = (lsize + simd_size - 1) / simd_size; \
  U prefix = Op::init; \
  U values[N_READS]; \
  threadgroup U simdgroup_sums[64]; \
  for (uint r = 0; r < (axis_size + N_READS * lsize - 1) / (N_READS * lsize); r++) { \
    uint offset = r * lsize * N_READS + lid * N_READS; \
    for (int i = 0; i < N_READS; i++) { \
      values[i] = (offset + i < axis_size) ? U(in[offset + i]) : Op::init; \
    } \
    for (int i = 1; i < N_READS; i++) { \
      values[i] = op(values[i], values[i - 1]); \
    } \
    U prev_thread = CALL(values[N_READS - 1]); \
    threadgroup_barrier(mem_flags::mem_threadgroup); \
    if (simd_lane_id == simd_size - 1 || lid == lsize - 1) { \
      simdgroup_sums[simd_group_id] = op(prev_thread, values[N_READS - 1]); \
    } \
    threadgroup_barrier(mem_flags::mem_threadgroup); \
    if (simd_group_id == 0) { \
      U total = simd_lane_id < simd_groups ? simdgroup_sums[simd_lane_id] : Op::init; \
      U prev_simdgroup = CALL(total); \
      simdgroup_sums[simd_lane_id] = prev_simdgroup; \
    } \
    threadgroup_barrier(mem_flags::mem_threadgroup); \
    for (int i = 0; i < N_READS; i++) { \
      values[i] = op(values[i], prefix); \
      values[i] = op(values[i], simdgroup_sums[simd_group_id]); \
      values[i] = op(values[i], prev_thread); \
    } \
    if (inclusive) { \
      for (int i = 0; i < N_READS; i++) \
        if (offset + i < axis_size) out[offset + i] = values[i]; \
    } else { \
      if (lid == 0 && offset == 0) out[0] = Op::init; \
      for (int i = 0; i < N_READS; i++) \
        if (offset + i + 1 < axis_size) out[offset + i + 1] = values[i]; \
    } \
    threadgroup_barrier(mem_flags::mem_threadgroup); \
    if (lid == lsize - 1) { \
      simdgroup_sums[0] = values[N_READS - 1]; \
    } \
    threadgroup_barrier(mem_flags::mem_threadgroup); \
    prefix = simdgroup_sums[0]; \
  } \
}

#define STAGED(x) op.simd_exclusive_scan(x)
#define PARENTHESISED(x) (op.simd_exclusive_scan(x))
DEFINE_SCAN(mlx_scan, STAGED)
DEFINE_SCAN(fiber_scan, PARENTHESISED)

#define instantiate_scan(KERNEL, name, itype, otype, op, inclusive)                              \
  template [[host_name(name)]] [[kernel]] void KERNEL<itype, otype, op<otype>, 4, inclusive>(   \
      const device itype* in [[buffer(0)]], device otype* out [[buffer(1)]],                      \
      const constant uint& axis_size [[buffer(2)]], uint gid [[thread_position_in_grid]],         \
      uint lid [[thread_position_in_threadgroup]], uint lsize [[threads_per_threadgroup]],        \
      uint simd_size [[threads_per_simdgroup]], uint simd_lane_id [[thread_index_in_simdgroup]],  \
      uint simd_group_id [[simdgroup_index_in_threadgroup]]);

instantiate_scan(mlx_scan, "scan_sum_int", int, int, CumSum, true)
instantiate_scan(mlx_scan, "scan_max_int", int, int, CumMax, true)
instantiate_scan(mlx_scan, "scan_min_float_exclusive", float, float, CumMin, false)
instantiate_scan(mlx_scan, "scan_and_bool", bool, bool, CumProd, true)
instantiate_scan(fiber_scan, "fibers_scan_sum_int", int, int, CumSum, true)
instantiate_scan(fiber_scan, "fibers_scan_max_int", int, int, CumMax, true)
instantiate_scan(fiber_scan, "fibers_scan_min_float_exclusive", float, float, CumMin, false)
instantiate_scan(fiber_scan, "fibers_scan_and_bool", bool, bool, CumProd, true)
)";

class StagedHelpers : public SimdShapedKernelTest<kStagedKernels> {
protected:
    // Runs scan `name` and its fibers twin over kRows rows of `n` elements of type T from
    // `make(i)`: the two agree element for element, and, when the groups are whole
    // SIMD-groups (MLX's dispatch; a partial one fills its first lane from an inactive lane),
    // each row is `op` folded from `init` (inclusive, or shifted by one when not).
    template <class T, class Make, class Op>
    void expectScan(const std::string& name, Make make, Op op, T init, bool inclusive) {
        constexpr unsigned kRows = 3;
        MTL::ComputePipelineState* staged = kernel(name.c_str());
        MTL::ComputePipelineState* fibers = kernel(("fibers_" + name).c_str());
        ASSERT_NE(staged, nullptr);
        ASSERT_NE(fibers, nullptr);
        const bool whole = size() % width() == 0;
        const unsigned chunk = size() * kReads;
        for (unsigned n : {chunk, 2 * chunk + chunk / 2 + 3, 1u}) {
            SCOPED_TRACE(name + ", row length " + std::to_string(n));
            std::vector<T> values(std::size_t(n) * kRows);
            MTL::Buffer* in = device_->newBuffer(values.size() * sizeof(T), MTL::ResourceStorageModeShared);
            for (std::size_t i = 0; i < values.size(); ++i) static_cast<T*>(in->contents())[i] = values[i] = make(unsigned(i));
            GuardedBuffer out(device_, values.size() * sizeof(T));
            GuardedBuffer reference(device_, values.size() * sizeof(T));
            runRows(staged, in, out, n, kRows * size());
            runRows(fibers, in, reference, n, kRows * size());
            unsigned failures = 0;
            for (unsigned r = 0; r < kRows; ++r) {
                T running = init;
                for (unsigned i = 0; i < n && failures < 10; ++i) {
                    const std::size_t at = std::size_t(r) * n + i;
                    const T before = running;
                    running = op(running, values[at]);
                    const T got = out.data<T>()[at];
                    const T expected = !whole ? reference.data<T>()[at] : inclusive ? running : before;
                    if (got == expected && got == reference.data<T>()[at]) continue;
                    ADD_FAILURE() << "row " << r << " element " << i << ": " << +got << ", expected " << +expected
                                  << ", on fibers " << +reference.data<T>()[at];
                    ++failures;
                }
            }
            out.expectCanariesIntact();
            reference.expectCanariesIntact();
            in->release();
        }
        staged->release();
        fibers->release();
    }
};

// Scattered values from -500 to 499.
int scattered(unsigned i) { return int((i * 2654435761u >> 7) % 1000u) - 500; }

// Test the sum (a single collective, run staged since the call may be any Op's).
TEST_P(StagedHelpers, Sum) {
    expectScan<std::int32_t>("scan_sum_int", scattered, std::plus<std::int32_t>(), 0, true);
}

// Test the running maximum: five shuffles and a shuffle-and-fill per call.
TEST_P(StagedHelpers, Max) {
    expectScan<std::int32_t>(
        "scan_max_int", scattered, [](std::int32_t a, std::int32_t b) { return std::max(a, b); }, INT32_MIN, true);
}

// Test the exclusive running minimum over floats (whole numbers).
TEST_P(StagedHelpers, ExclusiveMin) {
    expectScan<float>(
        "scan_min_float_exclusive", [](unsigned i) { return float(scattered(i)); },
        [](float a, float b) { return std::min(a, b); }, INFINITY, false);
}

// Test the running `and` over bools, mostly true, so that each row turns false somewhere.
TEST_P(StagedHelpers, AndOverBool) {
    expectScan<bool>(
        "scan_and_bool", [](unsigned i) { return (i * 2654435761u >> 9) % 97u != 0; },
        [](bool a, bool b) { return a && b; }, true, true);
}

// Test that every scan is split into work-item loops, in both flavours, and that the twins
// stay on fibers (else they would be no reference).
TEST_P(StagedHelpers, Lowering) {
    expectLowerings({{"scan_sum_int", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"scan_max_int", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"scan_min_float_exclusive", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"scan_and_bool", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"fibers_scan_max_int", MC_KERNEL_USES_BARRIERS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, StagedHelpers,
                         ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, StagedHelpers,
                         ::testing::Values(SimdShape{7, 8, false}, SimdShape{33, 8, true}, SimdShape{64, 8, false}),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
