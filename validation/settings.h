// The switches of shader validation: Apple's MTL_SHADER_VALIDATION* variables plus metalcpu's
// own (docs/configuration.md lists them all).
#pragma once

#include <chrono>
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

/// METALCPU_SHADER_VALIDATION_CHECKS: checks Apple's shader validation does not make.
struct ExtraChecks {
    bool races = false;         ///< threadgroup memory touched by two threads between barriers, one storing
    bool uninitialized = false; ///< threadgroup memory read before any thread of the group wrote it
    bool barriers = false;      ///< a barrier some threads of the group reach and others do not
    /// device memory one dispatch stores to and another of the same concurrent span touches,
    /// with no barrier between them (dispatch_hazards.h)
    bool hazards = false;
    bool any() const { return races || uninitialized || barriers || hazards; }
};

struct ShaderValidationSettings {
    bool enabled = false;       ///< MTL_SHADER_VALIDATION
    bool defaultOn = true;      ///< MTL_SHADER_VALIDATION_DEFAULT_STATE=all (else none)
    std::vector<std::string> enabledPipelines;  ///< MTL_SHADER_VALIDATION_ENABLE_PIPELINES (labels, UIDs)
    std::vector<std::string> disabledPipelines; ///< MTL_SHADER_VALIDATION_DISABLE_PIPELINES
    bool dumpPipelines = false;                 ///< MTL_SHADER_VALIDATION_DUMP_PIPELINES
    FailMode failMode = FailMode::ZeroFill;
    bool abortOnFault = false;   ///< MTL_SHADER_VALIDATION_ABORT_ON_FAULT: print, then abort()
    bool reportToStderr = false; ///< MTL_SHADER_VALIDATION_REPORT_TO_STDERR
    bool errorReporting = true;  ///< MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING
    bool globalMemory = true;    ///< MTL_SHADER_VALIDATION_GLOBAL_MEMORY: device and constant checks
    bool threadgroupMemory = true; ///< MTL_SHADER_VALIDATION_THREADGROUP_MEMORY
    std::string jsonPath;          ///< METALCPU_SHADER_VALIDATION_JSON: append reports as JSON lines
    bool failCommandBuffer = false; ///< METALCPU_SHADER_VALIDATION_FAILS_COMMAND_BUFFER
    /// METALCPU_SHADER_VALIDATION_WAIT_LIMIT: how long the GoogleTest helpers wait for a test's
    /// command buffers before they fail it and go on; 0: for ever.
    std::chrono::milliseconds waitLimit{60'000};
    ExtraChecks extraChecks; ///< METALCPU_SHADER_VALIDATION_CHECKS
};

/// The settings, read from the environment the first time they are asked for (the device
/// asks when it is created, as Metal reads them then).
ShaderValidationSettings shaderValidationSettings();

/// Replaces the settings (tests); nullopt goes back to the environment's.
void overrideShaderValidationSettings(std::optional<ShaderValidationSettings> settings);

/// Names a pipeline in MTL_SHADER_VALIDATION_ENABLE_PIPELINES / _DISABLE_PIPELINES.
struct PipelineIdentity {
    std::string label; ///< empty when it has none
    std::string uid;   ///< its Shader Validation UID
};

/// Whether a pipeline is instrumented, as Apple documents it: with MTL_SHADER_VALIDATION on,
/// the lists (by label or UID; ENABLE only when the default state is none, DISABLE only when
/// it is all) override the descriptor's `descriptorState` (MTL::ShaderValidation: 0 default,
/// 1 enabled, 2 disabled), which overrides the default state. With it off, metalcpu still
/// instruments a pipeline whose descriptor says Enabled, so a single test can ask for it
/// (docs/validation.md, "Which pipelines").
bool pipelineIsValidated(const ShaderValidationSettings& settings, int descriptorState,
                         const PipelineIdentity& pipeline);

/// Whether metalcpu acts on an Apple variable.
enum class AppleVariableStatus { Implemented, Ignored };

/// One row of validation/apple_variables.def, the list of Apple's validation variables.
struct AppleVariable {
    const char* name;
    AppleVariableStatus status;
    const char* harmless; ///< the value with which ignoring it changes nothing; "" when none does
    const char* whyNot;   ///< why metalcpu ignores it; "" when it does not
};

/// Every Apple validation variable metalcpu knows, in apple_variables.def's order.
const std::vector<AppleVariable>& appleVariables();

/// The Apple variables set (non-empty) in the environment that ask for something metalcpu does
/// not do: MTL_SHADER_VALIDATION* ones while shader validation is on and MTL_DEBUG_LAYER* ones
/// while the debug layer is, that apple_variables.def lists as Ignored — unless set to their
/// harmless value — or does not list at all (a misspelt one, or one Apple adds later). In the
/// environment's order.
std::vector<std::string> ignoredAppleVariablesSet(bool shaderValidationOn, bool debugLayerOn);

} // namespace metalcpu::val
