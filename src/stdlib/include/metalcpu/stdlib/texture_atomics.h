// The texel side of MSL 3.1's texture atomics (<metal_texture>): read-modify-write on the
// first component of a 32-bit integer texel (R32Uint, R32Sint), and min/max on the 64-bit
// value of an RG32Uint texel (ulong textures), relaxed, as Metal orders them.
#pragma once

#include <metalcpu/kernel_abi.h>
#include <metalcpu/stdlib/config.h>
#include <metalcpu/stdlib/texture.h>

namespace metalcpu_stdlib::texture {

enum class atomic_op { load, store, exchange, add, sub, and_, or_, xor_, min, max };

/// The word holding the texel's first component, or null when the texel is outside the
/// texture (the access is dropped and reads 0, as out-of-bounds texture accesses are) or the
/// texture's components are not 32-bit.
METALCPU_INLINE void* atomic_word(const mc_texture* t, uint x, uint y, uint z, uint slice) {
    if (!t || t->component_bytes != 4) return nullptr;
    return texel(t, x, y, z, slice, 0);
}

/// The 8 bytes of an RG32Uint texel, one 64-bit value (R its low word, as a ulong texture holds
/// it), or null when the texel is outside the texture or the texture's texels are not that.
METALCPU_INLINE void* atomic_word64(const mc_texture* t, uint x, uint y, uint z, uint slice) {
    if (!t || t->component_bytes != 4 || t->channels != 2 || t->component_kind != MC_COMPONENT_UINT) return nullptr;
    return texel(t, x, y, z, slice, 0);
}

/// Applies `op` with `operand` to the word at `p` (T is int, uint or ulong); the value before.
template <class T> METALCPU_INLINE T atomic_apply(void* p, atomic_op op, T operand) {
    if (!p) return T(0);
    T* word = static_cast<T*>(p);
    switch (op) {
    case atomic_op::load: return __atomic_load_n(word, __ATOMIC_RELAXED);
    case atomic_op::store: __atomic_store_n(word, operand, __ATOMIC_RELAXED); return T(0);
    case atomic_op::exchange: return __atomic_exchange_n(word, operand, __ATOMIC_RELAXED);
    case atomic_op::add: return __atomic_fetch_add(word, operand, __ATOMIC_RELAXED);
    case atomic_op::sub: return __atomic_fetch_sub(word, operand, __ATOMIC_RELAXED);
    case atomic_op::and_: return __atomic_fetch_and(word, operand, __ATOMIC_RELAXED);
    case atomic_op::or_: return __atomic_fetch_or(word, operand, __ATOMIC_RELAXED);
    case atomic_op::xor_: return __atomic_fetch_xor(word, operand, __ATOMIC_RELAXED);
    case atomic_op::min:
    case atomic_op::max: {
        T old = __atomic_load_n(word, __ATOMIC_RELAXED);
        for (;;) {
            const bool keep = op == atomic_op::min ? !(operand < old) : !(operand > old);
            if (keep) return old;
            if (__atomic_compare_exchange_n(word, &old, operand, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return old;
        }
    }
    }
    return T(0);
}

/// Compare-exchange on the word at `p`: true when it held `*expected` and now holds `desired`;
/// otherwise `*expected` is what it holds.
template <class T> METALCPU_INLINE bool atomic_compare_exchange(void* p, T* expected, T desired) {
    if (!p) {
        *expected = T(0);
        return false;
    }
    return __atomic_compare_exchange_n(static_cast<T*>(p), expected, desired, true, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED);
}

} // namespace metalcpu_stdlib::texture
