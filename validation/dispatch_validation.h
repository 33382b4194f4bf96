// Shader validation of one dispatch: tags for its buffer bindings, the handling of each
// invalid access (report, contain), and the delivery of the reports when it ends.
#pragma once

#include "exec/dispatch_observer.h"
#include "exec/regions.h"
#include "validation/dispatch_hazards.h"
#include "validation/settings.h"
#include "validation/threadgroup_checks.h"

#include <metalcpu/Validation.hpp>
#include <metalcpu/kernel_abi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace metalcpu::val {

/// Names a dispatch in reports.
struct DispatchInfo {
    std::string kernel;
    std::string kernelFrameName; ///< mc_kernel::frame_name
    std::string pipelineLabel;
    std::string pipelineUid;
    std::string encoderLabel;
    std::uint64_t dispatchIndex = 0;
    /// The dispatches a GPU may run at the same time as this one (dispatch_hazards.h): its
    /// encoder's span up to the next barrier; 0 in a serial encoder.
    std::uint64_t concurrentSpan = 0;
};

/// One [[buffer(n)]] argument as bound when the dispatch was encoded.
struct BufferBinding {
    std::uint32_t index = 0;
    std::string argumentName;
    validation::AddressSpace space = validation::AddressSpace::Device;
    bool bound = false;
    std::uint64_t boundAddress = 0;   ///< contents + offset, or the setBytes copy
    std::uint64_t resourceBegin = 0;  ///< the buffer's contents (offsets are measured from here)
    std::uint64_t resourceLength = 0; ///< the buffer's length
    std::string label;                ///< as reported: the label or "<unnamed>"
};

/// Shader validation as the executor sees it: the observer of a dispatch whose kernel is the
/// instrumented flavour.
class DispatchValidation final : public exec::DispatchObserver {
public:
    /// Why a dispatch runs its kernel's instrumented flavour.
    enum class Purpose {
        ShaderValidation, ///< the user asked for it: reports are delivered
        /// Without shader validation, an argument has nothing bound: the flavour keeps an
        /// access through it from touching address 0. Nothing is reported; accesses the
        /// flavour flags go ahead inside memory metalcpu owns, and one it must contain fails
        /// the command buffer as the GPU's page fault would (pageFaulted()).
        NullBindingGuard,
    };

    DispatchValidation(DispatchInfo info, std::vector<BufferBinding> bindings, ShaderValidationSettings settings,
                       Purpose purpose = Purpose::ShaderValidation);
    ~DispatchValidation() override;
    DispatchValidation(const DispatchValidation&) = delete;
    DispatchValidation& operator=(const DispatchValidation&) = delete;

    /// Tags the bindings and writes them into parameters.checked_buffers. Call right before
    /// the dispatch runs; `commandBufferIndex` is its command buffer's place among those the
    /// process committed, for the reports.
    void begin(mc_dispatch& parameters, std::uint64_t commandBufferIndex);

    /// An access of `size` bytes at checked pointer `pointer` + `byteOffset` fell outside its
    /// region: reports it and returns the address the kernel should touch instead — `scratch`
    /// (zero-filled, at least `size` bytes) unless the fail mode allows the real one.
    void* invalidAccess(std::uint64_t pointer, std::uint64_t byteOffset, std::uint64_t size, std::uint32_t op,
                        const mc_site* site, const exec::ObservedThread& thread, void* scratch) override;
    bool checksThreadgroupMemory() const override { return settings_.threadgroupMemory; }
    /// METALCPU_SHADER_VALIDATION_CHECKS=barriers: reports the barrier of a round that not all
    /// the group's threads reached (barrier_divergence.cpp).
    void barrierRound(const mc_barrier_round& round, const mc_group& group) override;

    // The checks beyond Apple's (validation/threadgroup_checks.h), when the settings ask for
    // races or uninitialized and the dispatch reports to the user.
    bool watchesThreadgroupMemory() const override { return threadgroupChecks_ != nullptr; }
    unsigned char threadgroupFill() const override { return threadgroupChecks_ ? threadgroupChecks_->fill() : 0; }
    exec::WorkerState* beginGroup(std::unique_ptr<exec::WorkerState>& state, const exec::ObservedGroup& group) override {
        return threadgroupChecks_->beginGroup(state, group);
    }
    void threadgroupAccess(exec::WorkerState* state, std::uint32_t thread, std::uint64_t bits, std::uint64_t size,
                           std::uint32_t op, const mc_site* site) override {
        threadgroupChecks_->access(state, thread, bits, size, op, site);
    }
    void threadgroupBarrier(exec::WorkerState* state, std::uint32_t thread, std::uint32_t memFlags) override {
        threadgroupChecks_->barrier(state, thread, memFlags);
    }
    void endGroup(exec::WorkerState* state) override { threadgroupChecks_->endGroup(state); }

    /// The hazard check between dispatches (validation/dispatch_hazards.h), when the settings
    /// ask for hazards, the dispatch reports to the user and its encoder runs dispatches
    /// concurrently.
    bool watchesDeviceMemory() const override { return hazards_ != nullptr; }
    void deviceAccess(std::uint64_t bits, std::uint64_t size, std::uint32_t op, const mc_site* site,
                      const exec::ObservedThread& thread) override;

    /// Releases the tags and delivers the reports (one per site and kind of access, with its
    /// count; a NullBindingGuard delivers none), returning them. Call once, after the dispatch.
    /// The same as collect() then deliver().
    std::vector<validation::ShaderValidationReport> finish();

    /// What a dispatch's validation found: its reports and the sites beyond kMaxSites.
    struct Findings {
        std::vector<validation::ShaderValidationReport> reports;
        std::uint64_t droppedSites = 0;
    };
    /// A texture argument encoded with nothing bound (ReportKind::NullTexture) or bound to a
    /// texture without the usage its access needs (TextureUsage), found when the dispatch was
    /// encoded: reported with the dispatch's others, at the argument's declaration `where`.
    void textureBindingReport(validation::ReportKind kind, const std::string& argument, std::uint32_t index,
                              validation::SourceLocation where, std::uint64_t usage = 0, std::uint64_t needed = 0);
    /// Puts the texture binding reports first among `findings` (of a dispatch of this
    /// validation that ran elsewhere, whose twin did not have them).
    void addBindingReports(Findings& findings) const;
    /// finish()'s first half, where the dispatch ran (a device process): releases the tags and
    /// returns what was found, delivering nothing. Call once, after the dispatch.
    Findings collect();
    /// finish()'s second half, in the host program: delivers `findings` (of a dispatch of this
    /// validation that ran elsewhere) as finish() would.
    void deliver(const Findings& findings) const;

    /// What it was made of, for a device process to make its twin.
    const DispatchInfo& info() const { return info_; }
    const std::vector<BufferBinding>& bindings() const { return bindings_; }
    Purpose purpose() const { return purpose_; }

    /// In allow mode, an access had to be contained because it fell outside memory metalcpu
    /// owns: the command buffer fails as a GPU page fault would.
    bool pageFaulted() const;

    const ShaderValidationSettings& settings() const { return settings_; }
    /// Whether the dispatch runs for shader validation (Purpose::ShaderValidation), not only
    /// to guard an argument with nothing bound.
    bool reportsToUser() const { return purpose_ == Purpose::ShaderValidation; }

private:
    /// Keeps `report` as its site's (one per site and kind of access): the lowest thread's in
    /// dispatch order, whichever group ran first, counting the others.
    void record(validation::ShaderValidationReport report);
    /// Where the thread `report` names comes in dispatch order: its threadgroup's linear index
    /// in the grid, then its own in the threadgroup.
    std::uint64_t dispatchOrder(const validation::ShaderValidationReport& report) const;
    /// A report naming this dispatch (kernel, pipeline, encoder, command buffer), to fill in.
    validation::ShaderValidationReport namedReport() const;
    /// namedReport(), with the thread `thread` and the site `site` (when known).
    validation::ShaderValidationReport reportAt(const mc_site* site, const exec::ObservedThread& thread) const;

    DispatchInfo info_;
    std::vector<BufferBinding> bindings_;
    std::vector<validation::ShaderValidationReport> bindingReports_; ///< textureBindingReport()
    std::vector<exec::RegionOwner> owners_; ///< one per binding, same order
    std::vector<std::uint32_t> tags_;
    ShaderValidationSettings settings_;
    Purpose purpose_;
    std::uint64_t commandBufferIndex_ = 0;

    mutable std::mutex mutex_;
    using SiteKey = std::tuple<std::string, std::uint32_t, std::uint32_t, int, std::int32_t, std::string, int>; ///< + kind
    /// One site's reports. Threads find it without a lock: the table below is filled by
    /// compare-and-swap and a site's key never changes once published. Only a report of a
    /// thread earlier in dispatch order than the kept one takes the site's lock, to replace it.
    struct Site {
        SiteKey key;
        std::size_t hash = 0;
        std::atomic<std::uint64_t> first{0}; ///< dispatchOrder() of `report`
        /// When `report` was recorded (recorded_): sites kept for the same thread come in the
        /// order that thread made them (a load before the store of `v[i] = v[i] * f`).
        std::uint64_t recorded = 0;
        std::atomic<std::uint64_t> count{1};
        std::mutex replacing;
        validation::ShaderValidationReport report;
    };
    /// Open addressing by the key's hash, twice kMaxSites (dispatch_validation.cpp): the sites
    /// beyond those the reports keep are still told apart, so which are kept does not depend
    /// on the order the groups ran in.
    static constexpr std::size_t kSiteSlots = 2048;
    std::unique_ptr<std::atomic<Site*>[]> sites_;
    std::atomic<std::size_t> siteCount_{0};
    std::atomic<std::uint64_t> dropped_{0}; ///< accesses at sites the table had no room for
    std::atomic<std::uint64_t> recorded_{0}; ///< numbers the reports that made a site or replaced its report
    std::uint32_t groupsPerGrid_[3] = {1, 1, 1};   ///< from begin(), for dispatchOrder()
    std::uint32_t threadsPerGroup_[3] = {1, 1, 1};
    /// Threadgroups (linear index in the grid) whose barriers have diverged once: their later
    /// rounds follow from that one and are not reported (barrier_divergence.cpp).
    std::set<std::uint64_t> divergedGroups_;
    bool pageFaulted_ = false;
    bool finished_ = false;
    std::unique_ptr<ThreadgroupChecks> threadgroupChecks_; ///< made by begin()
    std::unique_ptr<DispatchHazards> hazards_;             ///< made by begin()
};

} // namespace metalcpu::val
