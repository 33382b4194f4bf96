#include "validation/threadgroup_checks.h"

#include "exec/regions.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <string_view>
#include <unordered_map>

namespace metalcpu::val {
namespace {

using validation::Access;
using validation::AddressSpace;
using validation::Position;
using validation::ReportKind;
using validation::ShaderValidationReport;

constexpr std::uint64_t kAddressMask = (std::uint64_t(1) << METALCPU_REGION_TAG_SHIFT) - 1;

std::atomic<std::uint64_t> g_serial{0};

/// What one byte of threadgroup memory saw in the current barrier interval. Threads are
/// stored as their linear index + 1 (0: none), sites as indices into Shadow::sites_, and with
/// each access the SIMD-group synchronisations its thread had passed (Shadow::syncs_).
struct Cell {
    std::uint32_t epoch = 0; ///< the interval this describes; another one's is stale
    std::uint16_t writer = 0, reader = 0, otherReader = 0; ///< otherReader: in another SIMD-group than reader
    std::uint16_t laneReader = 0; ///< another thread of reader's SIMD-group (the first reader may store next)
    std::uint8_t atomic = 0; ///< kWriterAtomic, kReaderAtomic, kOtherReaderAtomic, kLaneReaderAtomic
    std::uint32_t writerSite = 0, readerSite = 0, otherReaderSite = 0, laneReaderSite = 0;
    std::uint32_t writerSync = 0, readerSync = 0, otherReaderSync = 0, laneReaderSync = 0;
};
constexpr std::uint8_t kWriterAtomic = 1, kReaderAtomic = 2, kOtherReaderAtomic = 4, kLaneReaderAtomic = 8;
constexpr std::uint32_t kLoad = MC_OP_LOAD, kStore = MC_OP_STORE, kAtomic = MC_OP_ATOMIC;

struct SiteHash {
    std::size_t operator()(const mc_site& s) const {
        return std::hash<const void*>()(s.file) ^ std::hash<const void*>()(s.function) * 31 ^
               (std::size_t(s.line) << 20 | s.column);
    }
};
struct SiteEqual {
    bool operator()(const mc_site& a, const mc_site& b) const {
        return a.file == b.file && a.function == b.function && a.line == b.line && a.column == b.column;
    }
};

/// A store that races with an earlier store, not reported yet: when the barrier interval
/// ends with the bytes the earlier store left, the two stores agree on the value the memory
/// keeps, and the race is not reported — Oclgrind's same-value suppression, taken to the end
/// of the interval: PyTorch's int8mm has two SIMD-groups clear and then fill the same rows of
/// scales, so the memory holds the same scales whichever runs first. Compared when every
/// thread of the group has passed the interval's barrier, or the group has ended.
struct PendingStore {
    std::uint32_t epoch;
    ThreadgroupChecks::Finding finding;
    const unsigned char* address;
    std::uint64_t size;
    unsigned char before[64];
};

/// One worker's shadow of its threadgroup memory, reused from group to group.
class Shadow final : public exec::WorkerState {
public:
    /// Reports the pending stores of intervals before `epoch` that left other bytes than the
    /// store they race with.
    void settle(ThreadgroupChecks& checks, std::uint32_t epoch = ~std::uint32_t(0)) {
        std::size_t kept = 0;
        for (PendingStore& p : pending_) {
            if (p.epoch >= epoch) {
                pending_[kept++] = p;
                continue;
            }
            if (std::memcmp(p.address, p.before, p.size) != 0) checks.record(p.finding);
        }
        pending_.resize(kept);
    }

    void begin(const ThreadgroupChecks& checks, const exec::ObservedGroup& observed) {
        if (serial_ != checks.serial()) {
            // Sites name strings of the dispatch's library, which may be gone since.
            serial_ = checks.serial();
            sites_.clear();
            siteIndex_.clear();
            lastSite_ = nullptr;
        }
        group_ = observed.group;
        begin_ = observed.threadgroupBegin;
        const std::uint64_t length = observed.threadgroupEnd - observed.threadgroupBegin;
        if (cells_.size() < length) {
            cells_.assign(length, Cell{});
            written_.assign(length, 0);
        }
        end_ = begin_ + length;
        // Fresh intervals and a fresh "written" mark: nothing of the last group is current.
        epochBase_ = ++maxEpoch_;
        ++generation_;
        const std::uint32_t threads = group_->size[0] * group_->size[1] * group_->size[2];
        epochs_.assign(threads, epochBase_);
        syncs_.assign(threads, 0);
        minEpoch_ = epochBase_;
        atMin_ = threads;
        width_ = group_->dispatch->simd_width ? group_->dispatch->simd_width : 32;
    }

    void access(ThreadgroupChecks& checks, std::uint32_t thread, std::uint64_t bits, std::uint64_t size,
                std::uint32_t op, const mc_site* site) {
        const std::uint64_t address = bits & kAddressMask;
        // Outside this group's memory: a contained invalid access (its stand-in) or not
        // threadgroup memory at all.
        if (size == 0 || address < begin_ || address >= end_ || end_ - address < size || thread >= epochs_.size())
            return;
        const std::uint64_t offset = address - begin_;
        const std::uint32_t here = intern(site);
        const ExtraChecks enabled = checks.checks();
        // Only loads the kernel's source writes, and not those of an update (`x += v`, and
        // class assignments the translator cannot tell from one): the stdlib's functions that
        // load for the kernel (simdgroup_load's whole 8x8 tile) load parts kernels never use
        // or initialise (PyTorch's int8mm).
        //
        // An access without a site is the stdlib's through operator[], which cannot tell a
        // load from a store (simdgroup_store's elements): it counts as storing.
        const bool sited = site && site->line != 0;
        if (enabled.uninitialized && (op & kLoad) && !(op & kStore) && sited) {
            std::uint64_t unwritten = 0;
            for (std::uint64_t i = 0; i < size; ++i) unwritten += written_[offset + i] != generation_;
            // A struct's padding is never stored to by member stores: only a load none of
            // whose bytes were stored is reported for one.
            const bool report = (op & std::uint32_t(MC_OP_AGGREGATE)) ? unwritten == size : unwritten != 0;
            if (report)
                checks.record({ReportKind::UninitializedLoad, &sites_[here], nullptr, thread, 0, kLoad, 0, bits, size,
                               group_});
        }
        if ((op & kStore) || !sited) std::fill_n(written_.begin() + static_cast<std::ptrdiff_t>(offset), size, generation_);
        if (enabled.races) race(checks, thread, bits, offset, size, op, here);
    }

    void barrier(ThreadgroupChecks& checks, std::uint32_t thread, std::uint32_t memFlags) {
        if (memFlags & MC_SIMD_SYNC) {
            // A SIMD-group synchronisation: it orders its SIMD-group's accesses only.
            if (thread == exec::kWholeGroup)
                for (std::uint32_t& n : syncs_) ++n;
            else if (thread < syncs_.size())
                ++syncs_[thread];
            return;
        }
        if (thread == exec::kWholeGroup) {
            for (std::uint32_t& e : epochs_) maxEpoch_ = std::max(maxEpoch_, ++e);
        } else if (thread < epochs_.size()) {
            if (epochs_[thread] == minEpoch_) --atMin_;
            maxEpoch_ = std::max(maxEpoch_, ++epochs_[thread]);
            if (atMin_ != 0) return;
        } else {
            return;
        }
        // The slowest thread passed a barrier: the intervals before its are over.
        minEpoch_ = *std::min_element(epochs_.begin(), epochs_.end());
        atMin_ = static_cast<std::uint32_t>(std::count(epochs_.begin(), epochs_.end(), minEpoch_));
        if (!pending_.empty()) settle(checks, minEpoch_);
    }

private:
    std::uint32_t simdOf(std::uint32_t thread) const { return thread / width_; }

    /// The index of a site with `site`'s contents: the pointer may be a temporary's (the
    /// atomic functions make their site on the stack).
    std::uint32_t intern(const mc_site* site) {
        static constexpr mc_site kNone = {"", "", 0, 0};
        if (!site) site = &kNone;
        if (site == lastSite_ && SiteEqual()(*site, sites_[lastIndex_])) return lastIndex_;
        auto [it, added] = siteIndex_.try_emplace(*site, static_cast<std::uint32_t>(sites_.size()));
        if (added) sites_.push_back(*site);
        lastSite_ = site;
        lastIndex_ = it->second;
        return it->second;
    }

    void race(ThreadgroupChecks& checks, std::uint32_t thread, std::uint64_t bits, std::uint64_t offset,
              std::uint64_t size, std::uint32_t op, std::uint32_t here) {
        const std::uint32_t epoch = epochs_[thread];
        const std::uint32_t simd = simdOf(thread);
        const std::uint32_t sync = syncs_[thread];
        const bool atomic = (op & kAtomic) != 0;
        const bool load = (op & kLoad) != 0, store = (op & kStore) != 0;
        // Whether an access by `other` (linear index + 1), made after `otherSync` SIMD-group
        // synchronisations, races with this one. In another SIMD-group, unless a threadgroup
        // barrier is between them (the cell's epoch); in this one (another thread), unless a
        // SIMD-group synchronisation is: both threads have passed as many as when the other
        // accessed. A thread that passed one alone (a SIMD-group function in a branch only it
        // took) is ordered with the others from then on, a miss rather than a false report.
        const auto races = [&](std::uint16_t other, bool otherAtomic, std::uint32_t otherSync) {
            if (other == 0 || (atomic && otherAtomic)) return false;
            const std::uint32_t who = other - 1u;
            if (simdOf(who) != simd) return true;
            return who != thread && otherSync == sync && syncs_[who] == sync;
        };
        bool found = false;
        for (std::uint64_t i = 0; i < size; ++i) {
            Cell& c = cells_[offset + i];
            if (c.epoch != epoch) c = Cell{epoch};
            if (!found) {
                std::uint16_t other = 0;
                std::uint32_t otherSite = 0, otherOp = 0;
                const auto pick = [&](std::uint16_t who, std::uint32_t where, std::uint32_t what, bool wasAtomic) {
                    other = who;
                    otherSite = where;
                    otherOp = what | (wasAtomic ? kAtomic : 0u);
                };
                if (races(c.writer, c.atomic & kWriterAtomic, c.writerSync))
                    pick(c.writer, c.writerSite, kStore, c.atomic & kWriterAtomic);
                else if (store && races(c.reader, c.atomic & kReaderAtomic, c.readerSync))
                    pick(c.reader, c.readerSite, kLoad, c.atomic & kReaderAtomic);
                else if (store && races(c.otherReader, c.atomic & kOtherReaderAtomic, c.otherReaderSync))
                    pick(c.otherReader, c.otherReaderSite, kLoad, c.atomic & kOtherReaderAtomic);
                else if (store && races(c.laneReader, c.atomic & kLaneReaderAtomic, c.laneReaderSync))
                    pick(c.laneReader, c.laneReaderSite, kLoad, c.atomic & kLaneReaderAtomic);
                if (other != 0) {
                    found = true; // one report per access, at its first racing byte
                    const ThreadgroupChecks::Finding finding{ReportKind::ThreadgroupRace, &sites_[here],
                                                             &sites_[otherSite], thread, other - 1u,
                                                             op & (kLoad | kStore | kAtomic), otherOp, bits, size, group_,
                                                             simdOf(other - 1u) == simd};
                    const auto* bytes = reinterpret_cast<const unsigned char*>(begin_ + offset);
                    if ((otherOp & kStore) && !load && size <= sizeof(PendingStore::before) && pending_.size() < 65536) {
                        PendingStore& p = pending_.emplace_back();
                        p.epoch = epoch;
                        p.finding = finding;
                        p.address = bytes;
                        p.size = size;
                        std::memcpy(p.before, bytes, size);
                    } else {
                        checks.record(finding);
                    }
                }
            }
            const std::uint16_t me = static_cast<std::uint16_t>(thread + 1);
            if (store) {
                c.writer = me;
                c.writerSite = here;
                c.writerSync = sync;
                c.atomic = static_cast<std::uint8_t>((c.atomic & ~kWriterAtomic) | (atomic ? kWriterAtomic : 0));
            }
            if (load) {
                if (c.reader == 0 || c.reader == me || (simdOf(c.reader - 1u) == simd && c.readerSync != sync)) {
                    c.reader = me;
                    c.readerSite = here;
                    c.readerSync = sync;
                    c.atomic = static_cast<std::uint8_t>((c.atomic & ~kReaderAtomic) | (atomic ? kReaderAtomic : 0));
                } else if (simdOf(c.reader - 1u) != simd) {
                    if (c.otherReader == 0) {
                        c.otherReader = me;
                        c.otherReaderSite = here;
                        c.otherReaderSync = sync;
                        c.atomic =
                            static_cast<std::uint8_t>((c.atomic & ~kOtherReaderAtomic) | (atomic ? kOtherReaderAtomic : 0));
                    }
                } else if (c.laneReader == 0 || c.laneReader == me || c.laneReaderSync != sync) {
                    c.laneReader = me;
                    c.laneReaderSite = here;
                    c.laneReaderSync = sync;
                    c.atomic = static_cast<std::uint8_t>((c.atomic & ~kLaneReaderAtomic) | (atomic ? kLaneReaderAtomic : 0));
                }
            }
        }
    }

    std::uint64_t serial_ = ~std::uint64_t(0);
    const mc_group* group_ = nullptr;
    std::uint64_t begin_ = 0, end_ = 0;
    std::vector<Cell> cells_;
    std::vector<std::uint32_t> written_; ///< the generation that last stored to each byte
    std::uint32_t generation_ = 0;
    std::vector<std::uint32_t> epochs_; ///< per thread: the barrier interval it is in
    std::vector<std::uint32_t> syncs_;  ///< per thread: SIMD-group synchronisations passed since the group started
    std::uint32_t epochBase_ = 0, maxEpoch_ = 0;
    std::uint32_t minEpoch_ = 0, atMin_ = 0; ///< the slowest thread's interval, and how many threads are in it
    std::uint32_t width_ = 32;
    std::deque<mc_site> sites_; ///< stable addresses: findings point into it
    std::unordered_map<mc_site, std::uint32_t, SiteHash, SiteEqual> siteIndex_;
    const mc_site* lastSite_ = nullptr;
    std::uint32_t lastIndex_ = 0;
    std::vector<PendingStore> pending_;
};

Position localPosition(const mc_group& group, std::uint32_t linear) {
    const std::uint32_t sx = group.size[0], sy = group.size[1];
    return {linear % sx, (linear / sx) % sy, linear / (sx * sy)};
}

Position gridPosition(const mc_group& group, const Position& local) {
    const mc_u32* tg = group.dispatch->threads_per_threadgroup;
    return {group.position[0] * tg[0] + local.x, group.position[1] * tg[1] + local.y,
            group.position[2] * tg[2] + local.z};
}

validation::SourceLocation locationOf(const mc_site& site) {
    validation::SourceLocation location;
    location.file = site.file ? site.file : "";
    const std::string_view function = site.function ? site.function : "";
    location.function = std::string(function.starts_with("operator") ? function : function.substr(0, function.find('<')));
    location.line = site.line;
    location.column = site.column;
    return location;
}

} // namespace

ThreadgroupChecks::ThreadgroupChecks(ExtraChecks checks, ShaderValidationReport base)
    : checks_(checks), base_(std::move(base)), serial_(++g_serial) {}

exec::WorkerState* ThreadgroupChecks::beginGroup(std::unique_ptr<exec::WorkerState>& state,
                                                 const exec::ObservedGroup& group) {
    if (!dynamic_cast<Shadow*>(state.get())) state = std::make_unique<Shadow>();
    auto* shadow = static_cast<Shadow*>(state.get());
    shadow->begin(*this, group);
    return shadow;
}

void ThreadgroupChecks::access(exec::WorkerState* state, std::uint32_t thread, std::uint64_t bits, std::uint64_t size,
                               std::uint32_t op, const mc_site* site) {
    static_cast<Shadow*>(state)->access(*this, thread, bits, size, op, site);
}

void ThreadgroupChecks::endGroup(exec::WorkerState* state) { static_cast<Shadow*>(state)->settle(*this); }

void ThreadgroupChecks::barrier(exec::WorkerState* state, std::uint32_t thread, std::uint32_t memFlags) {
    // Every threadgroup_barrier orders threadgroup memory here, whatever its flags: Apple
    // GPUs keep a group's threadgroup memory coherent, and working kernels rely on it (ggml's
    // soft_max reuses its buffer after threadgroup_barrier(mem_flags::mem_none)).
    static_cast<Shadow*>(state)->barrier(*this, thread, memFlags);
}

void ThreadgroupChecks::record(const Finding& f) {
    const mc_site& site = *f.site;
    const mc_site none = {"", "", 0, 0};
    const mc_site& other = f.otherSite ? *f.otherSite : none;
    // A pair of sites is one report whichever of its accesses came first: a load before a
    // store in one thread order is the store before the load in another.
    using Side = std::tuple<const char*, std::uint32_t, std::uint32_t, std::uint32_t>;
    Side mine{site.file, site.line, site.column, f.op & (kLoad | kStore)};
    Side theirs{other.file, other.line, other.column, f.otherOp & (kLoad | kStore)};
    if (theirs < mine) std::swap(mine, theirs);
    const Key key{static_cast<int>(f.kind), f.sameSimdgroup, mine, theirs};
    // Groups are checked in parallel: the finding kept is the one of the first thread in
    // dispatch order, so that the report is the same in every run.
    const mc_u32* groups = f.group->dispatch->threadgroups_per_grid;
    const mc_u32* at = f.group->position;
    const std::uint64_t group = at[0] + std::uint64_t(groups[0]) * (at[1] + std::uint64_t(groups[1]) * at[2]);
    const std::uint64_t order = (group << 16) | f.thread; // a group has at most 1024 threads
    std::lock_guard lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) {
        ++reports_[it->second].count;
        if (order >= orders_[it->second]) return;
    }
    ShaderValidationReport report = base_;
    report.kind = f.kind;
    report.addressSpace = AddressSpace::Threadgroup;
    // An update (`x += v`) is named by its part that races: its load against a store, else
    // its store.
    const bool load = f.kind == ReportKind::UninitializedLoad || !(f.op & kStore) || ((f.op & kLoad) && (f.otherOp & kStore));
    report.access = load ? Access::Load : Access::Store;
    report.size = f.size;
    report.location = locationOf(site);
    const Position local = localPosition(*f.group, f.thread);
    report.threadPositionInThreadgroup = local;
    report.threadPositionInGrid = gridPosition(*f.group, local);
    report.threadgroupPositionInGrid = {f.group->position[0], f.group->position[1], f.group->position[2]};
    const std::uint64_t address = f.bits & kAddressMask;
    report.offset = address;
    if (const exec::RegionOwner* owner =
            exec::RegionTable::shared().owner(static_cast<std::uint32_t>(f.bits >> METALCPU_REGION_TAG_SHIFT))) {
        report.offset = address - owner->resourceBegin;
        report.bindingIndex = owner->bindingIndex;
        report.argumentName = owner->argumentName;
    }
    if (f.kind == ReportKind::ThreadgroupRace) {
        report.other.access = f.otherOp & kStore ? Access::Store : Access::Load;
        report.other.atomic = (f.otherOp & kAtomic) != 0;
        report.other.threadPositionInThreadgroup = localPosition(*f.group, f.otherThread);
        report.other.threadPositionInGrid = gridPosition(*f.group, report.other.threadPositionInThreadgroup);
        report.other.location = locationOf(other);
        report.other.sameSimdgroup = f.sameSimdgroup;
    }
    if (it != index_.end()) {
        report.count = reports_[it->second].count;
        reports_[it->second] = std::move(report);
        orders_[it->second] = order;
        return;
    }
    index_.emplace(key, reports_.size());
    reports_.push_back(std::move(report));
    orders_.push_back(order);
}

std::vector<ShaderValidationReport> ThreadgroupChecks::takeReports() {
    std::lock_guard lock(mutex_);
    // In dispatch order of their threads, as the dispatch's other reports, then by site.
    std::vector<std::size_t> byOrder;
    byOrder.reserve(reports_.size());
    for (const auto& [key, i] : index_) byOrder.push_back(i);
    index_.clear();
    std::stable_sort(byOrder.begin(), byOrder.end(),
                     [&](std::size_t a, std::size_t b) { return orders_[a] < orders_[b]; });
    std::vector<ShaderValidationReport> reports;
    reports.reserve(reports_.size());
    for (std::size_t i : byOrder) reports.push_back(std::move(reports_[i]));
    reports_.clear();
    orders_.clear();
    return reports;
}

} // namespace metalcpu::val
