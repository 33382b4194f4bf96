// Shader validation beyond Apple's: races on threadgroup memory and loads of threadgroup
// memory no thread stored to (METALCPU_SHADER_VALIDATION_CHECKS=races,uninitialized).
//
// The executor tells the dispatch's observer of every threadgroup access and barrier of an
// instrumented kernel (exec::DispatchObserver); this keeps, per worker, a shadow of the
// group's threadgroup memory, in the manner of Oclgrind's RaceDetector: for each byte, who
// last stored to it and who read it since the last barrier, and since when it holds a store.
// Instead of clearing the shadow at every barrier, each thread counts the barriers it passed
// (its epoch): a shadow byte whose epoch is not the accessing thread's is stale. The rule and
// what it does not catch: docs/validation.md, "Checks beyond Apple's".
#pragma once

#include "exec/dispatch_observer.h"
#include "validation/settings.h"

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace metalcpu::val {

/// The byte threadgroup memory is filled with while the uninitialized check is on: every
/// float, half and int it makes is a NaN or -1, so a kernel reading memory nothing wrote
/// goes wrong on metalcpu as it may on a GPU, instead of reading zeros.
inline constexpr unsigned char kThreadgroupPoison = 0xFF;

/// The checks of one dispatch.
class ThreadgroupChecks {
public:
    /// `base`: a report naming the dispatch (kernel, pipeline, encoder, command buffer), which
    /// each report starts from.
    ThreadgroupChecks(ExtraChecks checks, validation::ShaderValidationReport base);

    bool active() const { return checks_.races || checks_.uninitialized; }
    unsigned char fill() const { return checks_.uninitialized ? kThreadgroupPoison : 0; }

    exec::WorkerState* beginGroup(std::unique_ptr<exec::WorkerState>& state, const exec::ObservedGroup& group);
    void access(exec::WorkerState* state, std::uint32_t thread, std::uint64_t bits, std::uint64_t size,
                std::uint32_t op, const mc_site* site);
    void barrier(exec::WorkerState* state, std::uint32_t thread, std::uint32_t memFlags);
    void endGroup(exec::WorkerState* state);

    /// What the dispatch found: one report per site (uninitialised loads) or per pair of
    /// sites (races), with its count. Call once, after the dispatch.
    std::vector<validation::ShaderValidationReport> takeReports();

    /// A finding, as the shadow sees it: `site` and `thread` are the access just made;
    /// `otherSite`, `otherThread`, `otherOp` the earlier one of a race.
    struct Finding {
        validation::ReportKind kind;
        const mc_site* site;
        const mc_site* otherSite;
        std::uint32_t thread, otherThread;
        std::uint32_t op, otherOp;
        std::uint64_t bits, size;
        const mc_group* group;
        bool sameSimdgroup = false; ///< a race between two threads of one SIMD-group
    };
    void record(const Finding& finding);

    ExtraChecks checks() const { return checks_; }
    std::uint64_t serial() const { return serial_; }

private:
    ExtraChecks checks_;
    validation::ShaderValidationReport base_;
    std::uint64_t serial_; ///< tells this dispatch's checks from earlier ones at the same address

    std::mutex mutex_;
    /// The kind, whether a race is within one SIMD-group (a separate finding: a
    /// simdgroup_barrier mends it, not the other), and the two sides of a race (file, line,
    /// column, op) in a fixed order.
    using Key = std::tuple<int, bool, std::tuple<const char*, std::uint32_t, std::uint32_t, std::uint32_t>,
                           std::tuple<const char*, std::uint32_t, std::uint32_t, std::uint32_t>>;
    std::map<Key, std::size_t> index_;
    /// One per key: the report of the finding whose thread comes first in dispatch order
    /// (threadgroup, then thread; `orders_`), whichever group was checked first.
    std::vector<validation::ShaderValidationReport> reports_;
    std::vector<std::uint64_t> orders_;
};

} // namespace metalcpu::val
