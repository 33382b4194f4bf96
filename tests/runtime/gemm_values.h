// Inputs and a CPU model for the GEMM execution tests (member_inlining_test.cpp,
// steel_aliases_test.cpp), which compare a kernel split into work-item loops with its twin on
// fibers: values whose products and sums are exact in float, values whose sums round, and the
// product in double.
#pragma once

#include <cstddef>
#include <vector>

namespace metalcpu::testing {

/// Small integers, whose products and sums are exact in float: any order gives the same bits.
inline std::vector<float> exactGemmValues(int count, int salt) {
    std::vector<float> v(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) v[std::size_t(i)] = float(int((unsigned(i + salt) * 2654435761u) >> 27) % 9 - 4);
    return v;
}

/// Values whose sums round: two lowerings must still give the same bits.
inline std::vector<float> roundingGemmValues(int count, int salt) {
    std::vector<float> v(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        v[std::size_t(i)] = float((unsigned(i * 7 + salt) * 2654435761u) >> 8) / float(1u << 24) - 0.5f;
    return v;
}

/// C (m x n) = A (m x k) * B (k x n), row-major, in double.
inline std::vector<double> gemmReference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
    std::vector<double> c(std::size_t(m * n), 0.0);
    for (int r = 0; r < m; ++r)
        for (int q = 0; q < n; ++q)
            for (int i = 0; i < k; ++i)
                c[std::size_t(r * n + q)] += double(a[std::size_t(r * k + i)]) * double(b[std::size_t(i * n + q)]);
    return c;
}

} // namespace metalcpu::testing
