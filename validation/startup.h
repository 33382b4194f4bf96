// What shader validation does when a device is created, the moment Metal reads its variables.
#pragma once

#include "validation/settings.h"

namespace metalcpu::val {

/// Once per process: prints "Metal GPU Validation Enabled" when shader validation is on, and
/// arms METALCPU_SHADER_VALIDATION_EXIT_CODE.
void startShaderValidation(const ShaderValidationSettings& settings);

} // namespace metalcpu::val
