#include "simdgroup_matrix_twins.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace twins {

void simdgroupGemm(const float* a, const float* bRows, float* c, unsigned m, unsigned n, unsigned k,
                   unsigned simdgroups) {
    const unsigned columns = 8 * simdgroups, groups = m / 8 * (n / columns);
    tbb::parallel_for(tbb::blocked_range<unsigned>(0, groups), [&](const tbb::blocked_range<unsigned>& r) {
        float sa[64], sb[4 * 64], acc[4][64];
        for (unsigned g = r.begin(); g != r.end(); ++g) {
            const unsigned row0 = g / (n / columns) * 8, col0 = g % (n / columns) * columns;
            for (unsigned s = 0; s < simdgroups; ++s)
                for (float& x : acc[s]) x = 0.0f;
            for (unsigned k0 = 0; k0 < k; k0 += 8) {
                for (unsigned i = 0; i < 64; ++i) sa[i] = a[(row0 + i / 8) * k + k0 + i % 8];
                for (unsigned i = 0; i < 64 * simdgroups; ++i) sb[i] = bRows[(col0 + i / 8) * k + k0 + i % 8];
                for (unsigned s = 0; s < simdgroups; ++s)
                    for (unsigned row = 0; row < 8; ++row)
                        for (unsigned col = 0; col < 8; ++col) {
                            float sum = acc[s][row * 8 + col];
                            for (unsigned kk = 0; kk < 8; ++kk) sum += sa[row * 8 + kk] * sb[s * 64 + col * 8 + kk];
                            acc[s][row * 8 + col] = sum;
                        }
            }
            for (unsigned s = 0; s < simdgroups; ++s)
                for (unsigned i = 0; i < 64; ++i) c[(row0 + i / 8) * n + col0 + 8 * s + i % 8] = acc[s][i];
        }
    });
}

} // namespace twins
