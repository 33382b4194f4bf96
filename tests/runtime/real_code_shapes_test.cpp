// Kernels in the shapes real libraries write them (MLX, ggml, PyTorch MPS, metal-cpp
// samples), each a construct the front end once failed on, run against a CPU reference at
// several threadgroup sizes, plain and with shader validation.

#include "runtime/guarded_buffer.h"
#include "runtime/lowering.h"
#include "runtime/metal_test.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::testing {
namespace {

// Every kernel takes `device float* out [[buffer(0)]]`, `device const float* in [[buffer(1)]]`
// and its position in the grid, and writes out[i] from in[i].
const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

// MLX reduction/ops.h: member templates chosen by a comparison inside template arguments.
template <typename U>
struct Sum {
    template <typename T, metal::enable_if_t<sizeof(T) < 8, bool> = true>
    T reduce(T val) { return val + T(1); }
    template <typename T, metal::enable_if_t<sizeof(T) == 8, bool> = true>
    T reduce(T val) { return val + T(2); }
    template <typename T, metal::enable_if_t<(sizeof(T) > 8), bool> = true>
    T reduce(T val) { return val + T(3); }
};

kernel void comparison_in_template_arguments(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                             uint i [[thread_position_in_grid]]) {
    Sum<float> s;
    long wide = long(in[i]);
    out[i] = s.reduce(in[i]) + float(s.reduce(wide)) * 10.0f;
}

// Comparisons in template arguments whose left operand is a constant or a dependent name,
// without parentheses.
constexpr constant int kWidth = 4;
struct Narrow { static constexpr constant int size = 4; };
struct Broad { static constexpr constant int size = 16; };
template <typename T, metal::enable_if_t<T::size < 8, bool> = true>
float by_size(float x) { return x + 1.0f; }
template <typename T, metal::enable_if_t<(T::size >= 8), bool> = true>
float by_size(float x) { return x * 10.0f; }
template <int N, metal::enable_if_t<kWidth < N, bool> = true>
float by_width(float x) { return x + float(N); }
template <int N, metal::enable_if_t<(N <= kWidth), bool> = true>
float by_width(float x) { return x - float(N); }

kernel void comparison_after_constants(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                       uint i [[thread_position_in_grid]]) {
    float x = in[i];
    out[i] = by_size<Narrow>(x) + by_size<Broad>(x) + by_width<8>(x) + by_width<2>(x);
}

// Explicit instantiations, in every spelling public code uses.
// MLX utils.h's macro: `template [[host_name(n)]] [[kernel]] decltype(f<...>) f<...>;`
#define instantiate_kernel(name, func, ...) \
    template [[host_name(name)]] [[kernel]] decltype(func<__VA_ARGS__>) func<__VA_ARGS__>;

template <typename T, int N>
[[kernel]] void scale_by(device T* out [[buffer(0)]], device const T* in [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * T(N);
}
instantiate_kernel("scale_by_float_3", scale_by, float, 3)

template <typename T, int N>
kernel void add_to(device T* out [[buffer(0)]], device const T* in [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = in[i] + T(N);
}
// With the parameters named, and without names or attributes.
template [[host_name("add_to_named")]] kernel void add_to<float, 4>(device float* out [[buffer(0)]],
                                                                    device const float* in [[buffer(1)]],
                                                                    uint i [[thread_position_in_grid]]);
template [[host_name("add_to_unnamed")]] kernel void add_to<float, 5>(device float*, device const float*, uint);

// PyTorch's REGISTER_* macros; the instantiation's attributes disagree with the definition's
// (as in PyTorch's RMSNorm), and the definition's win, as in Metal.
template <typename T>
kernel void negate(device T* out [[buffer(0)]], device const T* in [[buffer(1)]], uint id [[thread_position_in_grid]]) {
    out[id] = -in[id];
}
#define REGISTER_NEGATE(DTYPE)                                                                      \
    template [[host_name("negate_" #DTYPE)]] kernel void negate<DTYPE>(                              \
        device DTYPE * out [[buffer(1)]], device const DTYPE * in [[buffer(7)]], uint id [[thread_index_in_threadgroup]]);
REGISTER_NEGATE(float)

// A limit that depends on the template's arguments.
template <typename T, uint LIMIT>
[[kernel, max_total_threads_per_threadgroup(LIMIT)]] void limited(device T* out [[buffer(0)]],
                                                                  device const T* in [[buffer(1)]],
                                                                  uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * in[i];
}
instantiate_kernel("limited_64", limited, float, 64)

// Local arrays of device pointers: the shader-validation flavour of the whole file once
// failed to compile on them.
kernel void pointer_arrays(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                           uint i [[thread_position_in_grid]]) {
    device const float* sources[2] = {in, in};
    device float* targets[2];
    targets[0] = out;
    targets[1] = out;
    thread float values[2] = {sources[0][i], sources[1][i]};
    thread float* locals[1] = {values};
    targets[i % 2][i] = locals[0][0] * 2 + values[1];
}

// MLX complex.h: constructors and members qualified by the address space of `this`, members
// chosen by enable_if, and free operators overloaded only on a reference's address space.
struct cplx {
    float re;
    float im;
    constexpr cplx(float r, float i) : re(r), im(i) {}
    template <typename T, typename = typename enable_if<is_convertible_v<T, float>>::type>
    constexpr cplx(T x) thread : re(x), im(0) {}
    template <typename T, typename = typename enable_if<is_convertible_v<T, float>>::type>
    constexpr cplx(T x) threadgroup : re(x), im(0) {}
    template <typename T, typename = typename enable_if<is_convertible_v<T, float>>::type>
    constexpr cplx(T x) device : re(x), im(0) {}
    float get() thread const { return re; }
    float get() device const { return re; }
    template <typename T>
    enable_if_t<is_integral_v<T>, T> as() thread const { return T(re) + 1; }
    template <typename T>
    enable_if_t<!is_integral_v<T>, T> as() thread const { return T(re) * 2; }
};
constexpr thread cplx& operator+=(thread cplx& a, cplx b) {
    a.re += b.re;
    a.im += b.im;
    return a;
}
constexpr threadgroup cplx& operator+=(threadgroup cplx& a, cplx b) {
    a.re += b.re;
    a.im += b.im;
    return a;
}
constexpr device cplx& operator+=(device cplx& a, cplx b) {
    a.re += b.re;
    a.im += b.im;
    return a;
}
float first_of(thread const float* p) { return p[0]; }
float first_of(device const float* p) { return p[0]; }

kernel void address_space_overloads(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                    uint i [[thread_position_in_grid]]) {
    cplx c(in[i]);
    c += cplx(1.0f, 2.0f);
    float local = first_of(in + i);
    out[i] = c.get() + float(c.as<int>()) + c.as<float>() + c.im + first_of(&local) - local;
}

// metal-cpp samples: kernels named like metal:: functions, under `using namespace metal`
// (the generated glue once named them unqualified, which found metal::dot too).
kernel void dot(device float* out [[buffer(0)]], device const float* in [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = metal::dot(float2(in[i], 1.0f), float2(2.0f, 3.0f));
}
kernel void exp(device float* out [[buffer(0)]], device const float* in [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = in[i] * 4;
}
kernel void max(device float* out [[buffer(0)]], device const float* in [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = metal::max(in[i], 0.0f);
}
kernel void clamp(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    out[i] = metal::clamp(in[i], -1.0f, 1.0f);
}
kernel void fma(device float* out [[buffer(0)]], device const float* in [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[i] = metal::fma(in[i], 2.0f, 1.0f);
}
// MLX reduction/ops.h: an explicit specialisation of a member template inside a class
// template (Clang accepts it; GCC 12 does not).
template <typename U>
struct Pick {
    template <typename T>
    T operator()(T a, T b) { return a > b ? a : b; }
    template <>
    cplx operator()(cplx a, cplx b) { return cplx(a.re + b.re, 0.0f); }
};

kernel void member_specialisation(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                  uint i [[thread_position_in_grid]]) {
    Pick<float> pick;
    out[i] = pick(in[i], 1.0f) + pick(cplx(in[i], 0.0f), cplx(10.0f, 0.0f)).re;
}

// Overloads that differ only in the address space of a pointer or reference parameter and do
// different things (public metal-cpp programs, MLX): each call runs the body for its
// argument's address space, also through a helper's threadgroup pointer parameter.
inline float total(thread const float* p, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += p[k];
    return s;
}
inline float total(threadgroup const float* p, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; ++k) s += p[k];
    return s * 1000.0f;
}
inline void bump(thread float& x) { x += 1.0f; }
inline void bump(threadgroup float& x) { x += 100.0f; }
inline float forward(threadgroup const float* p) { return total(p, 1); }
struct Gather {
    float v;
    void add(thread const float& x) { v += x; }
    void add(device const float& x) { v += 2.0f * x; }
};

kernel void address_space_dispatch(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                   uint i [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]]) {
    threadgroup float shared[64];
    float local[2] = {in[i], 1.0f};
    shared[lid] = in[i];
    bump(local[0]);
    bump(shared[lid]);
    float a = total(local, 2);
    float b = total(&shared[lid], 1);
    float c = forward(shared + lid);
    Gather g{0.0f};
    g.add(local[1]);
    g.add(in[i]);
    out[i] = a + b * 0.001f + c * 0.002f + g.v;
}

// metal-flash-attention's GEMM: threadgroup pointers kept in `auto` variables (from a cast,
// another `auto`, a call returning one), and overloads that differ in address space and in
// another parameter's type (`apply_offset`, `load`: uint for device, ushort for threadgroup),
// called through `.` and `->`. A wrong choice adds 100 instead of 200, or 1000 instead of 2000.
template <typename T>
struct mfa_storage {
    T v;
    template <typename U>
    static device U* apply_offset(device U* src, uint elements_per_row, uint2 origin) {
        return src + origin.y * elements_per_row + origin.x;
    }
    template <typename U>
    static threadgroup U* apply_offset(threadgroup U* src, ushort elements_per_row, ushort2 origin) {
        return src + origin.y * elements_per_row + origin.x;
    }
    template <typename U>
    void load(const device U* src, uint elements_per_row, ushort2 origin) {
        v = T(src[origin.y * elements_per_row + origin.x]) + T(100);
    }
    template <typename U>
    void load(const threadgroup U* src, ushort elements_per_row, ushort2 origin) {
        v = T(src[origin.y * elements_per_row + origin.x]) + T(200);
    }
};
inline float mfa_pick(const device float* p) { return p[0] + 1000.0f; }
inline float mfa_pick(const threadgroup float* p) { return p[0] + 2000.0f; }

kernel void mfa_auto_pointers(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                              uint i [[thread_position_in_grid]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup uchar block[64 * sizeof(float)];
    auto tile = (threadgroup float*)(block);
    auto tile_src = tile;
    tile_src = mfa_storage<float>::apply_offset(tile_src, 8, ushort2(0, 0));
    tile[lid] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    mfa_storage<float> s, d;
    thread mfa_storage<float>* sp = &s;
    sp->load(tile_src, 0, ushort2(lid, 0));
    auto src = mfa_storage<float>::apply_offset(in, 1, uint2(i, 0));
    d.load(src, 0, ushort2(0, 0));
    out[i] = s.v + 2.0f * d.v + 0.5f * mfa_pick(tile_src + lid) + 0.25f * mfa_pick(src);
}

// A member function that calls a SIMD-group function, called through a thread pointer and on
// an array element (metal-flash-attention's `C->multiply(*A, *B)`): under shader validation
// the access of the object and the call's site used to close each other's parentheses.
struct lane_value {
    float v;
    void take(float x, ushort lane) { v = simd_shuffle(x, lane) + 1.0f; }
};
kernel void collective_member_calls(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                    uint i [[thread_position_in_grid]], ushort lane [[thread_index_in_simdgroup]]) {
    lane_value s[2];
    thread lane_value* p = s + 1;
    p->take(in[i], lane);
    s[0].take(in[i] * 2.0f, lane);
    out[i] = s[0].v + p->v;
}

// Class-scope explicit specialisations called with their template arguments written and
// deduced, from outside the class and from an inline member, in a class and a class template.
struct Scale {
    template <typename T>
    T apply(T x) const { return x * T(2); }
    template <>
    float apply<float>(float x) const { return x + 100.0f; }
    float both(float x) const { return apply<float>(x) + apply(x); }
};
template <typename U>
struct Offset {
    template <typename T, int N = 1>
    T shift(T x) const { return x + T(N); }
    template <>
    float shift<float, 3>(float x) const { return x - 1000.0f; }
    template <typename T>
    T combine(thread const T& a, T b) const { return a + b; }
    template <>
    float combine(thread const float& a, float b) const { return a * b; }
};

kernel void explicit_specialisation_calls(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                          uint i [[thread_position_in_grid]]) {
    Scale s;
    Offset<int> o;
    float x = in[i];
    float sum = s.apply<float>(x) + s.apply(x);
    sum += float(s.apply<int>(int(x))) + s.both(x);
    sum += o.shift<float, 3>(x) + o.shift<float>(x) + o.shift(x);
    sum += o.template combine<float>(x, 2.0f) + o.combine(x, 3.0f) + float(o.combine(int(x), 1));
    out[i] = sum;
}

// MLX steel/utils/type_traits.h: partial specialisations that differ only in the address
// space of a pointer.
template <typename T>
struct pointer_element {};
template <typename T>
struct pointer_element<thread T*> {
    using type = remove_cv_t<T>;
};
template <typename T>
struct pointer_element<device T*> {
    using type = remove_cv_t<T>;
};
template <typename T>
struct pointer_element<constant T*> {
    using type = remove_cv_t<T>;
};
template <typename T>
struct pointer_element<threadgroup T*> {
    using type = remove_cv_t<T>;
};
template <typename T>
using pointer_element_t = typename pointer_element<remove_cv_t<T>>::type;

kernel void pointer_elements(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    pointer_element_t<decltype(in)> value = in[i];
    float local = value;
    pointer_element_t<thread float*> twice = local * 2;
    out[i] = twice;
}

// GNU range designators, array parameters, `const constant auto*`.
constant float steps[8] = {[0 ... 3] = 1.0f, [4 ... 7] = 2.0f};
kernel void array_parameters(device float out[] [[buffer(0)]], const constant float in[] [[buffer(1)]],
                             uint i [[thread_position_in_grid]]) {
    int local[4] = {[0 ... 3] = 5};
    const constant auto* p = in;
    const constant auto& r = in[i];
    out[i] = p[i] + r + steps[i % 8] + float(local[i % 4]);
}

namespace shapes {
kernel void length(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                   uint i [[thread_position_in_grid]]) {
    out[i] = metal::length(float2(in[i], 0.0f));
}
}
// MLX sort.h: a static `sort` calls another class's static `sort` through a member alias, from
// a kernel that calls it through an alias of its own; the barriers are in the outer one only.
template <typename T, short N>
struct RowSort {
    static void sort(thread T (&v)[N]) {
        for (short a = 0; a < N; ++a)
            for (short b = 0; b + 1 < N; ++b)
                if (v[b + 1] < v[b]) { T w = v[b]; v[b] = v[b + 1]; v[b + 1] = w; }
    }
};
template <typename T, short N>
struct GroupSort {
    using row_sort_t = RowSort<T, N>;
    static void sort(threadgroup T* shared, uint l) {
        thread T mine[N];
        for (short k = 0; k < N; ++k) mine[k] = shared[l * N + k];
        row_sort_t::sort(mine);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (short k = 0; k < N; ++k) shared[l * N + k] = mine[k];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
};
kernel void nested_static_sorts(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                uint i [[thread_position_in_grid]], uint l [[thread_position_in_threadgroup]]) {
    using sort_t = GroupSort<float, 2>;
    threadgroup float shared[2 * 64];
    shared[2 * l] = in[i];
    shared[2 * l + 1] = -in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    sort_t::sort(shared, l);
    out[i] = shared[2 * l];
}

// MLX steel GEMM: `return mma_op.store_result(...);` (a void call) in a kernel with barriers.
struct ScaledStore {
    float scale;
    void store_result(device float* out, uint i, float v) const { out[i] = v * scale; }
};
void store_negated(device float* out, uint i, float v) { out[i] = -v; }
kernel void return_void_calls(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                              uint i [[thread_position_in_grid]], uint l [[thread_position_in_threadgroup]]) {
    threadgroup float shared[64];
    shared[l] = in[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (shared[l] < 0.0f) return store_negated(out, i, shared[l]);
    ScaledStore store{2.0f};
    return store.store_result(out, i, shared[l]);
}
)";

/// A kernel and what it computes from one input element (and, for some, its index).
struct Shape {
    const char* kernel;
    std::function<float(float)> reference;
    std::function<float(float, unsigned)> indexedReference = nullptr;
};

const std::vector<Shape>& shapes() {
    static const std::vector<Shape> all = {
        {"comparison_in_template_arguments", [](float x) { return (x + 1) + float(long(x) + 2) * 10; }},
        {"comparison_after_constants", [](float x) { return (x + 1) + x * 10 + (x + 8) + (x - 2); }},
        {"scale_by_float_3", [](float x) { return x * 3; }},
        {"add_to_named", [](float x) { return x + 4; }},
        {"add_to_unnamed", [](float x) { return x + 5; }},
        {"negate_float", [](float x) { return -x; }},
        {"limited_64", [](float x) { return x * x; }},
        {"pointer_arrays", [](float x) { return x * 3; }},
        {"address_space_overloads",
         [](float x) {
             float y = x + 1;
             return y + float(int(y) + 1) + y * 2 + 2;
         }},
        {"dot", [](float x) { return x * 2 + 3; }},
        {"exp", [](float x) { return x * 4; }},
        {"max", [](float x) { return std::max(x, 0.0f); }},
        {"clamp", [](float x) { return std::clamp(x, -1.0f, 1.0f); }},
        {"fma", [](float x) { return x * 2 + 1; }},
        {"length", [](float x) { return std::fabs(x); }},
        {"member_specialisation", [](float x) { return std::max(x, 1.0f) + x + 10; }},
        {"pointer_elements", [](float x) { return x * 2; }},
        {"address_space_dispatch",
         [](float x) {
             const float local0 = x + 1.0f, shared = x + 100.0f;
             const float a = local0 + 1.0f, b = shared * 1000.0f, c = shared * 1000.0f;
             return a + b * 0.001f + c * 0.002f + (1.0f + 2.0f * x);
         }},
        {"mfa_auto_pointers", [](float x) { return (x + 200) + 2 * (x + 100) + 0.5f * (x + 2000) + 0.25f * (x + 1000); }},
        {"collective_member_calls", [](float x) { return (x * 2 + 1) + (x + 1); }},
        {"explicit_specialisation_calls",
         [](float x) {
             float sum = (x + 100) + (x + 100);
             sum += float(int(x) * 2) + ((x + 100) + (x + 100));
             sum += (x - 1000) + (x + 1) + (x + 1);
             sum += x * 2 + x * 3 + float(int(x) + 1);
             return sum;
         }},

        {"nested_static_sorts", [](float x) { return -std::fabs(x); }},
        {"return_void_calls", [](float x) { return x < 0 ? -x : 2 * x; }},
        {"array_parameters", nullptr, [](float x, unsigned i) { return x * 2 + (i % 8 < 4 ? 1 : 2) + 5; }},
    };
    return all;
}

/// (threads per group, shader validation on)
using ShapeCase = std::tuple<unsigned, bool>;

class RealCodeShapes : public MetalTest, public ::testing::WithParamInterface<ShapeCase> {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    /// The pipeline (+1) for `name`, with shader validation as the parameter says.
    MTL::ComputePipelineState* kernel(const char* name) { return pipeline(library_, name, std::get<1>(GetParam())); }

    static MTL::Library* library_;
};
MTL::Library* RealCodeShapes::library_ = nullptr;

// Test every kernel against its reference over a grid that no group size divides evenly.
TEST_P(RealCodeShapes, MatchReference) {
    constexpr unsigned kCount = 101;
    for (const Shape& shape : shapes()) {
        SCOPED_TRACE(shape.kernel);
        MTL::ComputePipelineState* state = kernel(shape.kernel);
        if (!state) continue;
        GuardedBuffer out(device_, kCount * 4), in(device_, kCount * 4);
        for (unsigned i = 0; i < kCount; ++i) in.data<float>()[i] = float(int(i % 17) - 5) * 0.5f;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        out.bind(encoder, 0);
        in.bind(encoder, 1);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(std::get<0>(GetParam()), 1, 1));
        encoder->endEncoding();
        ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << text(commandBuffer->error() ? commandBuffer->error()->localizedDescription() : nullptr);
        for (unsigned i = 0; i < kCount; ++i)
            EXPECT_FLOAT_EQ(out.data<float>()[i], shape.reference ? shape.reference(in.data<float>()[i])
                                                                  : shape.indexedReference(in.data<float>()[i], i))
                << "thread " << i;
        out.expectCanariesIntact();
        state->release();
    }
}

// Test that a template kernel's [[max_total_threads_per_threadgroup(LIMIT)]] is the
// pipeline's limit, and that a dispatch over it fails as in Metal.
TEST_P(RealCodeShapes, MaxTotalThreadsOfAnInstantiation) {
    MTL::ComputePipelineState* state = kernel("limited_64");
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 64u);
    GuardedBuffer out(device_, 128 * 4), in(device_, 128 * 4);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    out.bind(encoder, 0);
    in.bind(encoder, 1);
    encoder->dispatchThreads(MTL::Size(128, 1, 1), MTL::Size(128, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    for (unsigned i = 0; i < 128; ++i) EXPECT_EQ(out.data<std::uint32_t>()[i], kCanary) << "thread " << i << " ran";
    state->release();
}

// Test that the barrier kernels above run as work-item loops: MLX's sort helpers were taken
// for a recursion (fibers, half the speed), steel's `return void-call;` for an error.
TEST_P(RealCodeShapes, BarrierShapesRunAsWorkItemLoops) {
    expectLowerings({{"nested_static_sorts", MC_KERNEL_WORK_ITEM_LOOPS}, {"return_void_calls", MC_KERNEL_WORK_ITEM_LOOPS}},
                    [&](const char* name) { return kernel(name); });
}

INSTANTIATE_TEST_SUITE_P(GroupSizes, RealCodeShapes,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u, 64u), ::testing::Bool()));

} // namespace
} // namespace metalcpu::testing
