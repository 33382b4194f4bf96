// `vec<T, 64>`, the storage Apple's simdgroup_matrix<T, 8, 8> keeps inside, and the builtin
// its product lowers to, as metal-flash-attention's simdgroup_matrix_storage uses them:
//
//   typedef vec<T, 64> storage_type;   storage_type t;
//   reinterpret_cast<thread vec<T, 2>*>(&t)      // the thread's two elements
//   t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, b.t, t, storage_type());
//
// On a GPU the 64 elements of the SIMD-group's matrix are spread over its 32 lanes; each
// thread's vec<T, 64> is its two of them, first, in the lane layout of <metal_simdgroup_matrix>
// (which MFA's morton_order() computes). Here a thread's vec<T, 64> holds exactly those two
// (not 64 elements that would be mostly other lanes'), so a write past them lands in the
// object that follows, where on a GPU it lands in unused registers.
#pragma once

#include <metal_simdgroup_matrix>
#include <metal_types>

namespace metal {

template <class T>
struct vec<T, 64> {
    static_assert(metalcpu_stdlib::simd_matrix::is_element<T>,
                  "vec<T, 64> is the storage of a simdgroup_matrix: float, half or bfloat");
    using value_type = T;

    /// Zeros (Apple's is undefined; MFA writes every element it reads).
    METALCPU_INLINE constexpr vec() : elements(T(0)) {}
    /// Every element of the thread's share `s`.
    METALCPU_INLINE constexpr explicit vec(T s) : elements(s) {}
    METALCPU_INLINE constexpr vec(vec<T, 2> two) : elements(two) {}

    /// The thread's two elements, where `reinterpret_cast<thread vec<T, 2>*>(&t)` finds them.
    vec<T, 2> elements;
};

static_assert(sizeof(vec<float, 64>) == sizeof(vec<float, 2>), "a thread's vec<T, 64> is its two elements");

} // namespace metal

/// c + a · b for the SIMD-group's 8x8 matrices whose storage a, b and c are, in the type of the
/// fourth argument (MFA passes `storage_type()`, only for its type): the product of
/// simdgroup_multiply_accumulate, a collective of the SIMD-group.
template <class A, class B, class C, class D>
METALCPU_INLINE metal::vec<D, 64> __metal_simdgroup_matrix_8x8_multiply_accumulate(
    const metal::vec<A, 64>& a, const metal::vec<B, 64>& b, const metal::vec<C, 64>& c, const metal::vec<D, 64>&,
    metalcpu_kernel::simd_site where = {}) {
    namespace sm = metalcpu_stdlib::simd_matrix;
    const sm::product_round<A, B> round(a.elements, b.elements, where);
    if (round.recording()) return metal::vec<D, 64>();
    const unsigned lane = round.self();
    const metal::vec<float, 2> sums = round.dot(sm::row_of(lane), sm::column_of(lane),
                                               metal::vec<float, 2>(float(c.elements[0]), float(c.elements[1])));
    return metal::vec<D, 64>(metal::vec<D, 2>(D(sums[0]), D(sums[1])));
}
