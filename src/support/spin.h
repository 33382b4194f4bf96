#pragma once

// Short busy waits. Waking a sleeping thread costs 10-20 µs on the virtual machines metalcpu
// runs on, more than a short dispatch takes; a waiter that expects its event that soon spins
// first and sleeps only when it does not come.
#include <chrono>

namespace metalcpu::support {

/// Tells the CPU this thread is spinning (x86 `pause`, AArch64 `yield`).
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

/// Spins until `ready()` or for `budget`, whichever comes first; whether `ready()` held.
template <class Ready>
bool spinFor(std::chrono::nanoseconds budget, Ready ready) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until = Clock::now() + budget;
    for (unsigned i = 0;; ++i) {
        if (ready()) return true;
        if ((i & 63) == 63 && Clock::now() >= until) return ready();
        relax();
    }
}

} // namespace metalcpu::support
