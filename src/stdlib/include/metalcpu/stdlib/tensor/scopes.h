// The execution scopes of tensor operations (<metal_tensor>, Apple's __exec/units.h): the
// calling thread alone, or N SIMD-groups of the threadgroup that run the operation together.
#pragma once

#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/scalar.h>

namespace metal {

namespace metalcpu_execution {
inline constexpr size_t dynamic_size = size_t(-1);
}

template <size_t Size>
struct execution_threads {
    static_assert(Size == 1, "metal::execution_threads: only execution_threads<1> (execution_thread) exists");
    static constexpr size_t static_size = Size;
    constexpr uint size() const { return uint(Size); }
};

template <size_t Size>
struct execution_simdgroups {
    static_assert(Size != 0, "metal::execution_simdgroups<0> is not a scope");
    static constexpr size_t static_size = Size;
    constexpr uint size() const { return uint(Size); }
};

/// SIMD-groups counted at run time. Here: the whole threadgroup, whatever its size.
template <>
struct execution_simdgroups<metalcpu_execution::dynamic_size> {
    static constexpr size_t static_size = metalcpu_execution::dynamic_size;
    uint size_ = 0;
    constexpr uint size() const { return size_; }
};

using execution_thread = execution_threads<1>;
using execution_simdgroup = execution_simdgroups<1>;
using execution_dsimdgroups = execution_simdgroups<metalcpu_execution::dynamic_size>;

template <class T> struct is_execution_thread { static constexpr bool value = false; };
template <size_t N> struct is_execution_thread<execution_threads<N>> { static constexpr bool value = true; };
template <class T> struct is_execution_simdgroups { static constexpr bool value = false; };
template <size_t N> struct is_execution_simdgroups<execution_simdgroups<N>> { static constexpr bool value = true; };
template <class T> inline constexpr bool is_execution_thread_v = is_execution_thread<T>::value;
template <class T> inline constexpr bool is_execution_simdgroups_v = is_execution_simdgroups<T>::value;

} // namespace metal
