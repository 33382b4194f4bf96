#pragma once

// The timing the benchmarks share: the best of `repeat` runs, in seconds.
#include <algorithm>
#include <chrono>

namespace bench {

template <class Run>
double bestSeconds(int repeat, Run run) {
    double best = 1e30;
    for (int r = 0; r < repeat; ++r) {
        auto start = std::chrono::steady_clock::now();
        run();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace bench
