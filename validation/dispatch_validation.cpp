#include "validation/dispatch_validation.h"

#include "validation/allocations.h"
#include "validation/sinks.h"

#include "support/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

/// Distinct sites kept per dispatch; more are counted but not reported one by one.
constexpr std::size_t kMaxSites = 1024;

constexpr std::uint64_t kAddressMask = (std::uint64_t(1) << METALCPU_REGION_TAG_SHIFT) - 1;

/// How far past an allocation's end an untagged address still counts as "just past it".
constexpr std::uint64_t kNearby = 4096;

} // namespace

DispatchValidation::DispatchValidation(DispatchInfo info, std::vector<BufferBinding> bindings,
                                       ShaderValidationSettings settings, Purpose purpose)
    : info_(std::move(info)), bindings_(std::move(bindings)), settings_(std::move(settings)), purpose_(purpose) {
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

void DispatchValidation::begin(mc_dispatch& parameters, std::uint64_t commandBufferIndex) {
    commandBufferIndex_ = commandBufferIndex;
    const ExtraChecks& extra = settings_.extraChecks;
    if (purpose_ == Purpose::ShaderValidation && (extra.races || extra.uninitialized))
        threadgroupChecks_ = std::make_unique<ThreadgroupChecks>(extra, namedReport());
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

    ShaderValidationReport report = namedReport();
    report.size = size;
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

    // Is the real address safe to touch (allow mode)?
    bool safe = false;
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
        if (safe) return reinterpret_cast<void*>(address);
        std::lock_guard lock(mutex_);
        pageFaulted_ = true;
    }
    std::memset(scratch, 0, static_cast<std::size_t>(size));
    return scratch;
}

void DispatchValidation::record(ShaderValidationReport report) {
    std::lock_guard lock(mutex_);
    SiteKey key{report.location.file, report.location.line, report.location.column,
                static_cast<int>(report.access), report.bindingIndex, report.bufferLabel, static_cast<int>(report.kind)};
    auto it = sites_.find(key);
    if (it != sites_.end()) {
        ++reports_[it->second].count;
        return;
    }
    if (reports_.size() >= kMaxSites) {
        ++dropped_;
        return;
    }
    sites_.emplace(std::move(key), reports_.size());
    reports_.push_back(std::move(report));
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
        findings.reports.swap(reports_);
        findings.droppedSites = dropped_;
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
