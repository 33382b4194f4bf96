#include "validation/exit_status.h"

#include "support/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace metalcpu::val {
namespace {

std::atomic<std::uint64_t> g_unexpectedReports{0};
std::atomic<int> g_exitCode{0};

/// Runs inside exit(): glibc hands on_exit handlers the status the program exits with, which
/// atexit handlers never see. Exit handlers run in the reverse order of their registration,
/// so the ones registered before this (the earliest, usually) are skipped by _exit().
void replaceSuccess(int status, void*) {
    if (status != 0 || g_unexpectedReports.load() == 0) return;
    // _exit() would drop what is still buffered: C++ streams first (they may hold their own
    // buffers without sync_with_stdio), then stdio.
    std::cout.flush();
    std::clog.flush();
    std::fflush(nullptr);
    _exit(g_exitCode.load());
}

} // namespace

void armExitCode(int code) {
    if (code == 0) return;
#if defined(__GLIBC__)
    int expected = 0;
    if (!g_exitCode.compare_exchange_strong(expected, code)) return;
    if (on_exit(replaceSuccess, nullptr) != 0)
        support::log().error("METALCPU_SHADER_VALIDATION_EXIT_CODE: cannot install the exit handler");
#else
    support::log().warn("METALCPU_SHADER_VALIDATION_EXIT_CODE needs glibc's on_exit(); ignored");
#endif
}

void countUnexpectedReport() { g_unexpectedReports.fetch_add(1); }

std::uint64_t reportsMade() { return g_unexpectedReports.load(); }

} // namespace metalcpu::val
