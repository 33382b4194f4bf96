#include "support/log.h"

#include "support/config.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <vector>

namespace metalcpu::support {

namespace {

/// The log's stderr sink, which logExceptStderr() leaves out.
const spdlog::sink_ptr& stderrSink() {
    static const spdlog::sink_ptr sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    return sink;
}

} // namespace

spdlog::logger& log() {
    static std::shared_ptr<spdlog::logger> logger = [] {
        // Not registered with spdlog: stderr_color_mt("metalcpu") would throw when the host
        // program already has a logger of that name.
        auto made = std::make_shared<spdlog::logger>("metalcpu", stderrSink());
        made->set_pattern("[metalcpu] %^%l%$: %v");
        made->set_level(spdlog::level::from_str(config().logLevel));
        return made;
    }();
    return *logger;
}

void logExceptStderr(spdlog::level::level_enum level, const std::string& message) {
    spdlog::logger& logger = log();
    if (!logger.should_log(level)) return;
    std::vector<spdlog::sink_ptr> others;
    for (const spdlog::sink_ptr& sink : logger.sinks())
        if (sink != stderrSink()) others.push_back(sink);
    if (others.empty()) return;
    spdlog::logger beside(logger.name(), others.begin(), others.end());
    beside.set_level(logger.level());
    beside.log(level, "{}", message);
}

} // namespace metalcpu::support
