#include "validation/startup.h"

#include "validation/exit_status.h"

#include "support/config.h"
#include "support/log.h"

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace metalcpu::val {
namespace {

/// A variable Metal would act on and metalcpu does not must never pass silently: the program
/// would believe it is checked for something it is not.
void warnAboutUnimplementedVariables(const ShaderValidationSettings& settings) {
    const support::Config& config = support::config();
    const bool debugLayerOn = config.debugLayer != 0 || config.deviceWrapperType == 1; // as runtime/debug_layer.cpp
    const std::vector<std::string> ignored = ignoredAppleVariablesSet(settings.enabled, debugLayerOn);
    if (ignored.empty()) return;
    std::string names;
    for (const std::string& name : ignored) names += (names.empty() ? "" : ", ") + name;
    const std::string message = "metalcpu does not implement " + names +
                                "; it is ignored (docs/configuration.md lists the validation variables metalcpu "
                                "implements)";
    std::fputs(("warning: " + message + "\n").c_str(), stderr);
    std::fflush(stderr);
    support::logExceptStderr(spdlog::level::warn, message);
}

} // namespace

void startShaderValidation(const ShaderValidationSettings& settings) {
    static std::once_flag once;
    std::call_once(once, [&] {
        if (settings.enabled) std::fputs("Metal GPU Validation Enabled\n", stderr);
        warnAboutUnimplementedVariables(settings);
        warnAboutTheExitCodeSetting();
    });
}

} // namespace metalcpu::val
