// Where reports go: stderr, the library's log, a JSON-lines file and the installed sinks.
#pragma once

#include "validation/settings.h"

#include <metalcpu/Validation.hpp>

#include <string>

namespace metalcpu::val {

/// Sends one report everywhere the settings say, and to every installed ReportSink. With
/// MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0 it sends nothing anywhere.
void deliver(const validation::ShaderValidationReport& report, const ShaderValidationSettings& settings);

} // namespace metalcpu::val
