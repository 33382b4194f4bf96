// expect: compiles
#include <metal_stdlib>
using namespace metal;

struct Complex {
    float re, im;
    float norm() const thread { return re * re + im * im; }
    float norm() const device { return re * re + im * im; }
};

// Overloads that differ only in the address space of a reference, as MLX's complex.h writes them.
inline void accumulate(thread Complex& a, Complex b) { a.re += b.re; a.im += b.im; }
inline void accumulate(device Complex& a, Complex b) { a.re += b.re; a.im += b.im; }

template <typename T> struct pointer_element {};
template <typename T> struct pointer_element<thread T*> { using type = T; };
template <typename T> struct pointer_element<device T*> { using type = T; };

kernel void complex_sum(device Complex* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    Complex local = data[i];
    accumulate(local, Complex{1, 0});
    accumulate(data[i], local);
    typename pointer_element<device float*>::type scale = data[i].norm();
    data[i].im *= scale;
}
