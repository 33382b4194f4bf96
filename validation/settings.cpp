#include "validation/settings.h"

#include "validation/sinks.h"

#include "support/config.h"
#include "support/log.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <initializer_list>
#include <iterator>
#include <mutex>
#include <unistd.h>

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

/// METALCPU_SHADER_VALIDATION_WAIT_LIMIT: seconds, fractions allowed. Anything else is named
/// in a warning and gives the default: a typo must not turn a bounded wait into a hang.
std::chrono::milliseconds waitLimit(std::chrono::milliseconds fallback) {
    constexpr const char* kWaitLimit = "METALCPU_SHADER_VALIDATION_WAIT_LIMIT";
    const std::string value = support::config().shaderValidationWaitLimit;
    if (value.empty()) return fallback;
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    // At most a day, which also keeps the milliseconds far from overflowing.
    if (end == value.c_str() || *end != '\0' || !(seconds >= 0 && seconds <= 86400)) {
        support::log().warn("{}={} is not a number of seconds (0 to 86400); waiting at most {} s", kWaitLimit, value,
                            fallback.count() / 1000.0);
        return fallback;
    }
    // A positive limit stays one: rounded to 0 it would mean no limit at all.
    const auto limit = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000 + 0.5));
    return seconds > 0 ? std::max(limit, std::chrono::milliseconds(1)) : limit;
}

/// METALCPU_SHADER_VALIDATION_CHECKS: a comma-separated list of check names, or `all`. A name
/// it does not know is named in a warning and skipped, so a typo never passes for a check.
ExtraChecks extraChecks() {
    ExtraChecks checks;
    const std::string value = support::config().shaderValidationChecks;
    std::size_t begin = 0;
    while (begin <= value.size()) {
        std::size_t end = value.find(',', begin);
        if (end == std::string::npos) end = value.size();
        std::string name = value.substr(begin, end - begin);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (name == "races" || name == "all") checks.races = true;
        if (name == "uninitialized" || name == "all") checks.uninitialized = true;
        if (name == "barriers" || name == "all") checks.barriers = true;
        if (name == "hazards" || name == "all") checks.hazards = true;
        if (!name.empty() && name != "races" && name != "uninitialized" && name != "barriers" && name != "hazards" &&
            name != "all")
            support::log().warn("METALCPU_SHADER_VALIDATION_CHECKS: unknown check '{}' ignored (races, "
                                "uninitialized, barriers, hazards or all)",
                                name);
        begin = end + 1;
    }
    return checks;
}

constexpr AppleVariable kAppleVariables[] = {
#define METALCPU_APPLE_VARIABLE(variable, status, harmless, whyNot) \
    {#variable, AppleVariableStatus::status, harmless, whyNot},
#include "validation/apple_variables.def"
#undef METALCPU_APPLE_VARIABLE
};

/// The rows of apple_variables.def, by the variable's name.
enum class Apple : std::size_t {
#define METALCPU_APPLE_VARIABLE(variable, status, harmless, whyNot) variable,
#include "validation/apple_variables.def"
#undef METALCPU_APPLE_VARIABLE
};

/// The name of an Apple variable this file reads: its row must say it is implemented.
template <Apple variable>
constexpr const char* implemented() {
    constexpr AppleVariable row = kAppleVariables[static_cast<std::size_t>(variable)];
    static_assert(row.status == AppleVariableStatus::Implemented,
                  "apple_variables.def lists it as ignored: implement it there too, and in docs/configuration.md");
    return row.name;
}

constexpr const char* kEnabled = implemented<Apple::MTL_SHADER_VALIDATION>();
constexpr const char* kDefaultState = implemented<Apple::MTL_SHADER_VALIDATION_DEFAULT_STATE>();
constexpr const char* kEnablePipelines = implemented<Apple::MTL_SHADER_VALIDATION_ENABLE_PIPELINES>();
constexpr const char* kDisablePipelines = implemented<Apple::MTL_SHADER_VALIDATION_DISABLE_PIPELINES>();
constexpr const char* kDumpPipelines = implemented<Apple::MTL_SHADER_VALIDATION_DUMP_PIPELINES>();
constexpr const char* kFailMode = implemented<Apple::MTL_SHADER_VALIDATION_FAIL_MODE>();
constexpr const char* kAbortOnFault = implemented<Apple::MTL_SHADER_VALIDATION_ABORT_ON_FAULT>();
constexpr const char* kReportToStderr = implemented<Apple::MTL_SHADER_VALIDATION_REPORT_TO_STDERR>();
constexpr const char* kErrorReporting = implemented<Apple::MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING>();
constexpr const char* kGlobalMemory = implemented<Apple::MTL_SHADER_VALIDATION_GLOBAL_MEMORY>();
constexpr const char* kThreadgroupMemory = implemented<Apple::MTL_SHADER_VALIDATION_THREADGROUP_MEMORY>();

ShaderValidationSettings fromEnvironment() {
    ShaderValidationSettings s;
    s.enabled = flag(kEnabled, false);
    s.defaultOn = option(kDefaultState, {"all", "none"}) == "all";
    s.enabledPipelines = list(kEnablePipelines);
    s.disabledPipelines = list(kDisablePipelines);
    s.dumpPipelines = flag(kDumpPipelines, false);
    if (option(kFailMode, {"zerofill", "allow"}) == "allow") s.failMode = FailMode::Allow;
    s.abortOnFault = flag(kAbortOnFault, false);
    s.reportToStderr = flag(kReportToStderr, false);
    s.errorReporting = flag(kErrorReporting, true);
    s.globalMemory = flag(kGlobalMemory, true);
    s.threadgroupMemory = flag(kThreadgroupMemory, true);
    s.jsonPath = support::config().shaderValidationJson;
    s.failCommandBuffer = support::config().shaderValidationFailsCommandBuffer != 0;
    s.waitLimit = waitLimit(s.waitLimit);
    s.extraChecks = extraChecks();
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

bool pipelineIsValidated(const ShaderValidationSettings& settings, int descriptorState,
                         const PipelineIdentity& pipeline) {
    constexpr int kDescriptorEnabled = 1, kDescriptorDisabled = 2;
    if (!settings.enabled) return descriptorState == kDescriptorEnabled; // metalcpu's extension
    auto listed = [&](const std::vector<std::string>& names) {
        return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
            return (!pipeline.label.empty() && name == pipeline.label) || (!pipeline.uid.empty() && name == pipeline.uid);
        });
    };
    if (!settings.defaultOn && listed(settings.enabledPipelines)) return true;
    if (settings.defaultOn && listed(settings.disabledPipelines)) return false;
    if (descriptorState == kDescriptorEnabled) return true;
    if (descriptorState == kDescriptorDisabled) return false;
    return settings.defaultOn;
}

const std::vector<AppleVariable>& appleVariables() {
    static const std::vector<AppleVariable> rows(std::begin(kAppleVariables), std::end(kAppleVariables));
    return rows;
}

std::vector<std::string> ignoredAppleVariablesSet(bool shaderValidationOn, bool debugLayerOn) {
    std::vector<std::string> ignored;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string assignment = *entry;
        const std::size_t equals = assignment.find('=');
        if (equals == std::string::npos || equals + 1 == assignment.size()) continue; // unset or empty
        const std::string name = assignment.substr(0, equals), value = assignment.substr(equals + 1);
        // Like Apple's other variables, they matter only while their layer is on.
        const bool layerOn = name.rfind("MTL_SHADER_VALIDATION", 0) == 0   ? shaderValidationOn
                             : name.rfind("MTL_DEBUG_LAYER", 0) == 0        ? debugLayerOn
                                                                            : false;
        if (!layerOn) continue;
        const auto row = std::find_if(std::begin(kAppleVariables), std::end(kAppleVariables),
                                      [&](const AppleVariable& known) { return name == known.name; });
        if (row == std::end(kAppleVariables)) ignored.push_back(name); // not known at all: a typo or a new one
        else if (row->status == AppleVariableStatus::Ignored && value != row->harmless) ignored.push_back(name);
    }
    return ignored;
}

} // namespace metalcpu::val
