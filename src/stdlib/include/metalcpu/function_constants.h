// [[function_constant(n)]]: what a program-scope function constant is in translated code.
//
// The front end turns `constant T name [[function_constant(n)]];` into
//     using __mc_fc_name = ::metalcpu_kernel::function_constant<T, (n)>;
//     constinit const T name = __mc_fc_name::value;
// and `is_function_constant_defined(name)` into `__mc_fc_name::defined`. A library compiled
// from a .metal file has no values (every constant is undefined and zero); the runtime
// specialises it by compiling the same translated text again, after an explicit
// specialisation of function_constant_value<n> for each value it was given
// (docs/kernel-abi.md, "Function constants"). The values are then compile-time constants,
// as on a GPU: code they disable is removed.
#pragma once

#include <metal_stdlib>

namespace metalcpu_kernel {

/// The value of function constant `Index` in this compile: none (the primary template), or the
/// one the runtime wrote, as the bits of its components (`data_type` is its MTLDataType).
template <unsigned long long Index> struct function_constant_value {
    static constexpr bool defined = false;
    static constexpr unsigned data_type = 0;
    static constexpr unsigned long long bits[4] = {0, 0, 0, 0};
};

/// The MTLDataType of the scalar types a function constant may have (0: not allowed).
template <class T> struct function_constant_scalar { static constexpr unsigned data_type = 0; };
#define METALCPU_FUNCTION_CONSTANT_SCALAR(T, type)                                               \
    template <> struct function_constant_scalar<T> { static constexpr unsigned data_type = type; };
METALCPU_FUNCTION_CONSTANT_SCALAR(float, 3)
METALCPU_FUNCTION_CONSTANT_SCALAR(half, 16)
METALCPU_FUNCTION_CONSTANT_SCALAR(int, 29)
METALCPU_FUNCTION_CONSTANT_SCALAR(unsigned int, 33)
METALCPU_FUNCTION_CONSTANT_SCALAR(short, 37)
METALCPU_FUNCTION_CONSTANT_SCALAR(unsigned short, 41)
METALCPU_FUNCTION_CONSTANT_SCALAR(char, 45)
METALCPU_FUNCTION_CONSTANT_SCALAR(signed char, 45)
METALCPU_FUNCTION_CONSTANT_SCALAR(unsigned char, 49)
METALCPU_FUNCTION_CONSTANT_SCALAR(bool, 53)
METALCPU_FUNCTION_CONSTANT_SCALAR(long, 81)
METALCPU_FUNCTION_CONSTANT_SCALAR(unsigned long, 85)
METALCPU_FUNCTION_CONSTANT_SCALAR(bfloat, 121)
#undef METALCPU_FUNCTION_CONSTANT_SCALAR

/// A function constant's type: a scalar above or a vector of 2 to 4 of them, whose
/// MTLDataTypes follow the scalar's (float2 = float + 1, ...).
template <class T> struct function_constant_type {
    using scalar = T;
    static constexpr int components = 1;
    static constexpr unsigned data_type = function_constant_scalar<T>::data_type;
};
template <class T, int N> struct function_constant_type<metal::vec<T, N>> {
    using scalar = T;
    static constexpr int components = N;
    static constexpr unsigned data_type =
        function_constant_scalar<T>::data_type ? function_constant_scalar<T>::data_type + N - 1 : 0;
};

/// A scalar from the bits the runtime wrote for it.
template <class S> constexpr S function_constant_scalar_of(unsigned long long bits) {
    if constexpr (__is_same(S, bool)) return bits != 0;
    else if constexpr (__is_same(S, float)) return __builtin_bit_cast(float, static_cast<unsigned int>(bits));
    else if constexpr (__is_same(S, half)) return __builtin_bit_cast(half, static_cast<unsigned short>(bits));
    else if constexpr (__is_same(S, bfloat)) return __builtin_bit_cast(bfloat, static_cast<unsigned short>(bits));
    else return static_cast<S>(bits);
}

/// Function constant `Index` declared with type `T`: its value in this compile, whether it has
/// one, and its reflection (index, MTLDataType) for the runtime.
template <class T, unsigned long long Index> struct function_constant {
    using type = function_constant_type<T>;
    static_assert(type::data_type != 0,
                  "a function constant must be a scalar or vector of bool, an integer type, half, bfloat or float");
    using given = function_constant_value<Index>;
    static_assert(!given::defined || given::data_type == type::data_type,
                  "the value given for a function constant is of another type");
    static constexpr unsigned long long index = Index;
    static constexpr unsigned data_type = type::data_type;
    static constexpr bool defined = given::defined;

private:
    template <int... I> static constexpr T compose(metal::integer_sequence<int, I...>) {
        return T(function_constant_scalar_of<typename type::scalar>(given::bits[I])...);
    }

public:
    static constexpr T value = compose(metal::make_integer_sequence<int, type::components>{});
};

} // namespace metalcpu_kernel
