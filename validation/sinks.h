// Where reports go: stderr, the library's log, a JSON-lines file and the installed sinks.
#pragma once

#include "validation/settings.h"

#include <metalcpu/Validation.hpp>

#include <spdlog/common.h>

#include <string>

namespace metalcpu::val {

/// Sends one report everywhere the settings say, and to every installed ReportSink. With
/// MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0 it sends nothing anywhere.
void deliver(const validation::ShaderValidationReport& report, const ShaderValidationSettings& settings);

/// Prints "Metal GPU Validation Enabled" once per process when shader validation is on.
void announceShaderValidation(const ShaderValidationSettings& settings);

/// Writes `message` to the library's log at `level`, leaving out the log's stderr sink: for
/// text the caller has just printed on stderr in Apple's form, so that it shows there once
/// and still reaches any other sink (a log file, a test's capture).
void logBesideStderr(spdlog::level::level_enum level, const std::string& message);

} // namespace metalcpu::val
