// The barrier-divergence check (METALCPU_SHADER_VALIDATION_CHECKS=barriers, docs/validation.md):
// one round of a threadgroup barrier, thread by thread, as the lowering that runs it sees it
// when the round opens. Shared by kernel code (coroutines, work-item loops) and the runtime's
// fiber scheduler, so that the three lowerings judge a round alike. Freestanding.
#pragma once

#include <metalcpu/kernel_abi.h>

namespace metalcpu_kernel {

/// Whether two barrier sites are one barrier (`file` by its text: one translation's
/// literals may be merged or not).
inline bool same_barrier(const mc_simd_site& a, const mc_simd_site& b) {
    if (a.line != b.line || a.column != b.column) return false;
    if (a.file == b.file) return true;
    if (!a.file || !b.file) return false;
    const char *x = a.file, *y = b.file;
    while (*x && *x == *y) ++x, ++y;
    return *x == *y;
}

/// Tallies a round: each thread of the group, lowest index first, is waiting at a barrier
/// or has finished. The round is divergent when some threads wait at the first waiting
/// thread's barrier and the others do not (they wait elsewhere or have finished); a round
/// with no thread waiting (all finished) is not.
class barrier_round_tally {
public:
    explicit barrier_round_tally(mc_u32 threads) {
        round_ = mc_barrier_round{};
        round_.threads = threads;
        round_.first_missing = threads;
    }

    void waiting(mc_u32 thread, const mc_simd_site& site) {
        if (round_.reached == 0 && round_.elsewhere == 0) {
            round_.site = site;
            ++round_.reached;
        } else if (same_barrier(site, round_.site)) {
            ++round_.reached;
        } else {
            if (round_.elsewhere++ == 0) round_.other = site;
            missing(thread);
        }
    }

    void finished(mc_u32 thread) {
        ++round_.finished;
        missing(thread);
    }

    bool divergent() const { return round_.reached > 0 && (round_.elsewhere > 0 || round_.finished > 0); }
    const mc_barrier_round& round() const { return round_; }

private:
    void missing(mc_u32 thread) {
        if (thread < round_.first_missing) round_.first_missing = thread;
    }
    mc_barrier_round round_;
};

} // namespace metalcpu_kernel
