// A stand-in for the real <metalcpu/kernel_prelude.h>, just big enough for the golden kernels:
// golden_test compiles every expected output against it (-fsyntax-only) so that the
// expectations can never drift into C++ that does not parse. It declares the generated code's
// helpers with the names and shapes the real kernel_support.h provides; it is not an
// implementation of <metal_stdlib>.
#pragma once

#include <metalcpu/kernel_abi.h>

namespace metal {

using uint = unsigned int;
using ushort = unsigned short;

struct half {
    half(float);
    operator float() const;
};

struct uint2 {
    uint x, y;
};
struct uint3 {
    uint x, y, z;
};
struct ushort2 {
    ushort x, y;
};
struct uint4 {
    uint4(uint, uint, uint, uint);
    uint x, y, z, w;
};

struct float4 {
    float x, y, z, w;
    float& operator[](int);
};

struct float4x4 {
    explicit float4x4(float);
    float4& operator[](int);
    float4x4& operator+=(const float4x4&);
};
float4x4 operator*(const float4x4&, const float4x4&);

enum class mem_flags { mem_none, mem_device, mem_threadgroup };
void threadgroup_barrier(mem_flags);
float simd_sum(float);

} // namespace metal

namespace metalcpu_kernel {

template <class F> struct function_traits;
template <class R, class... A> struct function_traits<R (*)(A...)> {
    template <unsigned I, class Head, class... Tail> struct at {
        using type = typename at<I - 1, Tail...>::type;
    };
    template <class Head, class... Tail> struct at<0, Head, Tail...> { using type = Head; };
    template <unsigned I> using parameter = typename at<I, A...>::type;
};
template <class F, unsigned I> using parameter_t = typename function_traits<F>::template parameter<I>;

template <class T> struct pointee { using type = T; };
template <class T> struct pointee<T*> { using type = T; };
template <class T> struct pointee<T&> { using type = T; };
template <class T> inline constexpr mc_u64 pointee_size = sizeof(typename pointee<T>::type);
template <class T> inline constexpr mc_u64 pointee_align = alignof(typename pointee<T>::type);

struct thread_ids {
    mc_u32 index;
};
thread_ids thread_ids_of(const mc_group* group, mc_u32 index);
template <class F> void for_each_thread(const mc_group* group, F&& body) {
    (void)group;
    body(thread_ids{0});
}

template <class T> T buffer_argument(const mc_group* group, mc_u32 index);
template <class T> T threadgroup_argument(const mc_group* group, mc_u32 index);
template <class T> T unsupported_argument(const mc_group* group, mc_u32 index);
template <class T, mc_builtin B> T builtin(const mc_group* group, const thread_ids& ids);
template <class T, mc_u64 Key> T& threadgroup_variable(const mc_group* group);

} // namespace metalcpu_kernel

#define METALCPU_REGISTER_MODULE(kernels, count, file)                                                       \
    static const mc_module metalcpu_module = {METALCPU_KERNEL_ABI_VERSION, count, kernels, file};            \
    const mc_module* metalcpu_module_of_this_file() {                                                        \
        return &metalcpu_module;                                                                             \
    }
