#include "validation/exit_status.h"

#include "support/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace metalcpu::val {
namespace {

std::atomic<std::uint64_t> g_unexpectedReports{0};

/// Runs inside exit(): glibc hands on_exit handlers the status the program exits with, which
/// atexit handlers never see. A program that made reports nobody expected and exits with 0
/// exits with the variable's status instead, read now, so that it needs no device to arm it.
void replaceSuccess(int status, void*) {
    if (status != 0 || g_unexpectedReports.load() == 0) return;
    const ExitCodeSetting setting = parseExitCode(std::getenv(kExitCodeVariable));
    if (setting.code == 0) return;
    // _exit() would drop what is still buffered: C++ streams first (they may hold their own
    // buffers without sync_with_stdio), then stdio.
    std::cout.flush();
    std::clog.flush();
    std::fflush(nullptr);
    _exit(setting.code);
}

#if defined(__GLIBC__)
/// Exit handlers run in the reverse order of their registration, and _exit() skips the ones
/// still to come: registered before every other constructor of the program (priority 101,
/// the first one not reserved), the handler runs after the handlers and static destructors
/// the program registers from its own constructors and main(). What glibc registered before
/// any constructor — the dynamic loader's .fini_array pass, which runs __attribute__
/// ((destructor)) functions, gcov's dump among them — still comes after it and is skipped
/// (docs/testing.md).
__attribute__((constructor(101))) void installExitHandler() {
    if (on_exit(replaceSuccess, nullptr) != 0)
        std::fputs("metalcpu: cannot install the METALCPU_SHADER_VALIDATION_EXIT_CODE exit handler\n", stderr);
}
#endif

} // namespace

ExitCodeSetting parseExitCode(const char* text) {
    ExitCodeSetting setting;
    if (!text || !*text) return setting;
    int value = 0;
    for (const char* c = text; *c; ++c) {
        // Digits only: strtol would take " 86", "+86" and "86x" as 86, or as 0 and no
        // warning; and at most three of them, so the value cannot overflow.
        if (*c < '0' || *c > '9' || c - text >= 3) {
            setting.invalid = true;
            return setting;
        }
        value = value * 10 + (*c - '0');
    }
    if (value > 255) setting.invalid = true;
    else setting.code = value;
    return setting;
}

void warnAboutTheExitCodeSetting() {
    const char* text = std::getenv(kExitCodeVariable);
    const ExitCodeSetting setting = parseExitCode(text);
    if (setting.invalid)
        support::log().warn("{}={} is not an exit status (0 to 255); ignored: reports will not change the exit status",
                            kExitCodeVariable, text);
#if !defined(__GLIBC__)
    else if (setting.code != 0)
        support::log().warn("{} needs glibc's on_exit(); ignored", kExitCodeVariable);
#endif
}

void countUnexpectedReport() { g_unexpectedReports.fetch_add(1); }

} // namespace metalcpu::val
