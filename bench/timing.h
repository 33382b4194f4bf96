#pragma once

// The timing the benchmarks share: the best of `repeat` runs, in seconds of wall time, or of
// the process's CPU time (all its threads) once useCpuTime() is set.
#include <algorithm>
#include <chrono>
#include <ctime>

namespace bench {

/// Set by a benchmark's --cpu-time: on a shared machine wall time also counts the time other
/// processes held the cores, CPU time only what the process's threads ran (their spinning
/// included). Sides that use the same number of threads compare by it under load.
inline bool& useCpuTime() {
    static bool cpu = false;
    return cpu;
}

inline double nowSeconds() {
    if (useCpuTime()) {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class Run>
double bestSeconds(int repeat, Run run) {
    double best = 1e30;
    for (int r = 0; r < repeat; ++r) {
        const double start = nowSeconds();
        run();
        best = std::min(best, nowSeconds() - start);
    }
    return best;
}

} // namespace bench
