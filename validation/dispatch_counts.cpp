#include "validation/dispatch_counts.h"

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

} // namespace metalcpu::validation
