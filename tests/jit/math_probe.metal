// The math-mode probe of math_mode_test.cpp: each output is a floating-point behaviour the
// modes disagree on. The inputs come from a buffer, so the compiler cannot fold them.
#include <metal_stdlib>
using namespace metal;
kernel void probe(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    const float nan = in[0], negative_zero = in[1], one = in[2];
    out[0] = nan != nan ? 1.0f : 0.0f;    // 1 where NaNs are honoured, folded to 0 under finite math
    out[1] = negative_zero * one + 0.0f;  // +0 in IEEE arithmetic, -0 when signed zeros are ignored
    out[2] = fmax(one, nan);              // metal::fmax: precise:: gives 1
    out[3] = precise::fmax(one, nan);     // 1 in every mode
    out[4] = isnan(nan) ? 1.0f : 0.0f;    // metal::isnan reads the bits: 1 in every mode
#ifdef __FAST_MATH__                      // what the compiler was told, whatever it folded
    out[5] = 1.0f;
#else
    out[5] = 0.0f;
#endif
    out[6] = __FINITE_MATH_ONLY__ ? 1.0f : 0.0f;
}
