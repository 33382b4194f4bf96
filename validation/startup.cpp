#include "validation/startup.h"

#include "validation/exit_status.h"

#include "support/log.h"

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

namespace metalcpu::val {
namespace {

/// A variable Metal would act on and metalcpu does not must never pass silently: the program
/// would believe it is checked for something it is not.
void warnAboutUnimplementedVariables() {
    const std::vector<std::string> unimplemented = unimplementedAppleVariables();
    if (unimplemented.empty()) return;
    std::string names;
    for (const std::string& name : unimplemented) names += (names.empty() ? "" : ", ") + name;
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
        warnAboutUnimplementedVariables();
        warnAboutTheExitCodeSetting();
    });
}

} // namespace metalcpu::val
