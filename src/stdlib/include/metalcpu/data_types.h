// The reflection of a type as MTL::StructType, ArrayType and PointerType describe it (ABI 22):
// its MTL::DataType and the shape of a struct member (mc_argument), computed by the compiler
// that lays the struct out, so that offsets, strides and sizes are the kernel's own.
// Included at the end of kernel_support.h, whose traits it reads.
#pragma once

#include <metalcpu/function_constants.h>

namespace metalcpu_kernel {

/// The MTL::DataType of a type: a scalar, vector (packed ones too: MTLDataType has no packed
/// kind) or float/half matrix by its own; Array, Pointer, Texture, Sampler; an atomic<T> as T;
/// any other class Struct; what has none (void) 0.
template <class T> struct data_type_of {
    static constexpr mc_u32 value = !__is_class(T) && !__is_union(T) ? function_constant_type<T>::data_type
                                    : is_texture(static_cast<T*>(nullptr)) ? 58u
                                                                           : 1u;
};
template <class T> struct data_type_of<const T> : data_type_of<T> {};
template <class T> struct data_type_of<volatile T> : data_type_of<T> {};
template <class T> struct data_type_of<const volatile T> : data_type_of<T> {};
template <class T, int N> struct data_type_of<metal::vec<T, N>> {
    static constexpr mc_u32 value = function_constant_type<metal::vec<T, N>>::data_type;
};
template <class T, int N, class V>
struct data_type_of<metalcpu_stdlib::packed_vec<T, N, V>> : data_type_of<metal::vec<T, N>> {};
template <class T, int C, int R> struct data_type_of<metal::matrix<T, C, R>> {
    static constexpr mc_u32 first = __is_same(T, float) ? 7u : __is_same(T, half) ? 20u : 0u; // 2x2
    static constexpr mc_u32 value = first ? first + 3u * (C - 2) + (R - 2) : 0u;
};
template <class T> struct data_type_of<metal::atomic<T>> : data_type_of<T> {};
template <class T, unsigned long N> struct data_type_of<T[N]> { static constexpr mc_u32 value = 2; };
template <class T, unsigned long N> struct data_type_of<const T[N]> { static constexpr mc_u32 value = 2; };
template <class T, unsigned long N> struct data_type_of<volatile T[N]> { static constexpr mc_u32 value = 2; };
template <class T, unsigned long N> struct data_type_of<const volatile T[N]> { static constexpr mc_u32 value = 2; };
template <class T, unsigned long N> struct data_type_of<metal::array<T, N>> { static constexpr mc_u32 value = 2; };
template <class T>
    requires wraps_elements<T>
struct data_type_of<T> { static constexpr mc_u32 value = 2; };
template <class T> struct data_type_of<T*> { static constexpr mc_u32 value = 60; };
template <class T> struct data_type_of<T* const> { static constexpr mc_u32 value = 60; };
template <class T, int S> struct data_type_of<checked_ptr<T, S>> { static constexpr mc_u32 value = 60; };
template <> struct data_type_of<metal::sampler> { static constexpr mc_u32 value = 59; };
template <> struct data_type_of<metal::sampler_reference> { static constexpr mc_u32 value = 59; };
template <> struct data_type_of<void> { static constexpr mc_u32 value = 0; };

/// An array's outermost dimension: its length and element (void and 0 for other types).
template <class M> struct array_of {
    using element = void;
    static constexpr mc_u32 length = 0;
};
template <class M> struct array_of<const M> : array_of<M> {};
template <class M, unsigned long N> struct array_of<M[N]> {
    using element = M;
    static constexpr mc_u32 length = N;
};
template <class M, unsigned long N> struct array_of<const M[N]> {
    using element = const M;
    static constexpr mc_u32 length = N;
};
template <class M, unsigned long N> struct array_of<metal::array<M, N>> : array_of<M[N]> {};
template <class M>
    requires wraps_elements<M>
struct array_of<M> : array_of<decltype(M::elements)> {};

/// What a pointer points at (void for other types).
template <class M> struct pointer_of {
    using pointee = void;
};
template <class M> struct pointer_of<M*> {
    using pointee = M;
};
template <class M> struct pointer_of<M* const> : pointer_of<M*> {};
template <class M, int S> struct pointer_of<checked_ptr<M, S>> : pointer_of<M*> {};
template <class M, int S> struct pointer_of<const checked_ptr<M, S>> : pointer_of<M*> {};

/// mc_argument's ABI 22 fields for a member of type M: what MTL::StructMember, ArrayType and
/// PointerType answer. A pointer's (or an array of pointers') pointee is read through the
/// arrays, as ArgumentEncoder's nested encoders read it.
template <class M> struct member_shape {
    using array = array_of<M>;
    using pointee = typename pointer_of<typename element_of<M>::type>::pointee;
    static constexpr bool points = data_type_of<typename element_of<M>::type>::value == 60;
    static constexpr mc_u32 data_type = data_type_of<M>::value;
    static constexpr mc_u32 element_type = data_type_of<typename array::element>::value;
    static constexpr mc_u32 pointee_type = points ? data_type_of<pointee>::value : 0u;
    static constexpr mc_u32 length = array::length;
    static constexpr mc_u32 access =
        !points ? 0u : __is_same(pointee, typename metal::remove_cv<pointee>::type) ? mc_u32(MC_ACCESS_READ_WRITE)
                                                                                     : mc_u32(MC_ACCESS_READ_ONLY);
    static constexpr mc_u64 stride = size_of<typename array::element>::value;
    static constexpr mc_u64 pointee_size = points ? size_of<pointee>::value : 0u;
    static constexpr mc_u64 pointee_align = points ? align_of<pointee>::value : 0u;
};

/// mc_param::pointee_data_type.
template <class P> inline constexpr mc_u32 pointee_data_type = data_type_of<pointee_t<P>>::value;

} // namespace metalcpu_kernel

