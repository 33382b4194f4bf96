#include "validation/sinks.h"

#include "validation/exit_status.h"

#include "support/log.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace metalcpu::validation {

namespace {

/// The installed sinks, and the deliveries in progress. A delivery does not hold the lock
/// while it calls a sink, so a sink may add or remove sinks (itself included) from report().
struct SinkRegistry {
    std::mutex mutex;
    std::condition_variable idle; ///< signalled when a delivery to a sink ends
    std::vector<std::pair<ReportSink*, SinkRole>> installed;
    std::vector<ReportSink*> busy; ///< one entry per delivery in progress
};

SinkRegistry& registry() {
    static SinkRegistry* shared = new SinkRegistry; // reports may arrive during static destruction
    return *shared;
}

/// How many report() calls the current thread is inside.
thread_local int t_deliveries = 0;

bool isInstalled(const SinkRegistry& r, ReportSink* sink) {
    return std::any_of(r.installed.begin(), r.installed.end(), [&](const auto& entry) { return entry.first == sink; });
}

/// Hands `report` to `sink` when it is still installed; false when it no longer is.
bool deliverTo(SinkRegistry& r, ReportSink* sink, const ShaderValidationReport& report) {
    {
        std::lock_guard lock(r.mutex);
        if (!isInstalled(r, sink)) return false; // removed by an earlier sink
        r.busy.push_back(sink);
    }
    struct Done {
        SinkRegistry& r;
        ReportSink* sink;
        ~Done() {
            --t_deliveries;
            {
                std::lock_guard lock(r.mutex);
                r.busy.erase(std::find(r.busy.begin(), r.busy.end(), sink));
            }
            r.idle.notify_all();
        }
    } done{r, sink};
    ++t_deliveries;
    sink->report(report);
    return true;
}

/// Hands `report` to every sink installed when delivery reaches it, observers and owners in
/// the order they were installed, then — when no owner took it — the fallbacks. Returns
/// whether an owner took it: a test expected it or answers for it.
bool deliverToSinks(const ShaderValidationReport& report) {
    SinkRegistry& r = registry();
    std::vector<std::pair<ReportSink*, SinkRole>> snapshot;
    {
        std::lock_guard lock(r.mutex);
        snapshot = r.installed;
    }
    bool owned = false;
    for (const auto& [sink, role] : snapshot)
        if (role != SinkRole::Fallback && deliverTo(r, sink, report) && role == SinkRole::Owner) owned = true;
    if (owned) return true;
    for (const auto& [sink, role] : snapshot)
        if (role == SinkRole::Fallback) deliverTo(r, sink, report);
    return false;
}

} // namespace

ReportSink::~ReportSink() = default;

void addReportSink(ReportSink* sink, SinkRole role) {
    if (!sink) return;
    SinkRegistry& r = registry();
    std::lock_guard lock(r.mutex);
    r.installed.emplace_back(sink, role);
}

void removeReportSink(ReportSink* sink) {
    SinkRegistry& r = registry();
    std::unique_lock lock(r.mutex);
    std::erase_if(r.installed, [&](const auto& entry) { return entry.first == sink; });
    // Called from inside a report() (of this sink or another), waiting could deadlock: two
    // threads each delivering to a sink that removes itself would wait for each other.
    if (t_deliveries > 0) return;
    r.idle.wait(lock, [&] { return std::find(r.busy.begin(), r.busy.end(), sink) == r.busy.end(); });
}

bool shaderValidationEnabled() { return val::shaderValidationSettings().enabled; }

} // namespace metalcpu::validation

namespace metalcpu::val {

bool deliver(const validation::ShaderValidationReport& report, const ShaderValidationSettings& settings) {
    if (!settings.errorReporting) return true; // detected and contained, reported nowhere, as asked
    bool sinks = false;
    {
        validation::SinkRegistry& r = validation::registry();
        std::lock_guard lock(r.mutex);
        sinks = !r.installed.empty();
    }
    const std::string text = report.text();
    // Apple sends reports to the unified log; ours is the library's log, at a level that stays
    // quiet on stderr unless asked for (METALCPU_LOG_LEVEL=info).
    const std::string logged = "[GPUDebug] " + text;
    if (settings.reportToStderr) {
        {
            static std::mutex stderrMutex;
            std::lock_guard lock(stderrMutex);
            std::fputs(text.c_str(), stderr);
            std::fflush(stderr);
        }
        support::logExceptStderr(spdlog::level::info, logged); // on stderr once, not twice at level info
    } else {
        support::log().info("{}", logged);
    }
    if (!settings.jsonPath.empty()) {
        static std::mutex fileMutex;
        std::lock_guard lock(fileMutex);
        if (FILE* file = std::fopen(settings.jsonPath.c_str(), "a")) {
            std::string line = report.json() + "\n";
            std::fputs(line.c_str(), file);
            std::fclose(file);
        } else {
            support::log().error("shader validation: cannot append to {}", settings.jsonPath);
        }
    }
    // Counted for METALCPU_SHADER_VALIDATION_EXIT_CODE only when no owner took it: a report a
    // test expected (a collector) or failed on itself (a guard) must not fail the process too.
    if (!validation::deliverToSinks(report)) countUnexpectedReport();
    return settings.reportToStderr || !settings.jsonPath.empty() || sinks ||
           support::log().should_log(spdlog::level::info);
}

void noteReportsNotShown(std::size_t count, const std::string& kernel) {
    // Apple's reports go to the unified log, which a Mac user reads in Console.app or Xcode;
    // ours go to the library's log at level info, which nobody sees by default on Linux. The
    // first such dispatch says so once, so that a clean-looking run is not taken for a clean
    // kernel.
    static std::atomic<bool> noted{false};
    if (count == 0 || noted.exchange(true)) return;
    support::log().warn("shader validation made {} report{} in kernel '{}', sent to the log at level info, which is "
                        "not shown: set MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1 to print the reports on stderr (or "
                        "METALCPU_LOG_LEVEL=info); this note is printed once per process",
                        count, count == 1 ? "" : "s", kernel);
}

} // namespace metalcpu::val
