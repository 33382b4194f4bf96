#include "reduction_twins.h"

#include "simd_order_sum.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <vector>

namespace twins {

void reduceGroups(const float* in, float* out, unsigned groups, unsigned threadsPerGroup, unsigned perThread) {
    tbb::parallel_for(tbb::blocked_range<unsigned>(0, groups), [&](const tbb::blocked_range<unsigned>& r) {
        std::vector<float> lanes(threadsPerGroup);
        for (unsigned g = r.begin(); g != r.end(); ++g) {
            for (unsigned t = 0; t < threadsPerGroup; ++t) {
                const float* p = in + (std::size_t(g) * threadsPerGroup + t) * perThread;
                float s = 0.0f;
                for (unsigned i = 0; i < perThread; ++i) s += p[i];
                lanes[t] = s;
            }
            out[g] = simdOrderSum(lanes.data(), threadsPerGroup);
        }
    });
}

} // namespace twins
