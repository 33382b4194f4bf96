// The switches of shader validation: Apple's MTL_SHADER_VALIDATION* variables plus metalcpu's
// own (docs/configuration.md lists them all).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::val {

/// MTL_SHADER_VALIDATION_FAIL_MODE: what an invalid access does after it is reported.
enum class FailMode {
    ZeroFill, ///< loads return zero, stores are dropped (Apple's default)
    Allow,    ///< the access happens when it stays inside memory metalcpu owns; else it is
              ///< contained and the command buffer fails with a page fault, as a GPU would
};

struct ShaderValidationSettings {
    bool enabled = false;       ///< MTL_SHADER_VALIDATION
    bool defaultOn = true;      ///< MTL_SHADER_VALIDATION_DEFAULT_STATE=all (else none)
    std::vector<std::string> enabledPipelines;  ///< MTL_SHADER_VALIDATION_ENABLE_PIPELINES (labels)
    std::vector<std::string> disabledPipelines; ///< MTL_SHADER_VALIDATION_DISABLE_PIPELINES
    FailMode failMode = FailMode::ZeroFill;
    bool abortOnFault = false;   ///< MTL_SHADER_VALIDATION_ABORT_ON_FAULT: print, then abort()
    bool reportToStderr = false; ///< MTL_SHADER_VALIDATION_REPORT_TO_STDERR
    bool errorReporting = true;  ///< MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING
    bool globalMemory = true;    ///< MTL_SHADER_VALIDATION_GLOBAL_MEMORY: device and constant checks
    bool threadgroupMemory = true; ///< MTL_SHADER_VALIDATION_THREADGROUP_MEMORY
    std::string jsonPath;          ///< METALCPU_SHADER_VALIDATION_JSON: append reports as JSON lines
    bool failCommandBuffer = false; ///< METALCPU_SHADER_VALIDATION_FAILS_COMMAND_BUFFER
};

/// The settings, read from the environment the first time they are asked for (the device
/// asks when it is created, as Metal reads them then).
ShaderValidationSettings shaderValidationSettings();

/// Replaces the settings (tests); nullopt goes back to the environment's.
void overrideShaderValidationSettings(std::optional<ShaderValidationSettings> settings);

/// Whether a pipeline is instrumented. `descriptorState` is MTL::ShaderValidation's value
/// (0 default, 1 enabled, 2 disabled); an explicit Enabled instruments the pipeline even when
/// MTL_SHADER_VALIDATION is off, so a single test can ask for it.
bool pipelineIsValidated(const ShaderValidationSettings& settings, int descriptorState, const std::string& label);

} // namespace metalcpu::val
