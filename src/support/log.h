#pragma once

#include <spdlog/spdlog.h>

// Every message formatted with arguments runs fmt's vformat_to<char>. fmt 9's shared library
// holds its code, but the header does not say so (fmt 10's does), so each file that logs with
// arguments compiled a copy of its own, floating-point printing included: some 4 s of CPU
// at -O2 per file. This declaration makes those files call the library's copy.
#if defined(SPDLOG_FMT_EXTERNAL) && !defined(FMT_HEADER_ONLY) && FMT_VERSION >= 90000 && FMT_VERSION < 100000
FMT_BEGIN_NAMESPACE
namespace detail {
extern template void vformat_to<char>(buffer<char>&, basic_string_view<char>,
                                      basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);
} // namespace detail
FMT_END_NAMESPACE
#endif

#include <optional>
#include <string>
#include <string_view>

namespace metalcpu::support {

/// The project's logger ("metalcpu"). Everything the library reports to people goes
/// through it; validation reports additionally go to their own sinks. Made at first use,
/// when it also logs what is wrong with the environment (warnAboutConfiguration()).
spdlog::logger& log();

/// Adds `sink` to the library's log, beside its stderr sink: it receives every message the
/// log passes, from any thread, until removeLogSink(). Safe while other threads log (the
/// logger's own list of sinks is not, so nothing changes that list after log() made it).
void addLogSink(spdlog::sink_ptr sink);
/// Removes a sink addLogSink() added; once this returns no thread is writing into it.
void removeLogSink(const spdlog::sink_ptr& sink);

/// Writes `message` to the library's log at `level`, leaving out the log's own stderr sink:
/// for text the caller has just printed on stderr in Apple's form, so that it shows there
/// once and still reaches any other sink (a log file, a test's capture).
void logExceptStderr(spdlog::level::level_enum level, const std::string& message);

/// Logs `message` as a warning the first time this process gives it, and never again: for
/// a problem that every call would otherwise repeat (a bad environment variable).
void warnOnce(const std::string& message);

/// Warns once about each of the configuration's problems (Config::problems): unknown
/// METALCPU_ variables and values that cannot be used. Called where a program starts using
/// metalcpu (the first device, the first kernel compile), so that a typo is never silent.
void warnAboutConfiguration();

/// The level METALCPU_LOG_LEVEL names: trace, debug, info, warn (warning), error (err),
/// critical (crit, fatal) or off (none), in any case; nullopt for anything else.
std::optional<spdlog::level::level_enum> logLevelNamed(std::string_view name);

} // namespace metalcpu::support
