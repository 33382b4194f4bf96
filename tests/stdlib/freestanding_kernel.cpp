// Compiled by the stdlib.freestanding.kernel test with -nostdinc and the kernel compile options,
// the way the front end's output is: a kernel-like function that touches every header, so that
// a host-header dependency or a construct that only compiles hosted fails the test.
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
#include <metalcpu/lane_vectors.h>

using namespace metal;

struct Params {
    uint n;
    float scale;
    float4x4 transform;
};

void kernel_body(const float4* in, float4* out, const half4* h, const Params& p, atomic_uint* counter,
                 uint3 gid, ushort3 tid) {
    const uint i = gid.x;
    if (i >= p.n) return;
    float4 v = in[i] * p.scale + 1;
    v.xy = v.yx;
    v.rgb *= 0.5f;
    float4 w = p.transform * v + float4(float3(tid), 0);
    half4 hv = h[i] * half(2.0f) + half4(1);
    int4 n = int4(w) + 3;
    uint3 u = gid * 2u;
    float3 f3 = normalize(cross(v.xyz, w.xyz));
    w += float4(clamp(float4(hv), 0.0f, 1.0f)) + float4(n) + float4(float3(u), 1) + float4(f3, length(v));
    w = select(w, sqrt(abs(w)), w > 0.0f) + fast::exp(v) + precise::sin(v) + mix(v, w, 0.25f);
    w.x += dot(float(w.y), 2.0f) + as_type<float>(popcount(as_type<uint>(w.z)));
    w.y = numeric_limits<float>::max() > FLT_MAX ? INFINITY : M_PI_F;
    if (any(isnan(w)) || all(w == 0.0f)) w = float4(0);
    packed_float3 packed = w.xyz;
    out[i] = float4(packed, float(clz(u.x)) + float(extract_bits(n.x, 1u, 3u)));
    threadgroup_barrier(mem_flags::mem_threadgroup);
    atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    simdgroup_barrier(mem_flags::mem_none);
    simdgroup_float8x8 acc = make_filled_simdgroup_matrix<float, 8>(0.0f), b(1.0f);
    simdgroup_half8x8 a;
    simdgroup_load(a, reinterpret_cast<const half*>(h), 4, ulong2(0, 1), true);
    simdgroup_multiply_accumulate(acc, a, b, acc);
    simdgroup_store(acc, reinterpret_cast<float*>(out), 8);
    static_assert(is_same_v<make_scalar_t<float4>, float> && vec_elements<uint3>::value == 3);
    (void)transpose(p.transform);
    (void)integer_sequence<int, 1, 2>::size();
}

// Calls every function of <metal_math>, <metal_common>, <metal_geometric> and <metal_integer>
// once, so that the link tests see any symbol one of them would import.
float every_function(float x, half h, float4 v, float3 w, int i, uint u, long l, atomic_float* af) {
    float r = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(x, x) + sinh(x) + cosh(x) +
              tanh(x) + asinh(x) + acosh(x) + atanh(x) + sinpi(x) + cospi(x) + tanpi(x);
    r += exp(x) + exp2(x) + exp10(x) + log(x) + log2(x) + log10(x) + pow(x, x) + powr(x, x) + sqrt(x) + rsqrt(x);
    r += floor(x) + ceil(x) + round(x) + rint(x) + trunc(x) + fract(x) + fmod(x, 2.0f) + fma(x, x, x) +
         ldexp(x, 3) + float(ilogb(x)) + nextafter(x, 1.0f) + copysign(x, -1.0f) + fdim(x, 1.0f) + divide(x, 3.0f);
    int e = 0;
    float whole = 0.0f, c = 0.0f;
    r += frexp(x, e) + modf(x, whole) + sincos(x, c) + float(e) + whole + c;
    r += fmax(x, 1.0f) + fmin(x, 1.0f) + fmax3(x, 1.0f, 2.0f) + fmedian3(x, 0.0f, 1.0f) + precise::fmax(x, 2.0f) +
         fast::fmin(x, 2.0f) + clamp(x, 0.0f, 1.0f) + mix(x, 1.0f, 0.5f) + smoothstep(0.0f, 1.0f, x) + sign(x) +
         saturate(x) + step(0.5f, x) + abs(x) + fabs(x);
    r += float(sin(h) * h + exp(h) + pow(h, h) + fract(h)) + float(exp(half4(h)).x) + float(length(half3(h)));
    r += length(v) + distance(w, w) + dot(v, v) + normalize(v).x + cross(w, w).x + reflect(w, w).y +
         refract(w, w, 0.5f).z + faceforward(w, w, w).x + length_squared(w) + distance_squared(v, v);
    r += float(clz(u) + ctz(u) + popcount(u) + reverse_bits(u) + rotate(u, 3u) + absdiff(i, 3) + hadd(u, u) +
               rhadd(i, i) + mulhi(l, l) + madhi(u, u, u) + madsat(i, i, i) + mul24(i, i) + mad24(i, i, i) +
               addsat(l, l) + subsat(u, u) + extract_bits(u, 2u, 3u) + insert_bits(u, 1u, 2u, 3u) +
               max3(i, 1, 2) + min3(u, 1u, 2u) + median3(l, 0l, 1l) + abs(i) + max(i, 0) + min(u, 4u));
    r += determinant(float4x4(x)) + determinant(float3x3(x)) + (float4x4(x) * v).x + transpose(float2x3(x))[0][1];
    r += atomic_fetch_add_explicit(af, 1.0f, memory_order_relaxed);
    r += atomic_fetch_max_explicit(af, x, memory_order_relaxed);
    return r + as_type<float>(u) + (isnan(x) ? 1.0f : 0.0f) + (isinf(v).x ? 1.0f : 0.0f) + (signbit(x) ? 1.0f : 0.0f) +
           (isfinite(x) && isnormal(x) && isordered(x, x) && !isunordered(x, x) ? 1.0f : 0.0f);
}

// A row of eight threads as vector lanes (<metalcpu/lane_vectors.h>): loads, stores and
// gathers through linear and varying pointers, matrix products, comparisons and conversions.
void lane_vectors_row(const float* a, float* out, const float4* rows, const float4x4& m, uint first) {
    using namespace metalcpu_kernel;
    const linear<uint, 8> gid = linear<uint, 8>::lane_index(first);
    const varying<float, 8> x = (a + gid).load();
    const varying<float4, 8> v = (rows + gid).load() * x + float4(1.0f);
    varying<float4x4, 8> product = varying<float4x4, 8>(m) * m;
    product = product * varying<float4x4, 8>(m[0] * x.lane(0), v, v, m[3]);
    product += varying<float4x4, 8>(m * 2.0f);
    const varying<uint, 8> index = varying<uint, 8>(gid) * 7u % 8u;
    const varying<float, 8> gathered = (a + index).load();
    const varying<float, 8> chosen = select(x > gathered, x, gathered) + v.component(2) + product[1].component(3);
    (out + gid).store(chosen + index.convert<float>());
    if (any(chosen > 0.0f) && !all(chosen > 0.0f)) (out + index).store(chosen);
}

// Metal 4 tensors and tensor operations, on fibers and in a coroutine kernel: the arithmetic
// is the runtime's (services), so nothing here may import a symbol either.
float tensor_operations(half* a, half* b, float* d) {
    auto A = tensor(a, dextents<int, 2>(64, 64));
    auto B = tensor(b, dextents<int, 2>(64, 64), array<int, 2>({1, 64}));
    auto D = tensor(d, dextents<int, 2>(64, 64));
    constexpr auto desc = mpp::tensor_ops::matmul2d_descriptor(32, 32, mpp::tensor_ops::dynamic_length_v<int>);
    mpp::tensor_ops::matmul2d<desc, execution_simdgroups<4>> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(A), decltype(B), float>();
    op.run(A.slice<dynamic_extent, 32>(0, 32), B.slice(32, 0), ct);
    auto row = op.get_row_reduction_destination_cooperative_tensor<decltype(A), decltype(B), float>();
    mpp::tensor_ops::reduce_rows(ct, row, mpp::tensor_ops::reduction_operation::max, -FLT_MAX);
    auto halves = op.get_destination_cooperative_tensor<decltype(A), decltype(B), half>();
    auto half_columns = op.get_column_reduction_destination_cooperative_tensor<decltype(A), decltype(B), half>();
    mpp::tensor_ops::reduce_columns(halves, half_columns, mpp::tensor_ops::reduction_operation::min, 0.0f);
    ct.store(D.slice<32, 32>(16, 16));
    float sum = 0;
    for (auto it = ct.begin(); it != ct.end(); ++it) sum += *it + float(it.get_multidimensional_index()[0]);
    return sum + *row.map_iterator(ct.begin());
}

metalcpu_kernel::barrier_task tensor_coroutine(half* a, float* d) {
    auto A = tensor(a, dextents<int, 2>(16, 16));
    auto D = tensor(d, dextents<int, 2>(16, 16));
    mpp::tensor_ops::matmul2d<mpp::tensor_ops::matmul2d_descriptor(16, 16), execution_simdgroup> op;
    auto ct = op.get_destination_cooperative_tensor<decltype(A), decltype(A), float>();
    co_await ::metalcpu_kernel::scope_run(op, A, A, ct);
    auto row = op.get_row_reduction_destination_cooperative_tensor<decltype(A), decltype(A), float>();
    co_await ::metalcpu_kernel::scope_reduce_rows(ct, row);
    ct.store(D);
}
