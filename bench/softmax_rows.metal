// A row softmax written the way MLX writes its looped one, one threadgroup per row: each
// thread's partial maximum over a strided run of the row, `simd_max`, the SIMD-groups' maxima
// in threadgroup memory, a barrier, a second `simd_max` in SIMD-group 0 alone
// (`if (simd_group == 0)`), the same two stages for `simd_sum` of exp(x - max), then the row
// normalised. tests/runtime/softmax_kernels_test.cpp checks it against a double-precision
// reference; bench/softmax_bench.cpp times it against its plain C++ twin (softmax_twins.cpp).
#include <metal_stdlib>
using namespace metal;

// The second stages read one partial per lane of SIMD-group 0, so a group may have no more
// SIMD-groups than a SIMD-group has lanes (MLX: up to 1024 threads, 32 lanes); 64 is room for
// every width metalcpu runs.
constant constexpr uint kMaxSimdgroups = 64;

kernel void softmax_rows(device const float* in [[buffer(0)]],
                         device float* out [[buffer(1)]],
                         constant uint& n [[buffer(2)]],
                         uint row [[threadgroup_position_in_grid]],
                         uint lid [[thread_index_in_threadgroup]],
                         uint size [[threads_per_threadgroup]],
                         uint simd_lane [[thread_index_in_simdgroup]],
                         uint simd_group [[simdgroup_index_in_threadgroup]],
                         uint simd_groups [[simdgroups_per_threadgroup]]) {
    threadgroup float group_max[kMaxSimdgroups];
    threadgroup float group_sum[kMaxSimdgroups];
    device const float* x = in + ulong(row) * n;
    device float* y = out + ulong(row) * n;

    // The row's maximum: each thread's, each SIMD-group's, then SIMD-group 0 takes the
    // maximum of those. A thread past the row's end holds the lowest float.
    float m = numeric_limits<float>::lowest();
    for (uint i = lid; i < n; i += size) m = max(m, x[i]);
    m = simd_max(m);
    if (simd_lane == 0) group_max[simd_group] = m;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (simd_group == 0) {
        m = simd_max(simd_lane < simd_groups ? group_max[simd_lane] : numeric_limits<float>::lowest());
        if (simd_lane == 0) group_max[0] = m;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    m = group_max[0];

    // The normaliser, in the same two stages.
    float s = 0.0f;
    for (uint i = lid; i < n; i += size) s += exp(x[i] - m);
    s = simd_sum(s);
    if (simd_lane == 0) group_sum[simd_group] = s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (simd_group == 0) {
        s = simd_sum(simd_lane < simd_groups ? group_sum[simd_lane] : 0.0f);
        if (simd_lane == 0) group_sum[0] = s;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float scale = 1.0f / group_sum[0];
    for (uint i = lid; i < n; i += size) y[i] = exp(x[i] - m) * scale;
}
