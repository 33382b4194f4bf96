// `vec<T, 64>`, the storage Apple's simdgroup_matrix<T, 8, 8> keeps inside, and the builtins
// its product, load and store lower to, as metal-flash-attention's simdgroup_matrix_storage
// and Apple's <metal_simdgroup_matrix> use them:
//
//   typedef vec<T, 64> storage_type;   storage_type t;
//   reinterpret_cast<thread vec<T, 2>*>(&t)      // the thread's two elements
//   t = __metal_simdgroup_matrix_8x8_multiply_accumulate(a.t, b.t, t, storage_type());
//   t = __metal_simdgroup_matrix_8x8_load(src, elements_per_row, matrix_origin, transpose_matrix);
//   __metal_simdgroup_matrix_8x8_store(t, dst, elements_per_row, matrix_origin, transpose_matrix);
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

namespace metalcpu_stdlib::simd_matrix {

struct storage_kind;

/// The caller's lane within its matrix, for a load or store of a vec<T, 64>, which has no room
/// to keep it (simdgroup_matrix does, own_lane): asked at every call, a rendezvous without a
/// value on fibers, the piece's simd_lane_scope in work-item loops.
METALCPU_INLINE unsigned storage_lane(const metalcpu_kernel::simd_site& where) {
    mc_simd_round round{};
    metalcpu_kernel::simdgroup_exchange(nullptr, 0, where, &metalcpu_kernel::simd_kind<storage_kind>, &round);
    return round.lane % kLanes;
}

} // namespace metalcpu_stdlib::simd_matrix

/// The storage of the 8x8 block at `matrix_origin` (x: column, y: row) of a row-major matrix of
/// `elements_per_row` columns, or of that block transposed, in the source's element type:
/// what simdgroup_load loads, the caller's two elements (device or threadgroup memory alike).
/// In the shader-validation flavour `src` is a checked pointer and each element read is
/// checked at the call's site (the overload below).
template <class P>
METALCPU_INLINE metal::vec<metal::pointee_t<P>, 64> __metal_simdgroup_matrix_8x8_load(
    P src, metal::ulong elements_per_row, metal::ulong2 matrix_origin, bool transpose_matrix,
    metalcpu_kernel::simd_site where = {}) {
    using T = metal::pointee_t<P>;
    namespace sm = metalcpu_stdlib::simd_matrix;
    return metal::vec<T, 64>(sm::load_pair<T>(sm::storage_lane(where), [&](long i) -> T { return src[i]; },
                                              elements_per_row, matrix_origin, transpose_matrix));
}

/// Stores storage `a` as the 8x8 block simdgroup_store stores: the caller's two elements, where
/// __metal_simdgroup_matrix_8x8_load reads them. The destination's element type is the
/// storage's.
template <class T, class P>
METALCPU_INLINE void __metal_simdgroup_matrix_8x8_store(const metal::vec<T, 64>& a, P dst, metal::ulong elements_per_row,
                                                        metal::ulong2 matrix_origin, bool transpose_matrix,
                                                        metalcpu_kernel::simd_site where = {}) {
    static_assert(__is_same(metal::pointee_t<P>, T),
                  "__metal_simdgroup_matrix_8x8_store: the destination's element type must be the storage's");
    namespace sm = metalcpu_stdlib::simd_matrix;
    sm::store_pair<T>(sm::storage_lane(where), a.elements, [&](long i) -> decltype(auto) { return dst[i]; },
                      elements_per_row, matrix_origin, transpose_matrix);
}
