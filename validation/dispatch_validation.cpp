#include "validation/dispatch_validation.h"

#include "validation/allocations.h"
#include "validation/sinks.h"

#include "support/log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>

namespace metalcpu::val {
namespace {

using exec::RegionOwner;
using exec::RegionTable;
using validation::Access;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;
using validation::SourceLocation;

/// Distinct sites kept per dispatch (those whose first thread comes first in dispatch order);
/// more are counted but not reported one by one.
constexpr std::size_t kMaxSites = 1024;

constexpr std::uint64_t kAddressMask = (std::uint64_t(1) << METALCPU_REGION_TAG_SHIFT) - 1;

/// How far past an allocation's end an untagged address still counts as "just past it".
constexpr std::uint64_t kNearby = 4096;
/// Untagged addresses of threadgroup pointers below this are offsets from a null pointer, as
/// a GPU has them (its threadgroup pointers are offsets into the group's memory).
constexpr std::uint64_t kNullOffsets = std::uint64_t(1) << 32;

} // namespace

DispatchValidation::DispatchValidation(DispatchInfo info, std::vector<BufferBinding> bindings,
                                       ShaderValidationSettings settings, Purpose purpose)
    : info_(std::move(info)), bindings_(std::move(bindings)), settings_(std::move(settings)), purpose_(purpose),
      sites_(new std::atomic<Site*>[kSiteSlots]) {
    static_assert(kSiteSlots >= 2 * kMaxSites && (kSiteSlots & (kSiteSlots - 1)) == 0);
    for (std::size_t i = 0; i < kSiteSlots; ++i) sites_[i].store(nullptr, std::memory_order_relaxed);
    if (purpose_ == Purpose::NullBindingGuard) {
        settings_.failMode = FailMode::Allow;
        settings_.abortOnFault = false;
        settings_.failCommandBuffer = false; // nothing is reported, so nothing fails for reports
        settings_.globalMemory = settings_.threadgroupMemory = true;
    }
    owners_.reserve(bindings_.size());
    for (const BufferBinding& b : bindings_) {
        RegionOwner owner;
        owner.space = b.space;
        owner.isNull = !b.bound;
        owner.label = b.bound ? b.label : "<nil>";
        owner.resourceBegin = b.resourceBegin;
        owner.resourceLength = b.resourceLength;
        owner.bindingIndex = static_cast<std::int32_t>(b.index);
        owner.argumentName = b.argumentName;
        owners_.push_back(std::move(owner));
    }
}

DispatchValidation::~DispatchValidation() {
    if (!finished_)
        for (std::uint32_t tag : tags_) RegionTable::shared().release(tag);
    for (std::size_t i = 0; i < kSiteSlots; ++i) delete sites_[i].load(std::memory_order_relaxed);
}

ShaderValidationReport DispatchValidation::namedReport() const {
    ShaderValidationReport report;
    report.kernel = info_.kernel;
    report.kernelFrameName = info_.kernelFrameName;
    report.pipelineLabel = info_.pipelineLabel;
    report.pipelineUid = info_.pipelineUid;
    report.encoderLabel = info_.encoderLabel;
    report.dispatchIndex = info_.dispatchIndex;
    report.commandBufferIndex = commandBufferIndex_;
    return report;
}

ShaderValidationReport DispatchValidation::reportAt(const mc_site* site, const exec::ObservedThread& thread) const {
    ShaderValidationReport report = namedReport();
    report.threadPositionInGrid = thread.grid;
    report.threadPositionInThreadgroup = thread.local;
    report.threadgroupPositionInGrid = thread.group;
    if (site) {
        report.location.file = site->file ? site->file : "";
        // A function template's sites (the translator's local tables, and the tensor operations'
        // sites the stdlib takes from __builtin_FUNCTION) name the instantiation with its
        // template arguments ("tile<half>"), as Apple's frames do from debug information.
        report.location.function = site->function ? site->function : "";
        report.location.line = site->line;
        report.location.column = site->column;
    }
    return report;
}

void DispatchValidation::deviceAccess(std::uint64_t bits, std::uint64_t size, std::uint32_t op, const mc_site* site,
                                      const exec::ObservedThread& thread) {
    const std::optional<DispatchHazards::Conflict> conflict = hazards_->access(bits & kAddressMask, size, op);
    if (!conflict) return;
    ShaderValidationReport report = reportAt(site, thread);
    report.kind = ReportKind::DispatchHazard;
    report.size = size;
    report.access = conflict->access;
    const BufferBinding& b = *conflict->binding;
    report.addressSpace = b.space;
    report.hasBuffer = true;
    report.bufferLabel = b.label;
    report.bufferLength = b.resourceLength;
    report.bindingIndex = static_cast<std::int32_t>(b.index);
    report.argumentName = b.argumentName;
    report.offset = conflict->offset;
    report.other.access = conflict->otherAccess;
    report.other.atomic = conflict->otherAtomic;
    report.otherDispatch.dispatchIndex = conflict->otherDispatchIndex;
    report.otherDispatch.kernel = conflict->otherKernel;
    record(std::move(report));
}

void DispatchValidation::begin(mc_dispatch& parameters, std::uint64_t commandBufferIndex) {
    commandBufferIndex_ = commandBufferIndex;
    for (int d = 0; d < 3; ++d) {
        groupsPerGrid_[d] = std::max<std::uint32_t>(parameters.threadgroups_per_grid[d], 1);
        threadsPerGroup_[d] = std::max<std::uint32_t>(parameters.threads_per_threadgroup[d], 1);
    }
    const ExtraChecks& extra = settings_.extraChecks;
    if (purpose_ == Purpose::ShaderValidation && (extra.races || extra.uninitialized))
        threadgroupChecks_ = std::make_unique<ThreadgroupChecks>(extra, namedReport());
    if (purpose_ == Purpose::ShaderValidation && extra.hazards && info_.concurrentSpan != 0)
        hazards_ = std::make_unique<DispatchHazards>(info_, bindings_);
    RegionTable& table = RegionTable::shared();
    for (std::size_t i = 0; i < bindings_.size(); ++i) {
        const BufferBinding& b = bindings_[i];
        std::uint32_t tag = table.acquire(&owners_[i]);
        tags_.push_back(tag);
        const bool checked = b.space == AddressSpace::Threadgroup ? settings_.threadgroupMemory : settings_.globalMemory;
        // A pointer may touch its whole buffer, below the setBuffer offset too: Apple's
        // validation resolves an address to the buffer it falls in and measures from the
        // buffer's start, and MLX binds a reversed view at its last element and reads down.
        // With the check for this address space turned off, the region is the whole space.
        if (!checked) table.set(tag, 0, ~std::uint64_t(0));
        else table.set(tag, b.resourceBegin, b.bound ? b.resourceLength : 0);
        parameters.checked_buffers[b.index] = RegionTable::tagged(tag, b.boundAddress);
    }
    // Kernel code and the fiber scheduler tell of barrier rounds only when asked.
    parameters.checks = 0;
    if (reportsToUser() && settings_.extraChecks.barriers) parameters.checks |= MC_CHECK_BARRIERS;
}

void* DispatchValidation::invalidAccess(std::uint64_t pointer, std::uint64_t byteOffset, std::uint64_t size,
                                        std::uint32_t op, const mc_site* site, const exec::ObservedThread& thread,
                                        void* scratch) {
    const std::uint32_t tag = static_cast<std::uint32_t>(pointer >> METALCPU_REGION_TAG_SHIFT);
    const std::uint64_t address = (pointer & kAddressMask) + byteOffset;

    ShaderValidationReport report = reportAt(site, thread);
    report.size = size;

    // Is the real address safe to touch (allow mode)? Where it is.
    bool safe = false;
    std::uint64_t allowed = address;
    const RegionOwner* owner = RegionTable::shared().owner(tag);
    if (tag != 0 && owner) {
        report.addressSpace = owner->space;
        report.kind = owner->isNull ? ReportKind::NullBuffer : ReportKind::OutOfBounds;
        report.hasBuffer = owner->space != AddressSpace::Threadgroup;
        report.bufferLabel = owner->label;
        report.bufferLength = owner->resourceLength;
        report.bindingIndex = owner->bindingIndex;
        report.argumentName = owner->argumentName;
        report.offset = address - owner->resourceBegin;
        // Outside its own buffer: in allow mode the access goes ahead where a GPU's would
        // land in memory, another live buffer, and faults elsewhere.
        auto allocation = owner->isNull ? std::nullopt : AllocationRegistry::shared().find(address);
        safe = allocation && address - allocation->begin < allocation->length &&
               allocation->length - (address - allocation->begin) >= size;
    } else {
        // No tag: an address read from memory or made from an integer. Valid when it lies in a
        // live buffer or in this group's threadgroup memory.
        if (address >= thread.threadgroupBegin && address < thread.threadgroupEnd &&
            thread.threadgroupEnd - address >= size)
            return reinterpret_cast<void*>(address);
        // A threadgroup pointer made from nullptr, an offset into the group's threadgroup
        // memory on a GPU. Apple reports the access (MLX's pull request #2506 removed such a
        // load from its merge sort because shader validation reported an invalid threadgroup
        // load); in allow mode it goes where the GPU's would.
        if ((op & MC_OP_THREADGROUP) && address < kNullOffsets) {
            const std::uint64_t length = thread.threadgroupEnd - thread.threadgroupBegin;
            safe = address < length && length - address >= size;
            allowed = thread.threadgroupBegin + address;
            report.kind = ReportKind::OutOfBounds;
            report.addressSpace = AddressSpace::Threadgroup;
            report.hasBuffer = false;
            report.offset = address;
        } else {
            auto allocation = AllocationRegistry::shared().find(address);
            if (allocation && address - allocation->begin < allocation->length &&
                allocation->length - (address - allocation->begin) >= size)
                return reinterpret_cast<void*>(address);
            report.hasBuffer = true;
            if (allocation && address - allocation->begin < allocation->length + kNearby) {
                report.kind = ReportKind::OutOfBounds;
                report.addressSpace = allocation->space;
                report.bufferLabel = allocation->label ? allocation->label() : "<unnamed>";
                report.bufferLength = allocation->length;
                report.offset = address - allocation->begin;
            } else {
                report.kind = ReportKind::WildPointer;
                report.bufferLabel = "Out of bounds of user address space";
                report.bufferLength = 1;
                report.offset = address;
            }
        }
    }

    for (std::uint32_t bit : {std::uint32_t(MC_OP_LOAD), std::uint32_t(MC_OP_STORE)}) {
        if (!(op & bit)) continue;
        ShaderValidationReport one = report;
        one.access = bit == MC_OP_STORE ? Access::Store : Access::Load;
        if (settings_.abortOnFault) {
            std::fputs(one.text().c_str(), stderr);
            std::fflush(stderr);
            std::abort();
        }
        record(std::move(one));
    }

    if (settings_.failMode == FailMode::Allow) {
        if (safe) return reinterpret_cast<void*>(allowed);
        std::lock_guard lock(mutex_);
        pageFaulted_ = true;
    }
    std::memset(scratch, 0, static_cast<std::size_t>(size));
    return scratch;
}

std::uint64_t DispatchValidation::dispatchOrder(const ShaderValidationReport& report) const {
    const validation::Position& g = report.threadgroupPositionInGrid;
    const validation::Position& t = report.threadPositionInThreadgroup;
    const std::uint64_t group = g.x + std::uint64_t(groupsPerGrid_[0]) * (g.y + std::uint64_t(groupsPerGrid_[1]) * g.z);
    const std::uint64_t thread =
        t.x + std::uint64_t(threadsPerGroup_[0]) * (t.y + std::uint64_t(threadsPerGroup_[1]) * t.z);
    return group * (std::uint64_t(threadsPerGroup_[0]) * threadsPerGroup_[1] * threadsPerGroup_[2]) + thread;
}

void DispatchValidation::record(ShaderValidationReport report) {
    // Groups run in parallel, so which thread reaches a site first varies from run to run; the
    // report kept is the first thread's in dispatch order, as a user reading it expects, and
    // the same every run. Most reports repeat a site already found by a later thread: those
    // only count, with no lock (a lower thread takes the site's own lock to replace its report).
    SiteKey key{report.location.file, report.location.line, report.location.column,
                static_cast<int>(report.access), report.bindingIndex, report.bufferLabel, static_cast<int>(report.kind)};
    const std::size_t hash = std::hash<std::string>{}(report.location.file) ^
                             (std::hash<std::string>{}(report.bufferLabel) * 31) ^
                             (std::size_t(report.location.line) << 20) ^ (std::size_t(report.location.column) << 8) ^
                             (std::size_t(report.access) << 4) ^ (std::size_t(report.kind) << 12) ^
                             std::size_t(std::uint32_t(report.bindingIndex)) * 0x9e3779b97f4a7c15ull;
    const std::uint64_t order = dispatchOrder(report);
    std::unique_ptr<Site> mine;
    for (std::size_t probe = 0; probe < kSiteSlots; ++probe) {
        std::atomic<Site*>& slot = sites_[(hash + probe) & (kSiteSlots - 1)];
        Site* site = slot.load(std::memory_order_acquire);
        if (!site) {
            if (!mine) {
                // One slot stays empty, so that a search always ends.
                if (siteCount_.fetch_add(1, std::memory_order_relaxed) >= kSiteSlots - 1) {
                    siteCount_.fetch_sub(1, std::memory_order_relaxed);
                    dropped_.fetch_add(1, std::memory_order_relaxed);
                    return;
                }
                mine = std::make_unique<Site>();
                mine->key = std::move(key);
                mine->hash = hash;
                mine->first.store(order, std::memory_order_relaxed);
                mine->recorded = recorded_.fetch_add(1, std::memory_order_relaxed);
                mine->report = std::move(report);
            }
            if (slot.compare_exchange_strong(site, mine.get(), std::memory_order_acq_rel, std::memory_order_acquire)) {
                mine.release();
                return;
            }
            // Another thread published a site in this slot first: `site` is it.
        }
        const SiteKey& wanted = mine ? mine->key : key;
        if (site->hash != hash || site->key != wanted) continue;
        std::uint64_t recorded = 0;
        if (mine) { // the same site, published by another thread while this one made it
            siteCount_.fetch_sub(1, std::memory_order_relaxed);
            report = std::move(mine->report);
            recorded = mine->recorded;
        }
        site->count.fetch_add(1, std::memory_order_relaxed);
        if (order < site->first.load(std::memory_order_relaxed)) {
            if (!mine) recorded = recorded_.fetch_add(1, std::memory_order_relaxed);
            std::lock_guard lock(site->replacing);
            if (order < site->first.load(std::memory_order_relaxed)) {
                site->report = std::move(report);
                site->recorded = recorded;
                site->first.store(order, std::memory_order_relaxed);
            }
        }
        return;
    }
    dropped_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<ShaderValidationReport> DispatchValidation::finish() {
    Findings findings = collect();
    deliver(findings);
    return std::move(findings.reports);
}

void DispatchValidation::textureBindingReport(ReportKind kind, const std::string& argument, std::uint32_t index,
                                              SourceLocation where, std::uint64_t usage, std::uint64_t needed) {
    ShaderValidationReport report = namedReport();
    report.kind = kind;
    report.argumentName = argument;
    report.bindingIndex = static_cast<std::int32_t>(index);
    report.location = std::move(where);
    report.texture.usage = usage;
    report.texture.needed = needed;
    bindingReports_.push_back(std::move(report));
}

void DispatchValidation::addBindingReports(Findings& findings) const {
    if (bindingReports_.empty()) return;
    std::vector<ShaderValidationReport> reports = bindingReports_;
    for (ShaderValidationReport& report : reports) report.commandBufferIndex = commandBufferIndex_;
    findings.reports.insert(findings.reports.begin(), reports.begin(), reports.end());
}

DispatchValidation::Findings DispatchValidation::collect() {
    Findings findings;
    {
        std::lock_guard lock(mutex_);
        if (finished_) return {};
        finished_ = true;
    }
    // The dispatch has ended: the sites are read alone. In dispatch order of their threads
    // (one thread's sites in the order it made them), the first kMaxSites reported.
    std::vector<Site*> sites;
    for (std::size_t i = 0; i < kSiteSlots; ++i)
        if (Site* site = sites_[i].load(std::memory_order_acquire)) sites.push_back(site);
    std::sort(sites.begin(), sites.end(), [](const Site* a, const Site* b) {
        const std::uint64_t x = a->first.load(std::memory_order_relaxed), y = b->first.load(std::memory_order_relaxed);
        return x != y ? x < y : a->recorded != b->recorded ? a->recorded < b->recorded : a->key < b->key;
    });
    findings.droppedSites = dropped_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const std::uint64_t count = sites[i]->count.load(std::memory_order_relaxed);
        if (i >= kMaxSites) {
            findings.droppedSites += count;
            continue;
        }
        findings.reports.push_back(std::move(sites[i]->report));
        findings.reports.back().count = count;
    }
    addBindingReports(findings);
    if (threadgroupChecks_)
        for (ShaderValidationReport& report : threadgroupChecks_->takeReports())
            findings.reports.push_back(std::move(report));
    for (std::uint32_t tag : tags_) RegionTable::shared().release(tag);
    tags_.clear();
    return findings;
}

void DispatchValidation::deliver(const Findings& findings) const {
    if (purpose_ == Purpose::NullBindingGuard) return;
    std::size_t unseen = 0;
    for (const ShaderValidationReport& report : findings.reports) unseen += !val::deliver(report, settings_);
    val::noteReportsNotShown(unseen, info_.kernel);
    if (findings.droppedSites)
        support::log().warn("shader validation: {} more invalid accesses in kernel '{}' at further sites were not "
                            "reported one by one",
                            findings.droppedSites, info_.kernel);
}

bool DispatchValidation::pageFaulted() const {
    std::lock_guard lock(mutex_);
    return pageFaulted_;
}

} // namespace metalcpu::val
