#pragma once

// The loops behind the vDSP functions, written once for float and double. vDSP vectors are a
// pointer and a stride; when every stride is 1 the loops see plain pointers, so that GCC
// vectorises them (accelerate/CMakeLists.txt compiles this target at -O3 for that).

#include <Accelerate/Accelerate.h>

#include <cstddef>

namespace metalcpu::accelerate {

// A vDSP vector: element i is base[i * stride], for any signed stride (Apple's definition).
template <class T>
struct Strided {
    T* base;
    vDSP_Stride stride;

    T& operator[](vDSP_Length i) const { return base[static_cast<std::ptrdiff_t>(i) * stride]; }
};

// The vector vDSP is given as a pointer and a stride.
template <class T>
Strided<T> strided(T* base, vDSP_Stride stride) {
    return {base, stride};
}

// f(elements): f is given `vector` as a plain pointer when its stride is 1, otherwise as is.
template <class T, class F>
auto withElements(Strided<T> vector, F f) {
    return vector.stride == 1 ? f(vector.base) : f(vector);
}

// result[i] = op(inputs[i]...) for i < count. The result may be one of the inputs (vDSP allows
// it), so the contiguous loop is vectorised behind GCC's run-time overlap check.
template <class T, class Op, class... Inputs>
void map(Strided<T> result, vDSP_Length count, Op op, Strided<Inputs>... inputs) {
    if (result.stride == 1 && ((inputs.stride == 1) && ...)) {
        for (vDSP_Length i = 0; i < count; ++i) result.base[i] = op(inputs.base[i]...);
        return;
    }
    for (vDSP_Length i = 0; i < count; ++i) result[i] = op(inputs[i]...);
}

// `width` elements of T side by side, with GCC's vector extension: + and ?: apply lane by lane.
template <class T>
using Vector [[gnu::vector_size(16)]] = T;

// combine(... combine(identity, element(0)) ..., element(count - 1)), reassociated into
// independent vectors of partial results, as Apple's vDSP does, so that the loop runs several
// lanes wide; the rounding of a sum differs from a sequential loop's accordingly. Spelled out
// with Vector because GCC does not vectorise maxima and minima by itself. `combine` takes two
// T or two Vector<T>.
template <class T, class Element, class Combine>
T reduce(vDSP_Length count, T identity, Element element, Combine combine) {
    constexpr vDSP_Length width = sizeof(Vector<T>) / sizeof(T), vectors = 4, step = width * vectors;
    Vector<T> partial[vectors];
    for (Vector<T>& lanes : partial)
        for (vDSP_Length lane = 0; lane < width; ++lane) lanes[lane] = identity;
    vDSP_Length i = 0;
    for (; i + step <= count; i += step)
        for (vDSP_Length vector = 0; vector < vectors; ++vector) {
            Vector<T> values;
            for (vDSP_Length lane = 0; lane < width; ++lane) values[lane] = element(i + vector * width + lane);
            partial[vector] = combine(partial[vector], values);
        }
    T total = identity;
    for (; i < count; ++i) total = combine(total, element(i));
    for (const Vector<T>& lanes : partial)
        for (vDSP_Length lane = 0; lane < width; ++lane) total = combine(total, lanes[lane]);
    return total;
}

} // namespace metalcpu::accelerate
