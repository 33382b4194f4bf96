// expect: compiles
#include <metal_stdlib>
using namespace metal;

struct Complex {
    float re, im;
    float norm() const thread { return re * re + im * im; }
    float norm() const device { return re * re + im * im; }
};

// A constructor qualified `constant` alone, for program-scope `constant` objects (MLX's
// logging.h before Metal 3.2 makes its logger so).
struct Tag {
    constexpr Tag(char text) constant : initial(text) {}
    char initial;
};
constant Tag tag('x');

// Overloads that differ only in the address space of a reference, as MLX's complex.h writes them.
inline void accumulate(thread Complex& a, Complex b) { a.re += b.re; a.im += b.im; }
inline void accumulate(device Complex& a, Complex b) { a.re += b.re; a.im += b.im; }

template <typename T> struct pointer_element {};
template <typename T> struct pointer_element<thread T*> { using type = T; };
template <typename T> struct pointer_element<device T*> { using type = T; };

// Overloads whose bodies differ, told apart at their calls.
inline float first(thread const float* p) { return p[0]; }
inline float first(threadgroup const float* p) { return -p[0]; }
inline void clear(thread float& x) { x = 0.0f; }
inline void clear(device float& x) { x = 1.0f; }

kernel void complex_sum(device Complex* data [[buffer(0)]], device float* flags [[buffer(1)]],
                        uint i [[thread_position_in_grid]], uint lid [[thread_index_in_threadgroup]]) {
    threadgroup float shared[256];
    Complex local = data[i];
    accumulate(local, Complex{1, 0});
    accumulate(data[i], local);
    typename pointer_element<device float*>::type scale = data[i].norm();
    shared[lid] = scale;
    float here = scale;
    data[i].im *= first(&here) + first(&shared[lid]);
    clear(flags[i]);
    flags[i] += float(tag.initial == 'x');
}
