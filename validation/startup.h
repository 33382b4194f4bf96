// What shader validation does when a device is created, the moment Metal reads its variables.
#pragma once

#include "validation/settings.h"

namespace metalcpu::val {

/// Once per process: prints "Metal GPU Validation Enabled" when shader validation is on,
/// names in one warning the Apple validation variables set that metalcpu does not implement,
/// and warns when METALCPU_SHADER_VALIDATION_EXIT_CODE is not an exit status.
void startShaderValidation(const ShaderValidationSettings& settings);

} // namespace metalcpu::val
