// Apple's SIMD-group matrix load and store builtins on vec<T, 64> storage
// (metalcpu/stdlib/simdgroup_storage.h) in the shader-validation flavour: the translator passes
// the call's site first to these functions by name (compiler/passes/checked_accesses.h), and
// each element read or written is a checked access there, as simdgroup_load's and
// simdgroup_store's are (metalcpu/checked.h). Pointers that are not checked take the plain
// functions.
#pragma once

#include <metalcpu/checked.h>
#include <metalcpu/stdlib/simdgroup_storage.h>

template <class P>
METALCPU_INLINE metal::vec<metal::pointee_t<P>, 64> __metal_simdgroup_matrix_8x8_load(
    const ::mc_site& site, P src, metal::ulong elements_per_row, metal::ulong2 matrix_origin, bool transpose_matrix,
    metalcpu_kernel::simd_site where = {}) {
    using T = metal::pointee_t<P>;
    namespace sm = metalcpu_stdlib::simd_matrix;
    return metal::vec<T, 64>(sm::load_pair<T>(
        sm::storage_lane(where), [&](long i) -> T { return ::metalcpu_kernel::load(src, i, site); }, elements_per_row,
        matrix_origin, transpose_matrix));
}

template <class T, class P>
METALCPU_INLINE void __metal_simdgroup_matrix_8x8_store(const ::mc_site& site, const metal::vec<T, 64>& a, P dst,
                                                        metal::ulong elements_per_row, metal::ulong2 matrix_origin,
                                                        bool transpose_matrix, metalcpu_kernel::simd_site where = {}) {
    static_assert(__is_same(metal::pointee_t<P>, T),
                  "__metal_simdgroup_matrix_8x8_store: the destination's element type must be the storage's");
    namespace sm = metalcpu_stdlib::simd_matrix;
    sm::store_pair<T>(
        sm::storage_lane(where), a.elements,
        [&](long i) -> decltype(auto) { return ::metalcpu_kernel::store(dst, i, site); }, elements_per_row,
        matrix_origin, transpose_matrix);
}
