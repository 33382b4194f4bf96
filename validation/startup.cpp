#include "validation/startup.h"

#include "validation/exit_status.h"

#include "support/config.h"
#include "support/log.h"

#include <cstdio>
#include <mutex>

namespace metalcpu::val {
namespace {

void armExitCodeFromEnvironment() {
    const int code = support::config().shaderValidationExitCode;
    if (code == 0) return;
    if (code < 0 || code > 255) {
        support::log().warn("METALCPU_SHADER_VALIDATION_EXIT_CODE={} is not an exit status (1 to 255); ignored", code);
        return;
    }
    armExitCode(code);
}

} // namespace

void startShaderValidation(const ShaderValidationSettings& settings) {
    static std::once_flag once;
    std::call_once(once, [&] {
        if (settings.enabled) std::fputs("Metal GPU Validation Enabled\n", stderr);
        armExitCodeFromEnvironment();
    });
}

} // namespace metalcpu::val
