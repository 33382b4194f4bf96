// The SIMD-group async copies (metalcpu/stdlib/async_copy.h) in the shader-validation flavour:
// the copy's pointers are checked ones, and every element a lane reads or writes is checked
// against the pointer's region as an access of the element's size, at the call's site
// (the translator passes `::__mc_sites[n]` first to these functions by name,
// compiler/passes/checked_accesses.h). A read outside the source is reported and copies
// zero; a write outside the destination is reported and dropped, as for any access.
#pragma once

#include <metalcpu/checked.h>
#include <metalcpu/stdlib/async_copy.h>

namespace metalcpu_stdlib::async_copy {

template <class T, int S>
struct access<::metalcpu_kernel::checked_ptr<T, S>> {
    template <unsigned N>
    METALCPU_INLINE static element<N> read(::metalcpu_kernel::checked_ptr<T, S> p, metal::ulong index,
                                           const mc_site* site) {
        using E = const element<N>;
        return ::metalcpu_kernel::checked_element(::metalcpu_kernel::checked_ptr<E, S>::from_bits(p.bits),
                                                  static_cast<long long>(index), MC_OP_LOAD, *site);
    }
    template <unsigned N>
    METALCPU_INLINE static void write(::metalcpu_kernel::checked_ptr<T, S> p, metal::ulong index, const element<N>& e,
                                      const mc_site* site) {
        ::metalcpu_kernel::checked_element(::metalcpu_kernel::checked_ptr<element<N>, S>::from_bits(p.bits),
                                           static_cast<long long>(index), MC_OP_STORE, *site) = e;
    }
};
/// A named threadgroup array passed as it is: its pointer.
template <class A, int S>
struct access<::metalcpu_kernel::checked_array<A, S>>
    : access<::metalcpu_kernel::checked_ptr<typename ::metalcpu_kernel::array_traits<A>::element, S>> {};

} // namespace metalcpu_stdlib::async_copy

/// The copies with their call's site, for the checks' reports.
template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* __metal_simdgroup_async_copy_1d(const ::mc_site& site, metal::ulong size,
                                                                   metal::ulong, D dst, S src, metal::ulong count,
                                                                   metalcpu_kernel::simd_site where = {}) {
    return metalcpu_stdlib::async_copy::copy_1d_call(&site, size, dst, src, count, where);
}

template <class D, class S>
METALCPU_INLINE _simdgroup_event_t* __metal_simdgroup_async_copy_2d(
    const ::mc_site& site, metal::ulong size, metal::ulong, D dst, metal::ulong dst_elements_per_row,
    metal::ulong dst_element_stride, metal::ulong2 dst_tile, S src, metal::ulong src_elements_per_row,
    metal::ulong src_element_stride, metal::ulong2 src_tile, metal::long2 offset, int clamp_mode,
    metalcpu_kernel::simd_site where = {}) {
    using namespace metalcpu_stdlib::async_copy;
    return copy_2d_call(&site, size, dst, tile{dst_elements_per_row, dst_element_stride, dst_tile}, src,
                        tile{src_elements_per_row, src_element_stride, src_tile}, offset, clamp_mode, where);
}
