#include "runtime/debug_layer.h"
#include "validation/api_reports.h"

#include "support/config.h"
#include "support/log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace metalcpu::rt {
namespace {

std::atomic<DebugLayer::Mode> currentMode{DebugLayer::Mode::Off};

std::mutex& observerMutex() {
    static std::mutex mutex;
    return mutex;
}

DebugLayer::Observer& observer() {
    static DebugLayer::Observer* hook = new DebugLayer::Observer; // outlives static destructors
    return *hook;
}

DebugLayer::Mode errorMode(const std::string& text) {
    if (text == "assert") return DebugLayer::Mode::Assert;
    if (text == "nslog") return DebugLayer::Mode::NSLog;
    if (text == "ignore") return DebugLayer::Mode::Ignore;
    support::log().warn("MTL_DEBUG_LAYER_ERROR_MODE={} is not assert, nslog or ignore: using assert", text);
    return DebugLayer::Mode::Assert;
}

} // namespace

void DebugLayer::configure() {
    static std::once_flag once;
    std::call_once(once, [] {
        const support::Config& config = support::config();
        if (config.debugLayer == 0 && config.deviceWrapperType != 1) return;
        currentMode.store(errorMode(config.debugLayerErrorMode), std::memory_order_relaxed);
        std::fputs("Metal API Validation Enabled\n", stderr);
        std::fflush(stderr);
    });
}

DebugLayer::Mode DebugLayer::mode() { return currentMode.load(std::memory_order_relaxed); }

std::string DebugLayer::format(const Site& site, const std::string& message) {
    std::string where = site.className ? std::string("-[") + site.className + " " + site.selector + "]" : site.selector;
    return where + ":" + std::to_string(site.line) + ": failed assertion `" + message + "'";
}

bool DebugLayer::report(const Site& site, const std::string& message) {
    const Mode now = mode();
    if (now != Mode::Assert && now != Mode::NSLog) return false;
    const std::string line = format(site, message);
    std::fputs((line + "\n").c_str(), stderr);
    std::fflush(stderr);
    {
        std::lock_guard lock(observerMutex());
        if (observer()) observer()(line);
    }
    if (now == Mode::Assert) std::abort();
    // NSLog mode: the line is on stderr already; the log's other sinks (a file, a test's
    // capture) get it too, stderr not a second time.
    support::logExceptStderr(spdlog::level::err, "API validation: " + line);
    // And a test's listener: the call is dropped, so nothing else would fail the test.
    val::noteApiValidationReport(line);
    return true;
}

void DebugLayer::reject(const Site& site, const std::string& message) {
    if (report(site, message)) return;
    // Without the layer, name the class as the program knows it: MTLComputeCommandEncoder
    // rather than the debug layer's MTLDebugComputeCommandEncoder.
    std::string where = site.selector;
    if (site.className) {
        std::string className = site.className;
        if (className.rfind("MTLDebug", 0) == 0) className = "MTL" + className.substr(8);
        where = "-[" + className + " " + site.selector + "]";
    }
    support::log().error("{}: {}", where, message);
}

void DebugLayer::setForTesting(Mode mode, Observer hook) {
    std::lock_guard lock(observerMutex());
    observer() = std::move(hook);
    currentMode.store(mode, std::memory_order_relaxed);
}

} // namespace metalcpu::rt
