#pragma once

#include <spdlog/spdlog.h>

#include <string>

namespace metalcpu::support {

/// The project's logger ("metalcpu"). Everything the library reports to people goes
/// through it; validation reports additionally go to their own sinks.
spdlog::logger& log();

/// Writes `message` to the library's log at `level`, leaving out the log's own stderr sink:
/// for text the caller has just printed on stderr in Apple's form, so that it shows there
/// once and still reaches any other sink (a log file, a test's capture).
void logExceptStderr(spdlog::level::level_enum level, const std::string& message);

} // namespace metalcpu::support
