// Tests of <metal_cooperative_tensor> and MetalPerformancePrimitives' matmul2d and reductions
// compiled as hosted C++, one thread at a time, against a stub runtime: the test says which
// thread of the group is running (current_thread), and a naive reference matmul / reduction
// stands in for the executor's. So these tests check what kernel code hands the runtime
// (shapes, modes, slots, scope records) and what it does with the result, under every layout.
#include <gtest/gtest.h>

#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace {

using namespace metal;
using namespace mpp::tensor_ops;

mc_dispatch g_dispatch;
mc_group g_group;
std::vector<mc_scope_record> g_arrived;  // records handed to the stub scope_call
int g_scope_calls = 0;
int g_operations = 0;                    // tensor_matmul / cooperative_reduce calls
mc_u32 g_last_records = 0;               // records the last operation saw

const mc_group* current_group() { return &g_group; }

double read_element(mc_u32 type, const void* base, long long at) {
    switch (type) {
    case 3: return static_cast<const float*>(base)[at];
    case 16: return double(static_cast<const half*>(base)[at]);
    case 29: return static_cast<const int*>(base)[at];
    }
    ADD_FAILURE() << "element type " << type;
    return 0;
}
void write_element(mc_u32 type, void* base, long long at, double value) {
    switch (type) {
    case 3: static_cast<float*>(base)[at] = float(value); return;
    case 16: static_cast<half*>(base)[at] = half(float(value)); return;
    case 29: static_cast<int*>(base)[at] = int(value); return;
    }
    ADD_FAILURE() << "element type " << type;
}

/// An operand as a dense (dim0, dim1) tile of doubles, gathered from its tensor or from the
/// slots the scope's records point at (absent threads: 0).
struct dense {
    long long e0 = 0, e1 = 0;
    std::vector<double> v;
    double at(long long x, long long y) const { return x < e0 && y < e1 ? v[size_t(y * e0 + x)] : 0.0; }
};
dense gather(const mc_tensor_operand& o, int storage, const mc_scope_record* records, mc_u32 count) {
    dense d;
    d.e0 = o.extents[0];
    d.e1 = o.extents[1];
    d.v.assign(size_t(d.e0 * d.e1), 0.0);
    for (long long y = 0; y < d.e1; ++y)
        for (long long x = 0; x < d.e0; ++x)
            if (o.kind == MC_OPERAND_TENSOR)
                d.v[size_t(y * d.e0 + x)] = read_element(o.data_type, o.data, x * o.strides[0] + y * o.strides[1]);
    if (o.kind == MC_OPERAND_COOPERATIVE)
        for (mc_u32 r = 0; r < count; ++r)
            for (mc_u32 i = 0; i < o.layout.capacity; ++i) {
                mc_u32 x = 0, y = 0;
                if (metalcpu_cooperative::coordinate(o.layout, records[r].thread, i, &x, &y))
                    d.v[y * d.e0 + x] = read_element(o.data_type, records[r].storage[storage], i);
            }
    return d;
}
/// Writes f(x, y) to every element of a tensor operand inside its extents, or to every valid
/// slot of a cooperative one.
template <class F>
void scatter(const mc_tensor_operand& o, int storage, const mc_scope_record* records, mc_u32 count, F f) {
    if (o.kind == MC_OPERAND_TENSOR) {
        for (long long y = 0; y < o.extents[1]; ++y)
            for (long long x = 0; x < o.extents[0]; ++x)
                write_element(o.data_type, o.data, x * o.strides[0] + y * o.strides[1], f(x, y));
        return;
    }
    for (mc_u32 r = 0; r < count; ++r)
        for (mc_u32 i = 0; i < o.layout.capacity; ++i) {
            mc_u32 x = 0, y = 0;
            if (metalcpu_cooperative::coordinate(o.layout, records[r].thread, i, &x, &y))
                write_element(o.data_type, records[r].storage[storage], i, f(x, y));
        }
}

void reference_matmul(const mc_matmul_call* call) {
    ++g_operations;
    g_last_records = call->record_count;
    const dense L = gather(call->left, MC_SCOPE_LEFT, call->records, call->record_count);
    const dense R = gather(call->right, MC_SCOPE_RIGHT, call->records, call->record_count);
    const dense D = gather(call->destination, MC_SCOPE_DESTINATION, call->records, call->record_count);
    const long long leftK = call->transpose_left ? L.e1 : L.e0, rightK = call->transpose_right ? R.e0 : R.e1;
    const long long K = call->k >= 0 ? call->k : std::min(leftK, rightK);
    scatter(call->destination, MC_SCOPE_DESTINATION, call->records, call->record_count, [&](long long x, long long y) {
        if (x >= call->n || y >= call->m) return 0.0;
        double sum = call->accumulate ? D.at(x, y) : 0.0;
        for (long long k = 0; k < K; ++k)
            sum += (call->transpose_left ? L.at(y, k) : L.at(k, y)) * (call->transpose_right ? R.at(k, x) : R.at(x, k));
        return sum;
    });
}

void reference_reduce(const mc_reduce_call* call) {
    ++g_operations;
    g_last_records = call->record_count;
    const dense S = gather(call->source, MC_SCOPE_LEFT, call->records, call->record_count);
    std::vector<bool> valid(S.v.size(), false);
    for (mc_u32 r = 0; r < call->record_count; ++r)
        for (mc_u32 i = 0; i < call->source.layout.capacity; ++i) {
            mc_u32 x = 0, y = 0;
            if (metalcpu_cooperative::coordinate(call->source.layout, call->records[r].thread, i, &x, &y))
                valid[y * S.e0 + x] = true;
        }
    scatter(call->destination, MC_SCOPE_DESTINATION, call->records, call->record_count, [&](long long x, long long y) {
        double acc = call->identity;
        const long long count = call->columns ? S.e1 : S.e0;
        for (long long j = 0; j < count; ++j) {
            const long long sx = call->columns ? x : j, sy = call->columns ? j : y;
            if (!valid[size_t(sy * S.e0 + sx)]) continue;
            const double v = S.at(sx, sy);
            acc = call->op == MC_REDUCE_SUM ? acc + v : call->op == MC_REDUCE_MAX ? std::max(acc, v) : std::min(acc, v);
        }
        return acc;
    });
}

/// Collects records; the last thread of the scope (by count) runs the operation, as the
/// fiber scheduler's last arriver does. Threads call in order, so earlier ones return first
/// (the test keeps their cooperative tensors alive).
void stub_scope_call(mc_u32 simdgroups, const mc_scope_record* mine, mc_scope_fn fn, void* context) {
    ++g_scope_calls;
    g_arrived.push_back(*mine);
    if (g_arrived.size() == 32 * simdgroups) {
        fn(context, g_arrived.data(), mc_u32(g_arrived.size()));
        g_arrived.clear();
    }
}

std::vector<void*> g_frames;
void* frame(mc_u64 size) {
    void* p = std::aligned_alloc(64, (size + 63) / 64 * 64);
    g_frames.push_back(p);
    return p;
}

constexpr mc_u32 kKinds[] = {MC_COOPERATIVE_LAYOUT_APPLE10, MC_COOPERATIVE_LAYOUT_APPLE9, MC_COOPERATIVE_LAYOUT_SHUFFLED,
                             MC_COOPERATIVE_LAYOUT_PADDED};

class TensorOpsTest : public ::testing::TestWithParam<mc_u32> {
protected:
    void SetUp() override {
        services_.abi_version = METALCPU_KERNEL_ABI_VERSION;
        services_.current_group = current_group;
        services_.tensor_matmul = reference_matmul;
        services_.cooperative_reduce = reference_reduce;
        services_.scope_call = stub_scope_call;
        services_.coroutine_frame = frame;
        metalcpu_kernel::g_services = &services_;
        g_dispatch = {};
        g_dispatch.simd_width = 32;
        g_dispatch.cooperative_layout = GetParam();
        g_dispatch.cooperative_seed = 7;
        g_group = {};
        g_group.dispatch = &g_dispatch;
        g_arrived.clear();
        g_scope_calls = g_operations = 0;
    }
    void TearDown() override {
        metalcpu_kernel::g_services = nullptr;
        for (void* p : g_frames) std::free(p);
        g_frames.clear();
    }
    static void as_thread(unsigned t) { g_group.current_thread = static_cast<unsigned short>(t); }

    mc_services services_{};
};

std::vector<float> matrix(int rows, int columns, int seed) {
    std::vector<float> m(size_t(rows * columns));
    for (size_t i = 0; i < m.size(); ++i) m[i] = float(int((i * 37 + size_t(seed) * 11) % 17) - 8) / 4.0f;
    return m;
}

// Test that a new cooperative tensor reads as zeros, knows its thread in the scope, and that
// load then store through get_multidimensional_index moves every element of a ragged tile
// exactly once, under each layout (the portable way to use a cooperative tensor).
TEST_P(TensorOpsTest, LoadStoreRoundTripsEveryElement) {
    constexpr auto desc = matmul2d_descriptor(24, 40, 8);
    matmul2d<desc, execution_simdgroups<2>> op;
    using ct_t = decltype(op.get_destination_cooperative_tensor<tensor<float, dextents<int, 2>, tensor_inline>,
                                                               tensor<float, dextents<int, 2>, tensor_inline>, float>());
    static_assert(__is_trivially_copyable(ct_t));
    static_assert(ct_t::extents_type::static_extent(0) == 40 && ct_t::extents_type::static_extent(1) == 24);
    std::vector<float> source = matrix(20, 40, 1);  // 20 rows: the tile's last 4 rows are outside
    std::vector<float> copy(size_t(24 * 40), -1.0f);
    auto in = tensor(source.data(), dextents<int, 2>(40, 20));
    auto out = tensor(copy.data(), dextents<int, 2>(40, 24));
    std::vector<int> seen(24 * 40, 0);
    for (unsigned t = 0; t < 64; ++t) {
        as_thread(t + 64);  // the second scope of the group: index in scope t
        auto ct = op.get_destination_cooperative_tensor<decltype(in), decltype(in), float>();
        EXPECT_EQ(ct.thread_, t);
        for (int i = 0; i < ct.get_capacity(); ++i) EXPECT_EQ(ct[i], 0.0f);
        ct.load(in);
        for (int i = 0; i < ct.get_capacity(); ++i) {
            if (!ct.is_valid_element(i)) continue;
            const auto idx = ct.get_multidimensional_index(i);
            ASSERT_LT(idx[0], 40);
            ASSERT_LT(idx[1], 24);
            ++seen[idx[1] * 40 + idx[0]];
            EXPECT_EQ(ct[i], idx[1] < 20 ? source[size_t(idx[1] * 40 + idx[0])] : 0.0f);
        }
        ct.store(out);
    }
    for (int i = 0; i < 24 * 40; ++i) ASSERT_EQ(seen[i], 1) << "element " << i;
    for (int i = 0; i < 24 * 40; ++i) EXPECT_EQ(copy[size_t(i)], i < 20 * 40 ? source[size_t(i)] : 0.0f);
}

// Test the iterators (PyTorch's epilogue): they visit every slot, their indices match
// get_multidimensional_index, and a second destination of another element type of the same
// op has the same element in each slot (cO[e] = cT[e] is a type change, not a shuffle).
TEST_P(TensorOpsTest, IteratorsCoverSlotsAndLayoutIgnoresElementType) {
    constexpr auto desc = matmul2d_descriptor(32, 32, static_cast<int>(dynamic_extent));
    matmul2d<desc, execution_simdgroups<4>> op;
    using T = tensor<half, dextents<int, 2>, tensor_inline>;
    as_thread(77);
    auto cT = op.get_destination_cooperative_tensor<T, T, float>();
    auto cO = op.get_destination_cooperative_tensor<T, T, half>();
    ASSERT_EQ(cT.get_capacity(), cO.get_capacity());
    int e = 0;
    for (auto it = cT.begin(); it != cT.end(); ++it, ++e) {
        const auto a = it.get_multidimensional_index(), b = cT.get_multidimensional_index(e);
        const auto c = cO.get_multidimensional_index(e);
        EXPECT_EQ(a[0], b[0]);
        EXPECT_EQ(a[1], c[1]);
        EXPECT_EQ(b[0], c[0]);
        *it = float(e);
        cO[e] = half(cT[e]);
    }
    EXPECT_EQ(e, cT.get_capacity());
    EXPECT_EQ(float(cO[3]), 3.0f);
    EXPECT_EQ(cT.get(9999), 0.0f);  // checked access past the capacity
}

// Test matmul2d::run with execution_thread (the caller alone, no rendezvous): tensor
// operands, dynamic K, ragged edges and a destination tensor clipped by its slice.
TEST_P(TensorOpsTest, RunOnOneThreadWithTensors) {
    const int M = 5, N = 7, K = 9;
    std::vector<float> a = matrix(M, K, 2), b = matrix(K, N, 3), d(size_t(M * N), 100.0f);
    auto A = tensor(a.data(), dextents<int, 2>(K, M));
    auto B = tensor(b.data(), dextents<int, 2>(N, K));
    auto D = tensor(d.data(), dextents<int, 2>(N, M));
    matmul2d<matmul2d_descriptor(8, 8), execution_thread> op;
    as_thread(3);
    op.run(A, B, D);
    EXPECT_EQ(g_scope_calls, 0);
    EXPECT_EQ(g_operations, 1);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double expected = 0;
            for (int k = 0; k < K; ++k) expected += double(a[size_t(i * K + k)]) * b[size_t(k * N + j)];
            EXPECT_FLOAT_EQ(d[size_t(i * N + j)], float(expected)) << i << "," << j;
        }
}

// Test the sample's shape on one scope of 4 SIMD-groups: every thread calls run with its own
// destination, one rendezvous per thread, one operation per scope, then each thread's
// epilogue (relu) and store; compared with a CPU product.
TEST_P(TensorOpsTest, SampleShapedRunOverFourSimdgroups) {
    constexpr int Tile = 32, Size = 32, K = 40;
    std::vector<float> a = matrix(Size, K, 4), b = matrix(K, Size, 5), d(size_t(Size * Size), -7.0f);
    auto A = tensor(a.data(), dextents<int, 2>(K, Size));
    auto B = tensor(b.data(), dextents<int, 2>(Size, K));
    auto D = tensor(d.data(), dextents<int, 2>(Size, Size));
    auto sA = A.slice<dynamic_extent, Tile>(0, 0);
    auto sB = B.slice<Tile, dynamic_extent>(0, 0);
    auto sD = D.slice<Tile, Tile>(0, 0);
    constexpr auto desc = matmul2d_descriptor(Tile, Tile, dynamic_length_v<int>);
    matmul2d<desc, execution_simdgroups<4>> op;
    using ct_t = decltype(op.get_destination_cooperative_tensor<decltype(sA), decltype(sB), float>());
    std::vector<ct_t> cts(128);
    for (unsigned t = 0; t < 128; ++t) {
        as_thread(t);
        cts[t] = op.get_destination_cooperative_tensor<decltype(sA), decltype(sB), float>();
        op.run(sA, sB, cts[t]);
    }
    EXPECT_EQ(g_scope_calls, 128);
    EXPECT_EQ(g_operations, 1);
    for (unsigned t = 0; t < 128; ++t) {
        for (int e = 0; e < cts[t].get_capacity(); e++) cts[t][e] = max(cts[t][e], 0.0f);
        cts[t].store(sD);
    }
    for (int i = 0; i < Size; ++i)
        for (int j = 0; j < Size; ++j) {
            double expected = 0;
            for (int k = 0; k < K; ++k) expected += double(a[size_t(i * K + k)]) * b[size_t(k * Size + j)];
            EXPECT_FLOAT_EQ(d[size_t(i * Size + j)], float(std::max(expected, 0.0))) << i << "," << j;
        }
}

// Test the descriptor's fields reach the runtime: multiply_accumulate adds into an unzeroed
// fresh destination (llama.cpp), transpose_right reads R as (k, n).
TEST_P(TensorOpsTest, AccumulateAndTransposeReachTheRuntime) {
    const int M = 16, N = 16, K = 8;
    std::vector<float> a = matrix(M, K, 6), bt = matrix(N, K, 7), d(size_t(M * N), 0.0f);
    auto A = tensor(a.data(), dextents<int, 2>(K, M));
    auto Bt = tensor(bt.data(), dextents<int, 2>(K, N));  // R transposed: (k, n)
    auto D = tensor(d.data(), dextents<int, 2>(N, M));
    constexpr auto desc = matmul2d_descriptor(M, N, static_cast<int>(dynamic_extent), false, true, true,
                                              matmul2d_descriptor::mode::multiply_accumulate);
    static_assert(desc.matmul_mode == matmul2d_descriptor::mode::multiply_accumulate && desc.transpose_right);
    matmul2d<desc, execution_simdgroup> op;
    std::vector<decltype(op.get_destination_cooperative_tensor<decltype(A), decltype(Bt), float>())> cts(32);
    for (int step = 0; step < 2; ++step)  // the K loop: two accumulations of the same product
        for (unsigned t = 0; t < 32; ++t) {
            as_thread(t);
            if (step == 0) cts[t] = op.get_destination_cooperative_tensor<decltype(A), decltype(Bt), float>();
            op.run(A, Bt, cts[t]);
        }
    for (unsigned t = 0; t < 32; ++t) cts[t].store(D);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double expected = 0;
            for (int k = 0; k < K; ++k) expected += double(a[size_t(i * K + k)]) * bt[size_t(j * K + k)];
            EXPECT_FLOAT_EQ(d[size_t(i * N + j)], float(2 * expected)) << i << "," << j;
        }
}

// Test cooperative inputs (MLX's shape: 16x32x16 on one SIMD-group), filled portably through
// get_multidimensional_index, and reductions of the destination with map_iterator, including
// Apple's default identity of 0 for max (the footgun, reproduced).
TEST_P(TensorOpsTest, CooperativeInputsAndRowReductions) {
    constexpr int M = 16, N = 32, K = 16;
    std::vector<float> a = matrix(M, K, 8), b = matrix(K, N, 9);
    for (float& v : a) v = -std::fabs(v) - 1.0f;  // every product row negative
    for (float& v : b) v = std::fabs(v) + 0.5f;
    constexpr auto desc = matmul2d_descriptor(M, N, K);
    matmul2d<desc, execution_simdgroup> op;
    using L = decltype(op.get_left_input_cooperative_tensor<float, float, float>());
    using R = decltype(op.get_right_input_cooperative_tensor<float, float, float>());
    using D = decltype(op.get_destination_cooperative_tensor<L, R, float>());
    using Row = decltype(op.get_row_reduction_destination_cooperative_tensor<L, R, float>());
    std::vector<L> ls(32);
    std::vector<R> rs(32);
    std::vector<D> ds(32);
    std::vector<Row> maxima(32), footgun(32), sums(32);
    auto tA = tensor(a.data(), dextents<int, 2>(K, M));
    auto tB = tensor(b.data(), dextents<int, 2>(N, K));
    for (unsigned t = 0; t < 32; ++t) {
        as_thread(t);
        ls[t] = op.get_left_input_cooperative_tensor<float, float, float>();
        rs[t] = op.get_right_input_cooperative_tensor<float, float, float>();
        ds[t] = op.get_destination_cooperative_tensor<L, R, float>();
        ls[t].load(tA);
        rs[t].load(tB);
        op.run(ls[t], rs[t], ds[t]);
    }
    ASSERT_EQ(g_operations, 1);
    for (unsigned t = 0; t < 32; ++t) {
        as_thread(t);
        maxima[t] = op.get_row_reduction_destination_cooperative_tensor<L, R, float>();
        reduce_rows(ds[t], maxima[t], reduction_operation::max, reduction_operation_identity<float>::max_identity);
    }
    for (unsigned t = 0; t < 32; ++t) {
        as_thread(t);
        footgun[t] = op.get_row_reduction_destination_cooperative_tensor<L, R, float>();
        reduce_rows(ds[t], footgun[t], reduction_operation::max);
        sums[t] = op.get_row_reduction_destination_cooperative_tensor<L, R, float>();
    }
    for (unsigned t = 0; t < 32; ++t) {
        as_thread(t);
        reduce_rows(ds[t], sums[t], reduction_operation::sum, 0.0f);
    }
    EXPECT_EQ(g_operations, 4);
    for (unsigned t = 0; t < 32; ++t) {
        ASSERT_TRUE(is_iterator_compatible(ds[t], maxima[t]));
        EXPECT_FALSE(is_iterator_compatible(ls[t], ds[t]));
        for (auto it = ds[t].begin(); it != ds[t].end(); ++it) {
            if (!it.is_valid_element()) continue;
            const int row = it.get_multidimensional_index()[1];
            double row_max = -1e30, row_sum = 0;
            for (int j = 0; j < N; ++j) {
                double v = 0;
                for (int k = 0; k < K; ++k) v += double(a[size_t(row * K + k)]) * b[size_t(k * N + j)];
                row_max = std::max(row_max, v);
                row_sum += v;
            }
            auto m = maxima[t].map_iterator(it);
            ASSERT_NE(m, maxima[t].end());
            EXPECT_EQ(maxima[t].get_multidimensional_index(m)[1], row);
            EXPECT_FLOAT_EQ(*m, float(row_max));
            EXPECT_EQ(*footgun[t].map_iterator(it), 0.0f);
            EXPECT_FLOAT_EQ(*sums[t].map_iterator(it), float(row_sum));
        }
    }
}

// The coroutine form the front end writes for `op.run(A, B, ct);` and `reduce_rows(...);`
// in a kernel body: two scopes of 2 SIMD-groups; threads from `leaving` on return first.
struct CoroutineArguments {
    float *a, *b, *d, *row_sums;
    unsigned leaving;
};
metalcpu_kernel::barrier_task coroutine_thread(metalcpu_kernel::thread_ids ids, const CoroutineArguments* args) {
    const unsigned t = ids.linear;
    if (t >= args->leaving) co_return;
    const unsigned scope = t / 64;
    auto A = tensor(args->a, dextents<int, 2>(16, 64));  // 64 rows: one 32-row tile per scope
    auto B = tensor(args->b, dextents<int, 2>(32, 16));
    auto D = tensor(args->d, dextents<int, 2>(32, 64));
    auto sA = A.slice(0, int(scope) * 32);
    auto sD = D.slice<32, 32>(0, int(scope) * 32);
    matmul2d<matmul2d_descriptor(32, 32), execution_simdgroups<2>> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(sA), decltype(B), float>();
    co_await metalcpu_kernel::scope_run(op, sA, B, ct);
    ct.store(sD);
    auto sums = op.get_row_reduction_destination_cooperative_tensor<decltype(sA), decltype(B), float>();
    co_await metalcpu_kernel::scope_reduce_rows(ct, sums);
    for (auto it = ct.begin(); it != ct.end(); ++it)
        if (it.is_valid_element()) args->row_sums[scope * 32 + unsigned(it.get_multidimensional_index()[1])] = *sums.map_iterator(it);
}

// Test the coroutine form: run_coroutines runs each operation once per scope between two
// passes, with no fiber rendezvous, and threads that returned are absent from the records.
TEST_P(TensorOpsTest, CoroutineFormRunsOncePerScopeBetweenPasses) {
    std::vector<float> a = matrix(64, 16, 10), b = matrix(16, 32, 11), d(64 * 32, -1.0f), sums(64, -1.0f);
    g_group.size[0] = 128;
    g_group.size[1] = g_group.size[2] = 1;
    CoroutineArguments args{a.data(), b.data(), d.data(), sums.data(), 128};
    metalcpu_kernel::run_coroutines(&g_group, [&](metalcpu_kernel::thread_ids ids) { return coroutine_thread(ids, &args); });
    EXPECT_EQ(g_scope_calls, 0);
    EXPECT_EQ(g_operations, 4);  // two scopes, two operations each
    EXPECT_EQ(g_last_records, 64u);
    for (int i = 0; i < 64; ++i) {
        double row = 0;
        for (int j = 0; j < 32; ++j) {
            double expected = 0;
            for (int k = 0; k < 16; ++k) expected += double(a[size_t(i * 16 + k)]) * b[size_t(k * 32 + j)];
            EXPECT_FLOAT_EQ(d[size_t(i * 32 + j)], float(expected)) << i << "," << j;
            row += expected;
        }
        EXPECT_FLOAT_EQ(sums[size_t(i)], float(row)) << "row " << i;
    }

    g_operations = 0;
    args.leaving = 100;  // the second scope keeps 36 of its threads
    metalcpu_kernel::run_coroutines(&g_group, [&](metalcpu_kernel::thread_ids ids) { return coroutine_thread(ids, &args); });
    EXPECT_EQ(g_operations, 4);
    EXPECT_EQ(g_last_records, 36u);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TensorOpsTest, ::testing::ValuesIn(kKinds));

} // namespace
