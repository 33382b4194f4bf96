// <metalcpu/Validation.hpp>'s waits for pending work: shader validation's reports arrive when
// command buffers finish, and knowing which have is the runtime's business (in_flight.h).
#include "runtime/in_flight.h"
#include "validation/settings.h"

#include <metalcpu/Validation.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace metalcpu::validation {
namespace {

using std::chrono::milliseconds;

/// "1 command buffer", "3 command buffers".
std::string commandBuffers(std::uint64_t count) {
    return std::to_string(count) + (count == 1 ? " command buffer" : " command buffers");
}

/// "0.5 s", "60 s".
std::string seconds(milliseconds duration) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", static_cast<double>(duration.count()) / 1000);
    return text;
}

/// What a wait is still waiting for, and why when the reason is plain.
std::string describe(const rt::InFlight::Pending& pending) {
    std::string text = commandBuffers(pending.committed) + " committed and not completed";
    if (pending.notCommitted != 0)
        text += " (" + commandBuffers(pending.notCommitted) + " on the same queue " +
                (pending.notCommitted == 1 ? "was" : "were") +
                " enqueue()d and never committed, and a queue runs nothing behind such a one until it is committed)";
    return text;
}

} // namespace

std::uint64_t commandBuffersCommitted() { return rt::InFlight::shared().commits(); }

void waitForPendingWork() { rt::InFlight::shared().wait(); }

std::string waitForPendingWorkOrGiveUp(const std::string& who) {
    rt::InFlight& inFlight = rt::InFlight::shared();
    const auto start = std::chrono::steady_clock::now();
    // Nothing pending, nothing to read: the settings are read when the first device is
    // created (Apple's complaints about them with it), and pending work means there is one.
    rt::InFlight::Pending pending = inFlight.waitUntil(start);
    if (pending.empty()) return {};
    const milliseconds limit = val::shaderValidationSettings().waitLimit;
    const milliseconds notice = limit.count() == 0 ? milliseconds(5000) : std::min(milliseconds(5000), limit / 2);
    pending = inFlight.waitUntil(start + notice);
    if (pending.empty()) return {};
    std::string line = "[ WAITING  ] " + who + " has waited " + seconds(notice) + " for " + describe(pending);
    if (limit.count() != 0) line += "; it gives up after " + seconds(limit) + " (METALCPU_SHADER_VALIDATION_WAIT_LIMIT)";
    std::puts(line.c_str());
    std::fflush(stdout);
    if (limit.count() == 0) {
        inFlight.wait();
        return {};
    }
    pending = inFlight.waitUntil(start + limit);
    if (pending.empty()) return {};
    inFlight.giveUp();
    return "gave up after " + seconds(limit) + " (METALCPU_SHADER_VALIDATION_WAIT_LIMIT) waiting for " + describe(pending) +
           ". Reports they make if they complete later fail the test running then, or the suite between tests.";
}

} // namespace metalcpu::validation
