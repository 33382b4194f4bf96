// Where reports go: stderr, the library's log, a JSON-lines file and the installed sinks.
#pragma once

#include "validation/settings.h"

#include <metalcpu/Validation.hpp>

#include <cstddef>
#include <string>

namespace metalcpu::val {

/// Sends one report everywhere the settings say, and to every installed ReportSink. With
/// MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0 it sends nothing anywhere. Returns whether
/// the report reached a place the program or its user looks at (stderr, the JSON file, a sink,
/// or a log level that shows info); false when it went only to the log, unseen.
bool deliver(const validation::ShaderValidationReport& report, const ShaderValidationSettings& settings);

/// The first time in the process, a warning that `count` reports of a dispatch of `kernel`
/// went unseen, naming MTL_SHADER_VALIDATION_REPORT_TO_STDERR (docs/validation.md, "Where
/// reports go"). Later calls do nothing.
void noteReportsNotShown(std::size_t count, const std::string& kernel);

} // namespace metalcpu::val
