// Per-thread variables that live across barriers and SIMD-group function statements in the
// shapes the work-item loops keep in their slots (issue 10): C arrays uninitialised, partly
// initialised, two-dimensional, of vectors and of structs with a default member initializer;
// variables whose address is taken, passed to helpers by pointer and by reference; several
// declarators in one declaration, arrays among them; arrays bounded by a constant of the
// body or by their initializer; loop variables passed by value, loops without braces; kernel
// parameters the body writes (pointers advanced, builtins reassigned). And the shapes that still fall
// back, to coroutines or fibers, with the same results. Against a CPU model, over groups of 1, 20, 45,
// 64 and 256 threads in grids the groups do not divide, SIMD widths 32 and 8, plain and
// shader-validated, canary words around the output.
#include "guarded_buffer.h"
#include "lowering.h"
#include "simd_shape.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = METALCPU_ROW_KERNEL_SOURCE R"(

struct Pair {
    float low;
    float high = 2.0f;
};

void accumulate(thread float* total, float value) { *total += value; }
void twice(thread float (&values)[4]) {
    for (uint k = 0; k < 4; ++k) values[k] *= 2.0f;
}

ROW_KERNEL(kept_in_place) {
    threadgroup float row[256];
    const float x = in[gid];
    float v[4];
    for (uint k = 0; k < 4; ++k) v[k] = x + float(k);
    float acc[2] = {x};
    float2 m[2][2] = {};
    Pair pairs[2] = {{x, 1.0f}, {2.0f * x}};
    float total = 0, scale = 0.5f, w[3] = {1, 2, 3};
    int i, j;
    Pair solo;
    row[lid] = v[3];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    i = int((lid + 1) % size);
    j = 1;
    acc[1] = row[i];
    m[1][j] = float2(v[0], row[(lid + size - 1) % size]);
    accumulate(&total, v[1] + pairs[1].high);
    thread Pair* p = &solo;
    p->low = w[j];
    twice(v);
    const float s = simd_sum(v[2]);
    float top = simd_max(v[0]);
    pairs[0].low += s;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    accumulate(&top, 1.0f);
    row[lid] = acc[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = acc[1] + row[(lid + 1) % size] + m[1][1].x + m[1][1].y + m[0][0].x + pairs[0].low +
               pairs[0].high + pairs[1].low + total * scale + w[2] + v[3] + solo.low + solo.high + top;
}

// An array whose bound comes from its initializer: counted for its slots' type.
ROW_KERNEL(unsized_array) {
    threadgroup float row[256];
    const float x = in[gid];
    float w[] = {x, 2.0f * x};
    row[lid] = w[1];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float s = simd_sum(w[0]);
    out[gid] = row[(lid + 1) % size] + s + w[1];
}

// The same as an array of arrays with its inner braces elided: not counted, so fibers.
ROW_KERNEL(elided_array) {
    threadgroup float row[256];
    const float x = in[gid];
    float w[][2] = {x, 2.0f * x};
    row[lid] = w[0][1];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const float s = simd_sum(w[0][0]);
    out[gid] = row[(lid + 1) % size] + s + w[0][1];
}

float scaled(float v, uint k) { return v * float(k + 1); }
void add_step(thread float& total, const thread uint& k) { total += float(k); }
void keep_below(thread uint& k, uint limit) { k = min(k, limit); }

// Loop variables passed where they cannot be written (by value, by const reference, to the
// library), and loops without braces around barriers and SIMD-group function statements.
ROW_KERNEL(loop_arguments) {
    threadgroup float row[256];
    float total = 0;
    for (uint k = 0; k < 3; ++k)
        for (uint j = 0; j < 2; ++j) {
            row[lid] = scaled(in[gid], min(k, 1u));
            threadgroup_barrier(mem_flags::mem_threadgroup);
            total += row[(lid + 1) % size];
            add_step(total, k);
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
    for (uint k = 0; k < 2; ++k)
        total += simd_sum(in[gid] * float(k + 1));
    out[gid] = total;
}

// The same with the loop's variable passed to a reference parameter: a coroutine.
ROW_KERNEL(loop_variable_written) {
    threadgroup float row[256];
    float total = 0;
    for (uint k = 0; k < 3; ++k) {
        keep_below(k, 2u);
        row[lid] = scaled(in[gid], min(k, 1u));
        threadgroup_barrier(mem_flags::mem_threadgroup);
        total += 2 * row[(lid + 1) % size] + 2 * float(k);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[gid] = total;
}

// Parameters written, as MLX's and PyTorch's kernels write them: pointers advanced to the
// group's row and to each thread's element, a builtin reassigned, before and after barriers.
// Each thread keeps its own copy.
ROW_KERNEL(advanced_pointers) {
    threadgroup float row[256];
    in += gid - lid; // the group's first element, as MLX's `in += gid * axis_size`
    out += gid;
    row[lid] = 2.0f * in[lid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    in += (lid + 1) % size; // after a barrier, by each thread's own amount
    lid = (lid + size - 1) % size;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    *out = in[0] + row[lid];
}

// A builtin rotated in a loop that runs once per group around barriers, a pointer advanced
// after it and read by a SIMD-group function, a uniform builtin written.
ROW_KERNEL(rotated_builtin) {
    threadgroup float row[256];
    in += gid - lid;
    float acc = 0;
    for (uint k = 0; k < 3; ++k) {
        row[lid] = in[lid];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        acc += row[(lid + 1) % size] * float(k + 1);
        lid = (lid + 1) % size;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    in += lid;
    size *= 2;
    const float s = simd_sum(*in);
    out[gid] = acc + *in + float(size) + s;
}

// A written builtin that the header of a loop around barriers names: the header runs once
// per group, so not split; a coroutine, with the same results.
ROW_KERNEL(builtin_in_header) {
    threadgroup float row[256];
    const uint mine = lid;
    lid = 0;
    float acc = 0;
    for (uint k = lid; k < 2; ++k) {
        row[mine] = in[gid] + float(k);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        acc += row[(mine + 1) % size];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    out[gid] = acc;
}

// A reference parameter written: the buffer's memory, which the threads share (no slot).
kernel void reference_written(device const float* in [[buffer(0)]], device float& first [[buffer(1)]],
                              uint gid [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]]) {
    threadgroup float row[256];
    row[lid] = in[gid];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gid == 0) first = row[0];
    threadgroup_barrier(mem_flags::mem_device);
    if (gid == 0) first += 1.0f;
}

// An array bounded by a constant of the body: its slots are made after the constant.
ROW_KERNEL(body_bound) {
    constexpr uint kCount = 2;
    threadgroup float row[256];
    const float x = in[gid];
    float w[kCount] = {x, 3.0f};
    row[lid] = w[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[gid] = row[(lid + 1) % size] + w[1] + w[0];
}
)";

/// What `per_thread(x, l, group size, simd)` gives each thread of `n` in groups of `size` (the
/// last one cut), SIMD-groups `width` wide: `x(k)` is the value of thread k of the same group;
/// `simd(f)` sums `f(x)` over the thread's SIMD-group, `simd(f, true)` takes their maximum.
template <class PerThread>
std::vector<float> model(const std::vector<float>& in, unsigned size, unsigned width, PerThread perThread) {
    const unsigned n = unsigned(in.size());
    std::vector<float> out(n);
    for (unsigned first = 0; first < n; first += size) {
        const unsigned s = std::min(size, n - first);
        for (unsigned l = 0; l < s; ++l) {
            const auto x = [&](unsigned k) { return in[first + k]; };
            const unsigned lanes = l / width * width;
            const auto simd = [&](auto f, bool maximum = false) {
                float result = maximum ? f(x(lanes)) : 0.0f;
                for (unsigned k = lanes; k < std::min(lanes + width, s); ++k)
                    result = maximum ? std::max(result, f(x(k))) : result + f(x(k));
                return result;
            };
            out[first + l] = perThread(x, l, s, simd);
        }
    }
    return out;
}

class WorkItemVariables : public SimdShapedKernelTest<kKernels> {
protected:
    /// runOverWholeNumbers() comparing each thread's output with `expected(in)`.
    template <class Model>
    void check(const char* name, Model expected) {
        runOverWholeNumbers(name, [&](const std::vector<float>& x, GuardedBuffer& out) {
            const std::vector<float> want = expected(x);
            unsigned failures = 0;
            for (unsigned i = 0; i < x.size() && failures < 10; ++i) {
                if (out.data<float>()[i] == want[i]) continue;
                ADD_FAILURE() << "thread " << i << ": " << out.data<float>()[i] << ", expected " << want[i];
                ++failures;
            }
        });
    }
};

// Test arrays of every shape, variables whose address is taken (one declared by a SIMD-group
// function statement) and several declarators in one declaration, across barriers and
// SIMD-group functions: each thread keeps its own.
TEST_P(WorkItemVariables, KeptInPlace) {
    check("kept_in_place", [&](const std::vector<float>& in) {
        return model(in, size(), width(), [](auto x, unsigned l, unsigned s, auto simd) {
            const float next = x((l + 1) % s), previous = x((l + s - 1) % s), mine = x(l);
            const float sum = simd([](float v) { return 2 * v + 4; });
            const float top = simd([](float v) { return 2 * v; }, true) + 1;
            const float acc1 = next + 3, m11 = mine + previous + 3, total = mine + 1 + 2;
            return acc1 + next + m11 + 0 + (mine + sum) + 1 + 2 * mine + total * 0.5f + 3 + (2 * mine + 6) + 2 + 2 +
                   top;
        });
    });
}

// Test loop variables passed by value and loops without braces: 2 x (next * 1 + 0) +
// 2 x (next * 2 + 1) + 2 x (next * 2 + 2), then the SIMD-group's sum times 1 and 2.
TEST_P(WorkItemVariables, LoopArguments) {
    check("loop_arguments", [&](const std::vector<float>& in) {
        return model(in, size(), width(), [](auto x, unsigned l, unsigned s, auto simd) {
            return 10 * x((l + 1) % s) + 6 + 3 * simd([](float v) { return v; });
        });
    });
}

// Test an array whose bound is counted from its initializer, and the shapes that still fall
// back (elided braces, a loop variable written): their results are the same.
TEST_P(WorkItemVariables, BoundsFromInitializersAndFallBacks) {
    for (const char* name : {"unsized_array", "elided_array"})
        check(name, [&](const std::vector<float>& in) {
            return model(in, size(), width(), [](auto x, unsigned l, unsigned s, auto simd) {
                return 2 * x((l + 1) % s) + simd([](float v) { return v; }) + 2 * x(l);
            });
        });
    check("loop_variable_written", [&](const std::vector<float>& in) {
        return model(in, size(), width(),
                     [](auto x, unsigned l, unsigned s, auto) { return 10 * x((l + 1) % s) + 6; });
    });
}

// Test an array bounded by a constant of the body, whose slots are made after the constant.
TEST_P(WorkItemVariables, BoundByBodyConstant) {
    check("body_bound", [&](const std::vector<float>& in) {
        return model(in, size(), width(),
                     [](auto x, unsigned l, unsigned s, auto) { return x((l + 1) % s) + 3 + x(l); });
    });
}

// Test parameters written before and after barriers, in a loop that runs once per group and
// read by a SIMD-group function: pointers advanced, builtins reassigned, per thread.
TEST_P(WorkItemVariables, WrittenParameters) {
    check("advanced_pointers", [&](const std::vector<float>& in) {
        return model(in, size(), width(),
                     [](auto x, unsigned l, unsigned s, auto) { return x((l + 1) % s) + 2 * x((l + s - 1) % s); });
    });
    check("rotated_builtin", [&](const std::vector<float>& in) {
        return model(in, size(), width(), [w = width()](auto x, unsigned l, unsigned s, auto) {
            float simd = 0; // the SIMD-group's sum of each lane's x((lane + 3) % s)
            for (unsigned k = l / w * w; k < std::min(l / w * w + w, s); ++k) simd += x((k + 3) % s);
            return x((l + 1) % s) + 2 * x((l + 2) % s) + 3 * x((l + 3) % s) + x((l + 3) % s) + float(2 * s) + simd;
        });
    });
    check("builtin_in_header", [&](const std::vector<float>& in) {
        return model(in, size(), width(), [](auto x, unsigned l, unsigned s, auto) { return 2 * x((l + 1) % s) + 1; });
    });
}

// Test a reference parameter written across barriers: the one float it binds, and nothing
// around it.
TEST_P(WorkItemVariables, ReferenceParameterWritten) {
    runOverWholeNumbers("reference_written", [](const std::vector<float>& x, GuardedBuffer& out) {
        EXPECT_EQ(out.data<float>()[0], x[0] + 1);
        for (unsigned i = 1; i < x.size(); ++i) EXPECT_EQ(out.data<std::uint32_t>()[i], kCanary) << i;
    });
}

// Test each kernel's lowering in both flavours: kept_in_place, loop_arguments, body_bound,
// unsized_array and the kernels writing parameters are split into work-item loops,
// loop_variable_written (a reference parameter) and builtin_in_header stay coroutines, an
// array of arrays with elided braces keeps the fibers (METALCPU_LOG_LEVEL=debug says why).
TEST_P(WorkItemVariables, Lowerings) {
    expectLowerings({{"kept_in_place", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"loop_arguments", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"loop_variable_written", MC_KERNEL_COROUTINES},
                     {"unsized_array", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"elided_array", MC_KERNEL_USES_BARRIERS},
                     {"body_bound", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"advanced_pointers", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"rotated_builtin", MC_KERNEL_WORK_ITEM_LOOPS},
                     {"builtin_in_header", MC_KERNEL_COROUTINES},
                     {"reference_written", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(Width32, WorkItemVariables,
                         ::testing::Combine(::testing::Values(1u, 20u, 45u, 64u, 256u), ::testing::Values(32u),
                                            ::testing::Bool()),
                         simdShapeName);
INSTANTIATE_TEST_SUITE_P(Width8, WorkItemVariables,
                         ::testing::Combine(::testing::Values(20u, 45u), ::testing::Values(8u), ::testing::Bool()),
                         simdShapeName);

} // namespace
} // namespace metalcpu::testing
