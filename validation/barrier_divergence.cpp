// The barrier-divergence check (METALCPU_SHADER_VALIDATION_CHECKS=barriers): a round of a
// threadgroup barrier that not all the group's threads reached, as the lowering running the
// kernel found it (metalcpu/barrier_rounds.h), becomes a report of the barrier's site.
#include "validation/dispatch_validation.h"

#include <cstdio>
#include <cstdlib>

namespace metalcpu::val {
namespace {

validation::SourceLocation locationOf(const mc_simd_site& site) {
    validation::SourceLocation location;
    location.file = site.file ? site.file : "";
    location.line = site.line;
    location.column = site.column;
    return location;
}

} // namespace

void DispatchValidation::barrierRound(const mc_barrier_round& round, const mc_group& group) {
    // Once a group's threads have met at different barriers, every later round of the group
    // pairs them up wrongly too: only the first, the cause, is reported.
    const mc_u32* groups = group.dispatch->threadgroups_per_grid;
    const std::uint64_t linear =
        group.position[0] + std::uint64_t(groups[0]) * (group.position[1] + std::uint64_t(groups[1]) * group.position[2]);
    {
        std::lock_guard lock(mutex_);
        if (!divergedGroups_.insert(linear).second) return;
    }
    validation::ShaderValidationReport report = namedReport();
    report.kind = round.site.kind == MC_SIMD_BARRIER_KIND ? validation::ReportKind::SimdgroupBarrierDivergence
                  : round.elsewhere > 0                   ? validation::ReportKind::BarrierDivergence
                                                          : validation::ReportKind::BarrierAfterReturn;
    report.addressSpace = validation::AddressSpace::Threadgroup;
    report.location = locationOf(round.site);
    report.barrier.threads = round.threads;
    report.barrier.reached = round.reached;
    report.barrier.elsewhere = round.elsewhere;
    report.barrier.returned = round.finished;
    if (round.elsewhere > 0) report.barrier.other = locationOf(round.other);

    const std::uint32_t sx = group.size[0] ? group.size[0] : 1, sy = group.size[1] ? group.size[1] : 1;
    const std::uint32_t missing = round.first_missing;
    report.threadPositionInThreadgroup = {missing % sx, (missing / sx) % sy, missing / (sx * sy)};
    report.threadgroupPositionInGrid = {group.position[0], group.position[1], group.position[2]};
    const mc_u32* perGroup = group.dispatch->threads_per_threadgroup;
    report.threadPositionInGrid = {group.position[0] * perGroup[0] + report.threadPositionInThreadgroup.x,
                                   group.position[1] * perGroup[1] + report.threadPositionInThreadgroup.y,
                                   group.position[2] * perGroup[2] + report.threadPositionInThreadgroup.z};
    if (settings_.abortOnFault) {
        std::fputs(report.text().c_str(), stderr);
        std::fflush(stderr);
        std::abort();
    }
    record(std::move(report));
}

} // namespace metalcpu::val
