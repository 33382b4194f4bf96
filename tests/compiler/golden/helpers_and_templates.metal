// Library-style code: members overloaded on address spaces, a helper with its own
// threadgroup array, a functor, and a template kernel whose thread limit depends on its
// template parameters, instantiated through a typedef.
#include <metal_stdlib>
using namespace metal;

struct Accumulator {
    float total;
    Accumulator() thread = default;
    Accumulator() threadgroup = default;
    void add(float x) thread { total += x; }
    void add(float x) device { total += x; }
    float value() const thread { return total; }
    float value() const constant { return total; }
};

struct SumOp {
    float operator()(float a, float b) const { return a + b; }
};

template <int N>
float group_sum(float x, uint lid)
{
    threadgroup float partial[N];
    partial[lid % N] = simd_sum(x);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return partial[0];
}

template <typename Op, int WM, int WN>
[[kernel, max_total_threads_per_threadgroup(WM * WN * 32)]] void reduce_rows(
    device const float* in [[buffer(0)]],
    device float* out [[buffer(1)]],
    uint gid [[thread_position_in_grid]],
    uint lid [[thread_index_in_threadgroup]])
{
    Op op;
    Accumulator acc;
    acc.total = 0.0h;
    #pragma clang loop unroll(full)
    for (int i = 0; i < WM; ++i) {
        acc.add(op(in[gid * WM + i], 0.0f));
    }
    out[gid] = group_sum<WN * 32>(acc.value(), lid);
}

typedef decltype(reduce_rows<SumOp, 2, 4>) reduce_rows_t;
template [[host_name("reduce_rows_sum_2x4")]] kernel reduce_rows_t reduce_rows<SumOp, 2, 4>;
