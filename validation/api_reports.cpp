#include "validation/api_reports.h"

#include <metalcpu/Validation.hpp>

#include <cstdint>
#include <algorithm>
#include <deque>
#include <mutex>

namespace metalcpu::val {
namespace {

/// A program that logs the same mistake in a loop must not grow without bound: the texts of
/// the latest kKept reports are kept, the count goes on.
constexpr std::size_t kKept = 256;

struct ApiReports {
    std::mutex mutex;
    std::uint64_t count = 0;
    std::deque<std::string> latest; ///< reports count - latest.size() + 1 ... count
};

ApiReports& apiReports() {
    static ApiReports* reports = new ApiReports; // never destroyed: the layer may report at exit
    return *reports;
}

} // namespace

void noteApiValidationReport(const std::string& text) {
    ApiReports& reports = apiReports();
    std::lock_guard lock(reports.mutex);
    ++reports.count;
    reports.latest.push_back(text);
    if (reports.latest.size() > kKept) reports.latest.pop_front();
}

} // namespace metalcpu::val

namespace metalcpu::validation {

std::uint64_t apiValidationReportCount() {
    val::ApiReports& reports = val::apiReports();
    std::lock_guard lock(reports.mutex);
    return reports.count;
}

std::vector<std::string> apiValidationReportsSince(std::uint64_t count, std::uint64_t* next) {
    val::ApiReports& reports = val::apiReports();
    std::lock_guard lock(reports.mutex);
    if (next) *next = std::max(count, reports.count);
    std::vector<std::string> since;
    if (count >= reports.count) return since;
    const std::uint64_t firstKept = reports.count - reports.latest.size();
    if (count < firstKept)
        since.push_back("(" + std::to_string(firstKept - count) + " earlier debug-layer reports were not kept)");
    for (std::uint64_t n = std::max(count, firstKept); n < reports.count; ++n)
        since.push_back(reports.latest[static_cast<std::size_t>(n - firstKept)]);
    return since;
}

} // namespace metalcpu::validation
