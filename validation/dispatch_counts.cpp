#include "validation/dispatch_counts.h"

#include "validation/settings.h"

#include <metalcpu/Validation.hpp>

#include <atomic>
#include <cstdint>

namespace metalcpu::val {
namespace {

std::atomic<std::uint64_t> g_dispatches{0}, g_validatedDispatches{0};

} // namespace

void dispatchExecuted(bool validated) {
    g_dispatches.fetch_add(1, std::memory_order_relaxed);
    if (validated) g_validatedDispatches.fetch_add(1, std::memory_order_relaxed);
}

} // namespace metalcpu::val

namespace metalcpu::validation {

DispatchCounts dispatchCounts() {
    // Validated first: a dispatch counted in between shows as unvalidated, never the reverse.
    DispatchCounts counts;
    counts.validated = val::g_validatedDispatches.load(std::memory_order_relaxed);
    counts.total = val::g_dispatches.load(std::memory_order_relaxed);
    return counts;
}

std::string whyDispatchesWereNotValidated() {
    const val::ShaderValidationSettings settings = val::shaderValidationSettings();
    if (!settings.enabled) return "Run with MTL_SHADER_VALIDATION=1";
    if (!settings.defaultOn)
        return "MTL_SHADER_VALIDATION_DEFAULT_STATE=none validates only the pipelines named in "
               "MTL_SHADER_VALIDATION_ENABLE_PIPELINES (labels or UIDs, which MTL_SHADER_VALIDATION_DUMP_PIPELINES=1 "
               "prints) and those whose descriptor enables it";
    if (!settings.disabledPipelines.empty())
        return "MTL_SHADER_VALIDATION_DISABLE_PIPELINES, or descriptors that say ShaderValidationDisabled, left the "
               "pipelines out";
    return "The pipelines' descriptors say ShaderValidationDisabled";
}

} // namespace metalcpu::validation
