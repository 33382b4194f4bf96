// expect: compiles
#include <metal_stdlib>
using namespace metal;

// metal-flash-attention's simdgroup_matrix_storage keeps Apple's internal storage of a
// simdgroup_matrix, a vec of 64 elements (a thread's two are the first vec<T, 2>), and
// multiplies with __metal_simdgroup_matrix_8x8_multiply_accumulate.
template <typename T> struct simdgroup_matrix_storage {
    vec<T, 64> t;
    thread vec<T, 2>* thread_elements() thread { return reinterpret_cast<thread vec<T, 2>*>(&t); }
};

kernel void k(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    simdgroup_matrix_storage<float> a, c;
    *a.thread_elements() = float2(out[2 * lid], out[2 * lid + 1]);
    c.t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, a.t, c.t, vec<float, 64>());
    out[2 * lid] = (*c.thread_elements())[0];
}
