// Per-thread variables that live across barriers and SIMD-group function statements and are
// kept in their slots (work-item loops): C arrays (MLX's scan holds `T values[N_READS]`), with
// and without initializers, of structs, two-dimensional; a variable whose address
// is taken; several declarators in one declaration, arrays among them.
#include <metal_stdlib>
using namespace metal;

struct Pair {
    float low;
    float high = 1.0f; // a default member initializer: `Pair p;` runs it
};

void accumulate(thread float* total, float value) { *total += value; }

template <typename T, int N>
kernel void scan_chunk(device const T* in [[buffer(0)]],
                       device T* out [[buffer(1)]],
                       uint gid [[thread_position_in_grid]],
                       uint lane [[thread_index_in_simdgroup]],
                       uint sg [[simdgroup_index_in_threadgroup]])
{
    threadgroup T totals[32];
    T values[N];
    for (int k = 0; k < N; ++k) values[k] = in[gid * N + k];
    T prefix[N] = {};
    float total = 0, count = 1, weights[2][2] = {{1, 2}, {3, 4}};
    int i, j;
    const T mine = values[N - 1];
    const T before = simd_prefix_exclusive_sum(mine);
    if (lane == 0) totals[sg] = mine;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    i = 0, j = 1;
    for (int k = 0; k < N; ++k) prefix[k] = before + values[k] + totals[0] * weights[i][j];
    accumulate(&total, float(prefix[0]));
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (int k = 0; k < N; ++k) out[gid * N + k] = prefix[k] + T(total / count);
}

template [[host_name("scan_chunk_float_4")]] kernel void scan_chunk<float, 4>(device const float*, device float*, uint,
                                                                                 uint, uint);

kernel void pairs(device float* data [[buffer(0)]],
                  uint lid [[thread_index_in_threadgroup]])
{
    threadgroup float shared[64];
    Pair p;
    Pair q = {data[lid], data[lid + 1]}, r{2.0f, 3.0f};
    float rows[2]{data[lid], 0.0f};
    device float* where = data + lid, *other(data);
    shared[lid % 64] = rows[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    rows[1] = shared[(lid + 1) % 64];
    thread const Pair* first = &p;
    *where = rows[0] + rows[1] + first->high + q.low + q.high + r.low + r.high + other[0] * 0.0f;
}
