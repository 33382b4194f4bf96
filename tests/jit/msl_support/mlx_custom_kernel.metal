// expect: compiles
// The shape of the source MLX's mx.fast.metal_kernel generates around a kernel body: a
// preamble of utilities, the user's header, a template kernel whose parameters are named after
// the inputs, outputs and thread attributes the body uses, and one explicit instantiation.
#include <metal_stdlib>
using namespace metal;

// Preamble (MLX includes its own utils.h here).
typedef bfloat bfloat16_t;
typedef half float16_t;
template <typename IdxT = int64_t>
METAL_FUNC IdxT elem_to_loc(uint elem, constant const int* shape, constant const int64_t* strides, int ndim) {
    IdxT loc = 0;
    for (int i = ndim - 1; i >= 0 && elem > 0; --i) {
        loc += IdxT(elem % shape[i]) * IdxT(strides[i]);
        elem /= shape[i];
    }
    return loc;
}

// The user's header.
METAL_FUNC float softplus(float x) { return metal::log(1.0f + metal::exp(x)); }

template <typename T>
[[kernel]] void custom_kernel_myexp(const device T* inp [[buffer(0)]], const constant int* inp_shape [[buffer(1)]],
                                    const constant int64_t* inp_strides [[buffer(2)]],
                                    const constant int& inp_ndim [[buffer(3)]], device atomic<float>* total [[buffer(4)]],
                                    device T* out [[buffer(5)]],
                                    uint3 thread_position_in_grid [[thread_position_in_grid]],
                                    uint thread_index_in_simdgroup [[thread_index_in_simdgroup]]) {
    // The body, as the user wrote it.
    uint elem = thread_position_in_grid.x;
    int64_t loc = elem_to_loc(elem, inp_shape, inp_strides, inp_ndim);
    T tmp = inp[loc];
    out[elem] = T(softplus(float(tmp)));
    float partial = simd_sum(float(tmp));
    if (thread_index_in_simdgroup == 0) atomic_fetch_add_explicit(total, partial, memory_order_relaxed);
}

template [[host_name("custom_kernel_myexp_float")]] [[kernel]] decltype(custom_kernel_myexp<float>) custom_kernel_myexp<float>;
template [[host_name("custom_kernel_myexp_bfloat16")]] [[kernel]] decltype(custom_kernel_myexp<bfloat16_t>) custom_kernel_myexp<bfloat16_t>;
