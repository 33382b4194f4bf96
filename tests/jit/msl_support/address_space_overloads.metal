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

// metal-flash-attention's shapes: versions that differ in another parameter's type too, and a
// threadgroup pointer kept in `auto` variables.
template <typename T> struct storage {
    T v;
    static device T* apply_offset(device T* src, uint elements_per_row, uint2 origin) {
        return src + origin.y * elements_per_row + origin.x;
    }
    static threadgroup T* apply_offset(threadgroup T* src, ushort elements_per_row, ushort2 origin) {
        return src + origin.y * elements_per_row + origin.x;
    }
    template <typename U> void load(const device U* src, uint elements_per_row) { v = T(src[elements_per_row]); }
    template <typename U> void load(const threadgroup U* src, ushort elements_per_row) { v = -T(src[elements_per_row]); }
};

kernel void auto_pointers(device float* out [[buffer(0)]], threadgroup uchar* block [[threadgroup(0)]],
                          ushort lid [[thread_index_in_threadgroup]]) {
    auto tile = (threadgroup float*)(block);
    auto tile_src = storage<float>::apply_offset(tile, 8, ushort2(0, 0));
    tile[lid] = float(lid);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    storage<float> s;
    s.load(tile_src, lid);
    out[lid] = s.v + first(tile_src + lid);
}

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

// Overloads on aliases of address-space pointer types (the learner's repro).
typedef threadgroup float* tg_ptr;
using dev_ptr = device float*;
float pick(tg_ptr p) { return p[0] + 2000.0f; }
float pick(dev_ptr p) { return p[0] + 1000.0f; }
kernel void aliased(device float* out [[buffer(0)]], ushort lid [[thread_index_in_threadgroup]]) {
    threadgroup float tile[64];
    tile[lid] = 1.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    tg_ptr t = tile;
    out[lid] = pick(t) + pick(out);
}
