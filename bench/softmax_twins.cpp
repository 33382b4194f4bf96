#include "softmax_twins.h"

#include "simd_order_sum.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace twins {

void softmaxRows(const float* in, float* out, unsigned rows, unsigned n, unsigned threadsPerGroup) {
    const unsigned threads = threadsPerGroup;
    tbb::parallel_for(tbb::blocked_range<unsigned>(0, rows), [&](const tbb::blocked_range<unsigned>& r) {
        std::vector<float> lanes(threads);
        for (unsigned row = r.begin(); row != r.end(); ++row) {
            const float* x = in + std::size_t(row) * n;
            float* y = out + std::size_t(row) * n;
            float top = std::numeric_limits<float>::lowest();
            for (unsigned t = 0; t < threads; ++t) {
                float m = std::numeric_limits<float>::lowest();
                for (unsigned i = t; i < n; i += threads) m = std::max(m, x[i]);
                top = std::max(top, m);
            }
            for (unsigned t = 0; t < threads; ++t) {
                float s = 0.0f;
                for (unsigned i = t; i < n; i += threads) s += std::exp(x[i] - top);
                lanes[t] = s;
            }
            const float scale = 1.0f / simdOrderSum(lanes.data(), threads);
            for (unsigned t = 0; t < threads; ++t)
                for (unsigned i = t; i < n; i += threads) y[i] = std::exp(x[i] - top) * scale;
        }
    });
}

} // namespace twins
