#include "validation/sinks.h"

#include "support/log.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <vector>

namespace metalcpu::validation {

namespace {

std::shared_mutex& sinkMutex() {
    static std::shared_mutex mutex;
    return mutex;
}

std::vector<ReportSink*>& sinks() {
    static std::vector<ReportSink*> list;
    return list;
}

} // namespace

ReportSink::~ReportSink() = default;

void addReportSink(ReportSink* sink) {
    if (!sink) return;
    std::unique_lock lock(sinkMutex());
    sinks().push_back(sink);
}

void removeReportSink(ReportSink* sink) {
    std::unique_lock lock(sinkMutex());
    auto& list = sinks();
    list.erase(std::remove(list.begin(), list.end(), sink), list.end());
}

bool shaderValidationEnabled() { return val::shaderValidationSettings().enabled; }

} // namespace metalcpu::validation

namespace metalcpu::val {

void deliver(const validation::ShaderValidationReport& report, const ShaderValidationSettings& settings) {
    if (settings.errorReporting) {
        const std::string text = report.text();
        if (settings.reportToStderr) {
            static std::mutex stderrMutex;
            std::lock_guard lock(stderrMutex);
            std::fputs(text.c_str(), stderr);
            std::fflush(stderr);
        }
        // Apple sends reports to the unified log; ours is the library's log, at a level that
        // stays quiet on stderr unless asked for (METALCPU_LOG_LEVEL=info).
        support::log().info("[GPUDebug] {}", text);
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
    }
    std::shared_lock lock(validation::sinkMutex());
    for (validation::ReportSink* sink : validation::sinks()) sink->report(report);
}

void announceShaderValidation(const ShaderValidationSettings& settings) {
    if (!settings.enabled) return;
    static std::once_flag once;
    std::call_once(once, [] { std::fputs("Metal GPU Validation Enabled\n", stderr); });
}

} // namespace metalcpu::val
