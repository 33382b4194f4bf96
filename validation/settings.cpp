#include "validation/settings.h"

#include "validation/sinks.h"

#include "support/config.h"
#include "support/log.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <mutex>

namespace metalcpu::val {
namespace {

bool flag(const char* name, bool fallback) {
    std::string value = support::environment(name);
    if (value.empty()) return fallback;
    return value != "0" && value != "NO" && value != "no" && value != "false";
}

std::vector<std::string> list(const char* name) {
    std::vector<std::string> out;
    std::string value = support::environment(name);
    std::size_t start = 0;
    while (start <= value.size() && !value.empty()) {
        std::size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        if (comma > start) out.push_back(value.substr(start, comma - start)); // spaces are part of names
        start = comma + 1;
    }
    return out;
}

/// The value of `name` when it is one of `valid` (the first is the default). Anything else
/// prints Apple's complaint, one valid option per tab-indented line, and gives the default.
std::string option(const char* name, std::initializer_list<const char*> valid) {
    std::string value = support::environment(name);
    if (value.empty()) return *valid.begin();
    for (const char* v : valid)
        if (value == v) return value;
    std::string message = std::string("Invalid option for ") + name + ", valid options are:";
    for (const char* v : valid) message += std::string("\n\t") + v;
    std::fputs((message + "\n").c_str(), stderr);
    std::fflush(stderr);
    support::logExceptStderr(spdlog::level::warn, message);
    return *valid.begin();
}

ShaderValidationSettings fromEnvironment() {
    ShaderValidationSettings s;
    s.enabled = flag("MTL_SHADER_VALIDATION", false);
    s.defaultOn = option("MTL_SHADER_VALIDATION_DEFAULT_STATE", {"all", "none"}) == "all";
    s.enabledPipelines = list("MTL_SHADER_VALIDATION_ENABLE_PIPELINES");
    s.disabledPipelines = list("MTL_SHADER_VALIDATION_DISABLE_PIPELINES");
    if (option("MTL_SHADER_VALIDATION_FAIL_MODE", {"zerofill", "allow"}) == "allow") s.failMode = FailMode::Allow;
    s.abortOnFault = flag("MTL_SHADER_VALIDATION_ABORT_ON_FAULT", false);
    s.reportToStderr = flag("MTL_SHADER_VALIDATION_REPORT_TO_STDERR", false);
    s.errorReporting = flag("MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING", true);
    s.globalMemory = flag("MTL_SHADER_VALIDATION_GLOBAL_MEMORY", true);
    s.threadgroupMemory = flag("MTL_SHADER_VALIDATION_THREADGROUP_MEMORY", true);
    s.jsonPath = support::config().shaderValidationJson;
    s.failCommandBuffer = support::config().shaderValidationFailsCommandBuffer != 0;
    return s;
}

std::mutex g_mutex;
std::optional<ShaderValidationSettings> g_override;

} // namespace

ShaderValidationSettings shaderValidationSettings() {
    static const ShaderValidationSettings environment = fromEnvironment();
    std::lock_guard lock(g_mutex);
    return g_override ? *g_override : environment;
}

void overrideShaderValidationSettings(std::optional<ShaderValidationSettings> settings) {
    std::lock_guard lock(g_mutex);
    g_override = std::move(settings);
}

bool pipelineIsValidated(const ShaderValidationSettings& settings, int descriptorState, const std::string& label) {
    auto listed = [&](const std::vector<std::string>& names) {
        return !label.empty() && std::find(names.begin(), names.end(), label) != names.end();
    };
    if (descriptorState == 1) return true;
    if (descriptorState == 2 || !settings.enabled) return false;
    if (settings.defaultOn) return !listed(settings.disabledPipelines);
    return listed(settings.enabledPipelines);
}

} // namespace metalcpu::val
