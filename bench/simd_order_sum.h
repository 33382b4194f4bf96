#pragma once

// How the twins add a threadgroup's per-thread values in the order a two-stage simd_sum adds
// them (metalcpu adds in lane order): each SIMD-group of 32 in lane order, then the
// SIMD-groups' sums in order.
namespace twins {

inline float simdOrderSum(const float* lanes, unsigned threads) {
    constexpr unsigned kSimdWidth = 32;
    float total = 0.0f;
    for (unsigned first = 0; first < threads; first += kSimdWidth) {
        float simd = 0.0f;
        for (unsigned lane = first; lane < first + kSimdWidth && lane < threads; ++lane) simd += lanes[lane];
        total += simd;
    }
    return total;
}

} // namespace twins
