// Helpers shared by the stdlib tests: comparisons in units in the last place (ulp).
#pragma once

#include <metal_stdlib>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include <gtest/gtest.h>

namespace metalcpu_test {

// Distance in representable values between two floats of the same type (0 = identical).
inline std::int64_t ulp_distance(float a, float b) {
    auto ordered = [](float f) {
        std::int32_t i;
        std::memcpy(&i, &f, sizeof i);
        return i < 0 ? std::int64_t(INT32_MIN) - i : std::int64_t(i);
    };
    return std::llabs(ordered(a) - ordered(b));
}
inline std::int64_t ulp_distance(half a, half b) {
    auto ordered = [](half h) {
        std::int16_t i;
        std::memcpy(&i, &h, sizeof i);
        return i < 0 ? std::int64_t(INT16_MIN) - i : std::int64_t(i);
    };
    return std::llabs(ordered(a) - ordered(b));
}

// Checks a component-wise expectation on vectors.
template <class T, int N> void expect_vec_eq(const metal::vec<T, N>& v, std::initializer_list<T> expected) {
    int i = 0;
    for (T e : expected) {
        EXPECT_EQ(v[i], e) << "component " << i;
        ++i;
    }
    EXPECT_EQ(i, N);
}

} // namespace metalcpu_test
