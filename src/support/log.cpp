#include "support/log.h"

#include "support/config.h"

#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cctype>
#include <mutex>
#include <set>

namespace metalcpu::support {

namespace {

/// The log's stderr sink, which logExceptStderr() leaves out.
const spdlog::sink_ptr& stderrSink() {
    static const spdlog::sink_ptr sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    return sink;
}

/// The sinks addLogSink() adds, behind one sink of the log: spdlog's logger reads its list
/// of sinks without a lock while it logs, so the list changes here, under this sink's mutex.
const std::shared_ptr<spdlog::sinks::dist_sink_mt>& addedSinks() {
    static const auto sinks = std::make_shared<spdlog::sinks::dist_sink_mt>();
    return sinks;
}

/// warnOnce() to a given logger: log() uses it while it is being made.
void warnOnceTo(spdlog::logger& logger, const std::string& message) {
    static std::mutex mutex;
    static std::set<std::string> given;
    {
        std::lock_guard lock(mutex);
        if (!given.insert(message).second) return;
    }
    logger.warn("{}", message);
}

} // namespace

spdlog::logger& log() {
    static std::shared_ptr<spdlog::logger> logger = [] {
        // Not registered with spdlog: stderr_color_mt("metalcpu") would throw when the host
        // program already has a logger of that name.
        auto made = std::make_shared<spdlog::logger>("metalcpu", stderrSink());
        made->set_pattern("[metalcpu] %^%l%$: %v");
        // After the pattern, which would otherwise replace the added sinks' own formats.
        made->sinks().push_back(addedSinks());
        // config() replaced a level that names none with the default, as one of its problems.
        made->set_level(logLevelNamed(config().logLevel).value_or(spdlog::level::warn));
        for (const std::string& problem : config().problems) warnOnceTo(*made, problem);
        return made;
    }();
    return *logger;
}

void addLogSink(spdlog::sink_ptr sink) {
    log(); // made first, so that its pattern does not replace the sink's
    addedSinks()->add_sink(std::move(sink));
}

void removeLogSink(const spdlog::sink_ptr& sink) { addedSinks()->remove_sink(sink); }

void logExceptStderr(spdlog::level::level_enum level, const std::string& message) {
    spdlog::logger& logger = log();
    if (!logger.should_log(level)) return;
    spdlog::logger beside(logger.name(), addedSinks());
    beside.set_level(logger.level());
    beside.log(level, "{}", message);
}

void warnOnce(const std::string& message) { warnOnceTo(log(), message); }

void warnAboutConfiguration() {
    for (const std::string& problem : config().problems) warnOnce(problem);
}

std::optional<spdlog::level::level_enum> logLevelNamed(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const struct {
        const char* name;
        spdlog::level::level_enum level;
    } kNames[] = {{"trace", spdlog::level::trace},       {"debug", spdlog::level::debug},
                  {"info", spdlog::level::info},         {"warn", spdlog::level::warn},
                  {"warning", spdlog::level::warn},      {"error", spdlog::level::err},
                  {"err", spdlog::level::err},           {"critical", spdlog::level::critical},
                  {"crit", spdlog::level::critical},     {"fatal", spdlog::level::critical},
                  {"off", spdlog::level::off},           {"none", spdlog::level::off}};
    for (const auto& entry : kNames)
        if (lower == entry.name) return entry.level;
    return std::nullopt;
}

} // namespace metalcpu::support
