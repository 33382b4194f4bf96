// metal::tensor (<metal_tensor>): a non-owning view of a multi-dimensional array in device or
// threadgroup memory, made in the kernel over a pointer (tensor_inline) or bound by the host
// (tensor_handle, a kernel parameter), and the slices of either.
//
// Every tensor keeps its element pointer with the origin applied, its extents as clipped to
// its parent and its strides (in elements, dim 0 innermost). A slice whose origin or static
// extents reach past its parent is clipped: Apple skips bounds checks for static extents,
// but on a CPU the clipped view keeps every access inside memory the tensor may touch.
#pragma once

#include <metal_array>
#include <metalcpu/kernel_abi.h>
#include <metalcpu/stdlib/bfloat.h>
#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/tensor/extents.h>
#ifdef METALCPU_VALIDATION
#include <metalcpu/kernel_support.h>
#include <metalcpu/checked.h>
#endif

namespace metal {

/// How a tensor was made: bound by the host, a slice of such a tensor, or built in the kernel.
struct tensor_handle {};
struct tensor_offset {};
struct tensor_inline {};

template <class ElementType, class Extents, class Descriptor = tensor_handle, class... Tags>
struct tensor;

} // namespace metal

namespace metalcpu_stdlib::tensor {

template <class T> struct remove_const { using type = T; };
template <class T> struct remove_const<const T> { using type = T; };

/// What a pointer argument of a tensor constructor points to, and its address and (in the
/// shader-validation flavour) checked-pointer bits.
template <class P> struct pointer_element;
template <class T> struct pointer_element<T*> {
    using type = T;
    static T* address(T* p) { return p; }
    static mc_u64 checked(T*) { return 0; }
};
#ifdef METALCPU_VALIDATION
template <class T, int Space> struct pointer_element<metalcpu_kernel::checked_ptr<T, Space>> {
    using type = T;
    static T* address(metalcpu_kernel::checked_ptr<T, Space> p) { return p.address(); }
    static mc_u64 checked(metalcpu_kernel::checked_ptr<T, Space> p) { return p.bits; }
};
/// A named threadgroup array is the checked pointer to its first element.
template <class A, int Space>
struct pointer_element<metalcpu_kernel::checked_array<A, Space>>
    : pointer_element<metalcpu_kernel::checked_ptr<typename metalcpu_kernel::array_traits<A>::element, Space>> {};
#endif
template <class P>
using pointer_element_t = typename pointer_element<P>::type;

/// A slice of a host-bound tensor is a tensor_offset; a slice of an inline one stays inline.
template <class Descriptor> struct slice_descriptor { using type = metal::tensor_offset; };
template <> struct slice_descriptor<metal::tensor_inline> { using type = metal::tensor_inline; };

/// MTL::TensorDataType of an element type (0: none), for reflection and the executor.
template <class T> struct data_type { static constexpr mc_u32 value = 0; };
template <class T> struct data_type<const T> : data_type<T> {};
template <> struct data_type<float> { static constexpr mc_u32 value = 3; };
template <> struct data_type<half> { static constexpr mc_u32 value = 16; };
template <> struct data_type<bfloat> { static constexpr mc_u32 value = 121; };
template <> struct data_type<signed char> { static constexpr mc_u32 value = 45; };
/// MSL's char (`tensor<device char, ...>`) is a type of its own in C++: Int8 where the
/// compiler's char is signed, as Metal's is, else UInt8 (the values the kernel computes with).
template <> struct data_type<char> { static constexpr mc_u32 value = char(-1) < 0 ? 45 : 49; };
template <> struct data_type<unsigned char> { static constexpr mc_u32 value = 49; };
template <> struct data_type<short> { static constexpr mc_u32 value = 37; };
template <> struct data_type<unsigned short> { static constexpr mc_u32 value = 41; };
template <> struct data_type<int> { static constexpr mc_u32 value = 29; };
template <> struct data_type<unsigned int> { static constexpr mc_u32 value = 33; };

/// The constructor tensor_argument uses (a host-bound tensor).
struct from_binding {};

template <class I>
constexpr I clip(I available, I wanted) {
    return wanted < available ? wanted : available;
}

} // namespace metalcpu_stdlib::tensor

namespace metal {

template <class ElementType, class Extents, class Descriptor, class... Tags>
struct tensor {
    static_assert(metalcpu_stdlib::tensor::is_extents<Extents>::value,
                  "metal::tensor: the second template argument must be metal::extents or metal::dextents");
    using element_type = ElementType;
    using value_type = typename metalcpu_stdlib::tensor::remove_const<ElementType>::type;
    using extents_type = Extents;
    using index_type = typename Extents::index_type;
    using size_type = size_t;
    using rank_type = size_t;
    using descriptor_type = Descriptor;
    using data_handle_type = ElementType*;
    static constexpr rank_type kRank = Extents::rank();

    constexpr tensor() = default;

    /// tensor_inline over `data` with packed strides (dim 0 contiguous).
    template <class P>
    METALCPU_INLINE tensor(P data, const Extents& extents) : tensor(data, extents, packed_strides(extents)) {}

    /// tensor_inline over `data` with strides in elements, innermost first ({1, ld}).
    template <class P, class J>
    METALCPU_INLINE tensor(P data, const Extents& extents, const array<J, Extents::rank()>& strides) {
        static_assert(__is_same(Descriptor, tensor_inline),
                      "metal::tensor: only a tensor_inline is made over a pointer (a tensor_handle is a kernel parameter)");
        using pointer = metalcpu_stdlib::tensor::pointer_element<P>;
        using element = typename pointer::type;
        static_assert(__is_same(typename metalcpu_stdlib::tensor::remove_const<element>::type, value_type),
                      "metal::tensor: the pointer's element type must be the tensor's");
        data_ = const_cast<ElementType*>(pointer::address(data));
        checked_ = pointer::checked(data);
        for (rank_type r = 0; r < kRank; ++r) {
            bounds_[r] = extents.extent(r);
            strides_[r] = static_cast<index_type>(strides[r]);
        }
    }

    /// A host-bound tensor (metalcpu_kernel::tensor_argument).
    tensor(metalcpu_stdlib::tensor::from_binding, const mc_tensor& bound) {
        data_ = static_cast<ElementType*>(bound.data);
        checked_ = bound.checked;
        for (rank_type r = 0; r < kRank; ++r) {
            const bool present = r < bound.rank;
            const index_type actual = present ? static_cast<index_type>(bound.extents[r]) : index_type(1);
            const size_t fixed = Extents::static_extent(r);
            bounds_[r] = fixed == dynamic_extent ? actual
                                                 : metalcpu_stdlib::tensor::clip(actual, static_cast<index_type>(fixed));
            strides_[r] = present ? static_cast<index_type>(bound.strides[r]) : index_type(0);
        }
    }

    /// The element at the origin (in the shader-validation flavour: its unchecked address).
    METALCPU_INLINE ElementType* data() const { return data_; }
    static constexpr rank_type get_rank() { return kRank; }
    METALCPU_INLINE index_type get_extent(rank_type r) const { return bounds_[r]; }
    METALCPU_INLINE index_type get_stride(rank_type r) const { return strides_[r]; }
    METALCPU_INLINE Extents extents() const {
        Extents e;
        for (rank_type r = 0; r < kRank; ++r)
            if (Extents::static_extent(r) == dynamic_extent) e.values_[r] = bounds_[r];
        return e;
    }

    /// The same elements from `origin` on (x first; missing coordinates are 0); extents
    /// shrink by the origin, never below 0.
    template <class... Origin>
        requires(sizeof...(Origin) <= kRank)
    METALCPU_INLINE auto slice(Origin... origin) const {
        using result = tensor<ElementType, dextents<index_type, kRank>,
                              typename metalcpu_stdlib::tensor::slice_descriptor<Descriptor>::type, Tags...>;
        result r;
        sliced(r, nullptr, origin...);
        return r;
    }

    /// The same with extents E (dynamic_extent: as the dynamic slice), clipped to the parent.
    template <size_t... E, class... Origin>
        requires(sizeof...(E) == kRank && sizeof...(Origin) <= kRank)
    METALCPU_INLINE auto slice(Origin... origin) const {
        using result = tensor<ElementType, metal::extents<index_type, E...>,
                              typename metalcpu_stdlib::tensor::slice_descriptor<Descriptor>::type, Tags...>;
        constexpr size_t wanted[] = {E...};
        result r;
        sliced(r, wanted, origin...);
        return r;
    }

    // The representation, public so that slices of other tensor types and the operations read
    // it without friendship; user code uses the accessors.
    ElementType* data_ = nullptr;
    mc_u64 checked_ = 0;
    index_type bounds_[kRank] = {};
    index_type strides_[kRank] = {};

private:
    static array<index_type, kRank> packed_strides(const Extents& extents) {
        array<index_type, kRank> strides;
        index_type stride = 1;
        for (rank_type r = 0; r < kRank; ++r) {
            strides[r] = stride;
            stride *= extents.extent(r);
        }
        return strides;
    }

    template <class Result, class... Origin>
    METALCPU_INLINE void sliced(Result& r, const size_t* wanted, Origin... origin) const {
        const index_type at[kRank] = {static_cast<index_type>(origin)...};
        long long offset = 0;
        for (rank_type d = 0; d < kRank; ++d) {
            const index_type o = d < sizeof...(Origin) ? at[d] : index_type(0);
            const index_type left = o < bounds_[d] ? index_type(bounds_[d] - o) : index_type(0);
            const bool fixed = wanted != nullptr && wanted[d] != dynamic_extent;
            r.bounds_[d] = fixed ? metalcpu_stdlib::tensor::clip(left, static_cast<index_type>(wanted[d])) : left;
            r.strides_[d] = strides_[d];
            offset += static_cast<long long>(o) * static_cast<long long>(strides_[d]);
        }
        r.data_ = data_ + offset;
        r.checked_ = checked_ == 0 ? 0 : checked_ + static_cast<mc_u64>(offset) * sizeof(ElementType);
    }
};

// Made over a pointer (raw, or checked in the shader-validation flavour): a tensor_inline.
template <class P, class I, size_t... E>
tensor(P, extents<I, E...>) -> tensor<metalcpu_stdlib::tensor::pointer_element_t<P>, extents<I, E...>, tensor_inline>;
template <class P, class I, size_t... E, class J, size_t R>
tensor(P, extents<I, E...>, array<J, R>)
    -> tensor<metalcpu_stdlib::tensor::pointer_element_t<P>, extents<I, E...>, tensor_inline>;

template <class T> struct is_tensor_handle { static constexpr bool value = false; };
template <class E, class X, class... Tags> struct is_tensor_handle<tensor<E, X, tensor_handle, Tags...>> {
    static constexpr bool value = true;
};
template <class T> struct is_tensor_inline { static constexpr bool value = false; };
template <class E, class X, class... Tags> struct is_tensor_inline<tensor<E, X, tensor_inline, Tags...>> {
    static constexpr bool value = true;
};
template <class T> struct has_tensor_offset { static constexpr bool value = false; };
template <class E, class X, class... Tags> struct has_tensor_offset<tensor<E, X, tensor_offset, Tags...>> {
    static constexpr bool value = true;
};
template <class T> inline constexpr bool is_tensor_handle_v = is_tensor_handle<T>::value;
template <class T> inline constexpr bool is_tensor_inline_v = is_tensor_inline<T>::value;
template <class T> inline constexpr bool has_tensor_offset_v = has_tensor_offset<T>::value;

} // namespace metal

namespace metalcpu_stdlib::tensor {

template <class T> struct is_tensor { static constexpr bool value = false; };
template <class E, class X, class D, class... Tags> struct is_tensor<metal::tensor<E, X, D, Tags...>> {
    static constexpr bool value = true;
};
template <class T> struct is_tensor<const T> : is_tensor<T> {};
template <class T> struct is_tensor<T&> : is_tensor<T> {};

} // namespace metalcpu_stdlib::tensor

namespace metalcpu_kernel {

/// The argument for a tensor_handle parameter: buffers[index] points to the mc_tensor the
/// runtime made of the bound MTL::Tensor.
template <class P>
__attribute__((always_inline)) inline P tensor_argument(const mc_group* group, mc_u32 index) {
    return P(metalcpu_stdlib::tensor::from_binding{}, *static_cast<const mc_tensor*>(group->dispatch->buffers[index]));
}

template <class T> struct data_type_of; // metalcpu/data_types.h, included after this file

/// What reflection says of a tensor parameter of type P: its rank, MTL::TensorDataType and the
/// MTL::DataType of its extents' index type (MTL::TensorBinding::indexType).
template <class P> struct tensor_parameter;
template <class E, class X, class D, class... Tags>
struct tensor_parameter<metal::tensor<E, X, D, Tags...>> {
    static constexpr mc_u32 rank = X::rank();
    static constexpr mc_u32 data_type = metalcpu_stdlib::tensor::data_type<E>::value;
    static constexpr mc_u32 index_type = data_type_of<typename X::index_type>::value;
};

} // namespace metalcpu_kernel
