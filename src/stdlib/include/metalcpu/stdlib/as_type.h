// as_type<T>(x): reinterpret the bits of x as a T of the same size (scalars, vectors, packed
// vectors; a swizzle is first read as the vector it stands for). Part of <metal_types>.
#pragma once

#include <metalcpu/stdlib/vec.h>

namespace metalcpu_stdlib {
template <class X> inline constexpr bool is_packed_vec3 = false;
template <class T, class V> inline constexpr bool is_packed_vec3<packed_vec<T, 3, V>> = true;
} // namespace metalcpu_stdlib

namespace metal {

// A packed 3-vector (12 bytes) whose other side has the size of its vector (16 bytes, as
// `int3`) stands for that vector, as Apple's compiler takes it: as_type<int3>(packed_int3) is
// its three elements (Tint's MSL writer bit-casts packed struct members so) and
// as_type<packed_float3>(int3) the three elements reinterpreted. Any other difference in size
// is an error.
//
// A double operand can only come from an unsuffixed literal (`as_type<int>(f + 1.0)`, as naga
// writes WGSL's bitcast): Metal has no double, and in MSL that expression is a float, so its
// bits are the float's.
template <class To, class From> METALCPU_INLINE constexpr To as_type(const From& from) {
    using Value = conditional_t<metalcpu_stdlib::is_swizzle<From> ||
                                    (metalcpu_stdlib::is_packed_vec3<remove_cv_t<From>> && sizeof(To) != sizeof(From)),
                                metalcpu_stdlib::vector_of_t<From>, From>;
    using Source = conditional_t<is_same_v<remove_cv_t<Value>, double>, float, Value>;
    if constexpr (metalcpu_stdlib::is_packed_vec3<To> && sizeof(To) != sizeof(Source)) {
        using Unpacked = metalcpu_stdlib::vector_of_t<To>;
        static_assert(sizeof(Unpacked) == sizeof(Source), "as_type<T>(x) needs T and x to have the same size");
        return To(as_type<Unpacked>(from));
    } else {
        static_assert(sizeof(To) == sizeof(Source), "as_type<T>(x) needs T and x to have the same size");
        const Source source = from;
        if constexpr (__is_trivially_copyable(To) && __is_trivially_copyable(Source)) {
            return __builtin_bit_cast(To, source); // scalars: usable in constant expressions
        } else {
            // Vectors are not trivially copyable (see swizzle in vec.h): copy the bytes.
            To to;
            __builtin_memcpy(static_cast<void*>(&to), static_cast<const void*>(&source), sizeof(To));
            return to;
        }
    }
}

} // namespace metal

// In MSL as_type<T>() is an operator of the language, usable in any namespace without
// `using namespace metal` (PyTorch's c10/metal/atomic.h calls it so).
using metal::as_type;
