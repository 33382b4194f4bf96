// What the front end's rewrite of GNU array designators relies on when their indices are
// constants it cannot evaluate itself (template parameters, constexpr locals, sizeof,
// enumerators): `float s[N] = {[0 ... N - 1] = 1.0f};` in a function body becomes
// `float s[N] = {}; ::metalcpu_kernel::designate<(0), (N - 1)>(s, 1.0f);`, one designate() per
// element of the list, in order (compiler/passes/designators.h).
#pragma once

#include <metal_stdlib>

namespace metalcpu_kernel {

/// Keeps a parameter out of template argument deduction: the element type comes from the
/// array alone, so the value may be a braced list (an element that is an array or a struct)
/// or of another type that converts (`0` for a float).
template <class T>
struct designated_value {
    using type = T;
};

/// One element takes the value: assigned, an array element by element.
template <class E>
__attribute__((always_inline)) constexpr void designate_element(E& element, const E& value) {
    element = value;
}
template <class E, decltype(sizeof 0) N>
__attribute__((always_inline)) constexpr void designate_element(E (&element)[N], const E (&value)[N]) {
    for (decltype(sizeof 0) i = 0; i < N; ++i) designate_element(element[i], value[i]);
}

/// `[First ... Last] = value` (`[First] = value` when they are equal): elements First to Last
/// of `array` take `value`. The value is evaluated (and converted to the element type) once,
/// as GCC does for a range in C; the indices are checked as Clang checks them.
template <long long First, long long Last, class E, decltype(sizeof 0) N>
__attribute__((always_inline)) constexpr void designate(E (&array)[N],
                                                       const typename designated_value<E>::type& value) {
    static_assert(First >= 0 && Last < static_cast<long long>(N),
                  "array designator index exceeds the array bound");
    static_assert(First <= Last, "array designator range is empty");
    for (long long i = First; i <= Last; ++i) designate_element(array[i], value);
}

} // namespace metalcpu_kernel
