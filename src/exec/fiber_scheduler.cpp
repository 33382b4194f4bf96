#include "exec/fiber_scheduler.h"

#include "exec/services.h"

#include <metalcpu/barrier_rounds.h>
#include <metalcpu/kernel_abi.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace ctx = boost::context::detail;

// AddressSanitizer builds: GCC defines __SANITIZE_ADDRESS__, clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define METALCPU_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define METALCPU_HAS_ASAN 1
#endif
#endif
#if defined(METALCPU_HAS_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace metalcpu::exec {
namespace {

// 256 KiB of address space per fiber; pages are committed only when a kernel touches them.
constexpr std::size_t kStackBytes = 256 * 1024;
constexpr std::size_t kMaxThreads = METALCPU_MAX_THREADS_PER_THREADGROUP;

thread_local FiberScheduler* t_current = nullptr;

/// The site of a collective called without one (unit tests): one site for all of them.
constexpr mc_simd_site kNoSite{nullptr, 0, 0, nullptr};

bool sameFile(const char* a, const char* b) { return a == b || (a && b && std::strcmp(a, b) == 0); }

bool sameSite(const mc_simd_site& a, const mc_simd_site& b) {
    return a.line == b.line && a.column == b.column && a.kind == b.kind && sameFile(a.file, b.file);
}

/// Source order: line, then column; the file and the kind only make the order total.
bool earlier(const mc_simd_site& a, const mc_simd_site& b) {
    if (a.line != b.line) return a.line < b.line;
    if (a.column != b.column) return a.column < b.column;
    if (!sameFile(a.file, b.file)) return !a.file || (b.file && std::strcmp(a.file, b.file) < 0);
    return std::less<const void*>()(a.kind, b.kind);
}

/// How many calls deep a place is compared (MSL has no recursion; helpers nest a few deep).
constexpr std::size_t kMaxCallDepth = 64;

/// Whether two collectives are at the same place: the same site, reached through calls at
/// the same sites (mc_simd_call chains, innermost first).
bool samePlace(const mc_simd_site& a, const mc_simd_call* aPath, const mc_simd_site& b, const mc_simd_call* bPath) {
    if (!sameSite(a, b)) return false;
    for (; aPath && bPath; aPath = aPath->caller, bPath = bPath->caller)
        if (!sameSite(aPath->site, bPath->site)) return false;
    return !aPath && !bPath;
}

/// The sites of a place from the kernel's body inwards, its calls' and then its own, into
/// `out`; returns how many. Calls deeper than kMaxCallDepth are left out (the outer ones
/// decide the order first).
std::size_t placeSites(const mc_simd_site& site, const mc_simd_call* path, const mc_simd_site* (&out)[kMaxCallDepth]) {
    std::size_t depth = 0;
    for (const mc_simd_call* c = path; c; c = c->caller) ++depth;
    const std::size_t kept = std::min(depth, kMaxCallDepth - 1);
    for (std::size_t skip = depth - kept; skip > 0; --skip) path = path->caller;
    for (std::size_t k = kept; k > 0; --k, path = path->caller) out[k - 1] = &path->site;
    out[kept] = &site;
    return kept + 1;
}

/// Source order of places: call by call from the kernel's body inwards (earlier()), so a
/// helper's collectives come where the helper is called; a place whose calls are a prefix of
/// another's is reached first.
bool earlierPlace(const mc_simd_site& a, const mc_simd_call* aPath, const mc_simd_site& b,
                  const mc_simd_call* bPath) {
    if (!aPath && !bPath) return earlier(a, b);
    const mc_simd_site* aSites[kMaxCallDepth];
    const mc_simd_site* bSites[kMaxCallDepth];
    const std::size_t aCount = placeSites(a, aPath, aSites), bCount = placeSites(b, bPath, bSites);
    for (std::size_t k = 0; k < std::min(aCount, bCount); ++k)
        if (!sameSite(*aSites[k], *bSites[k])) return earlier(*aSites[k], *bSites[k]);
    return aCount < bCount;
}

std::size_t pageSize() {
    static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

} // namespace

FiberScheduler::FiberScheduler() = default;

FiberScheduler::~FiberScheduler() {
    if (stackRegion_) munmap(stackRegion_, stackRegionBytes_);
}

FiberScheduler* FiberScheduler::current() { return t_current; }

void FiberScheduler::ensureStacks(std::uint32_t count) {
    if (count <= stackCount_) return;
    // One reservation for the largest threadgroup, so stacks never move.
    stackRegionBytes_ = kStackBytes * kMaxThreads;
    void* region = mmap(nullptr, stackRegionBytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED) std::abort();
    stackRegion_ = static_cast<char*>(region);
    for (std::size_t i = 0; i < kMaxThreads; ++i) mprotect(stackRegion_ + i * kStackBytes, pageSize(), PROT_NONE);
    stackCount_ = kMaxThreads;
}

char* FiberScheduler::stackTop(std::uint32_t index) const {
    // Stacks 256 KiB apart would put every fiber's hot frames in the same cache sets;
    // shifting each top by a different multiple of 64 bytes spreads them out.
    return stackRegion_ + (index + 1) * kStackBytes - (index % 64) * 64 * 17 % 4096;
}

// ASan keeps one shadow stack per thread; fibers must tell it when they change stacks, or it
// reports false errors (and warns about __asan_handle_no_return) after a switch.
void FiberScheduler::announceSwitch(void** fakeStack, std::uint32_t target) const {
#if defined(METALCPU_HAS_ASAN)
    if (target == kMainContext) {
        __sanitizer_start_switch_fiber(fakeStack, mainStackBottom_, mainStackSize_);
    } else {
        const std::size_t usable = kStackBytes - pageSize();
        __sanitizer_start_switch_fiber(fakeStack, stackTop(target) - usable, usable);
    }
#else
    (void)fakeStack;
    (void)target;
#endif
}

void FiberScheduler::announceArrival(void* fakeStack, const void** fromBottom, std::size_t* fromSize) {
#if defined(METALCPU_HAS_ASAN)
    __sanitizer_finish_switch_fiber(fakeStack, fromBottom, fromSize);
#else
    (void)fakeStack;
    (void)fromBottom;
    (void)fromSize;
#endif
}

void FiberScheduler::runGroup(const mc_group* group, mc_thread_fn run, std::uint32_t threadCount) {
    if (threadCount == 0) return;
    ensureStacks(threadCount);
    group_ = group;
    run_ = run;
    contexts_.resize(threadCount);
    next_.resize(threadCount);
    previous_.resize(threadCount);
    waiting_.assign(threadCount, Wait::None);
    roundOf_.assign(threadCount, 0);
    siteOf_.assign(threadCount, nullptr);
    callOf_.assign(threadCount, nullptr);
    pathOf_.assign(threadCount, nullptr);
    scopeOf_.assign(threadCount, 0);
    const std::size_t usable = kStackBytes - pageSize();
    for (std::uint32_t i = 0; i < threadCount; ++i) {
        contexts_[i] = ctx::make_fcontext(stackTop(i), usable, &FiberScheduler::fiberMain);
        next_[i] = (i + 1) % threadCount;
        previous_[i] = (i + threadCount - 1) % threadCount;
    }
    const std::uint32_t width = group && group->dispatch ? group->dispatch->simd_width : 0;
    simdWidth_ = width >= 1 && width <= METALCPU_MAX_SIMD_WIDTH ? width : 32;
    const std::uint32_t simdgroupCount = (threadCount + simdWidth_ - 1) / simdWidth_;
    simdgroups_.assign(simdgroupCount, SimdGroup{});
    for (std::uint32_t s = 0; s < simdgroupCount; ++s)
        simdgroups_[s].alive = std::min(simdWidth_, threadCount - s * simdWidth_);
    simdValues_.resize(std::size_t(simdgroupCount) * 2 * simdWidth_ * METALCPU_SIMD_VALUE_BYTES);
    scopes_.resize(simdgroupCount);
    for (Scope& scope : scopes_) scope.simdgroups = 0, scope.records.clear();
    alive_ = threadCount;
    arrived_ = 0;
    checkBarriers_ = group && group->dispatch && (group->dispatch->checks & MC_CHECK_BARRIERS) != 0;
    if (checkBarriers_) {
        barrierSiteOf_.assign(threadCount, mc_simd_site{});
        finished_.assign(threadCount, 0);
    }
    FiberScheduler* outer = t_current;
    t_current = this;
    leavingMain_ = true;
    switchTo(0, &mainContext_);
    t_current = outer;
}

void FiberScheduler::setCurrent(std::uint32_t thread) {
    current_ = thread;
    if (group_) const_cast<mc_group*>(group_)->current_thread = static_cast<unsigned short>(thread); // null in unit tests
}

void FiberScheduler::switchTo(std::uint32_t target, Context* saveSlot) {
    setCurrent(target);
    void* fakeStack = nullptr;
    announceSwitch(&fakeStack, target);
    ctx::transfer_t back = ctx::jump_fcontext(contexts_[target], saveSlot);
    announceArrival(fakeStack, nullptr, nullptr);
    // Whoever resumed us passed the slot where their own context belongs.
    *static_cast<Context*>(back.data) = back.fctx;
}

void FiberScheduler::fiberMain(ctx::transfer_t transfer) {
    FiberScheduler* self = t_current;
    if (self->leavingMain_) {
        self->leavingMain_ = false;
        announceArrival(nullptr, &self->mainStackBottom_, &self->mainStackSize_);
    } else {
        announceArrival(nullptr, nullptr, nullptr);
    }
    *static_cast<Context*>(transfer.data) = transfer.fctx;
    self->run_(self->group_, self->current_);
    self->finishCurrent();
}

void FiberScheduler::barrier(const mc_simd_site* site) {
    if (checkBarriers_) barrierSiteOf_[current_] = site ? *site : mc_simd_site{};
    if (++arrived_ == alive_) {
        // Everyone else is waiting here: this thread starts the next phase.
        releaseThreadgroup();
        return;
    }
    // The lanes of this SIMD-group at a collective cannot be joined by this one any more.
    const std::uint32_t s = current_ / simdWidth_;
    SimdGroup& simdgroup = simdgroups_[s];
    ++simdgroup.atBarrier;
    if (simdgroup.arrived > 0 && simdgroup.arrived + simdgroup.atBarrier == simdgroup.alive) {
        resolveSimdgroup(s);
        wait(Wait::Threadgroup, firstOfLastRound(s));
        return;
    }
    wait(Wait::Threadgroup);
}

void FiberScheduler::simdExchange(const void* value, std::uint32_t size, const mc_simd_site* site,
                                  mc_simd_round* round) {
    const std::uint32_t me = current_;
    const std::uint32_t s = me / simdWidth_, lane = me % simdWidth_;
    SimdGroup& simdgroup = simdgroups_[s];
    if (!site) site = &kNoSite;
    const std::uint32_t parity = simdgroup.round & 1u;
    const mc_simd_call* path = callOf_[me];
    if (simdgroup.arrived == 0) {
        simdgroup.active[parity] = 0;
        simdgroup.site = site;
        simdgroup.path = path;
        simdgroup.divergent = false;
    } else if (!simdgroup.divergent && !samePlace(*site, path, *simdgroup.site, simdgroup.path)) {
        simdgroup.divergent = true;
    }
    if (size > 0)
        std::memcpy(simdValues(s, parity) + std::size_t(lane) * METALCPU_SIMD_VALUE_BYTES, value,
                    std::min<std::uint32_t>(size, METALCPU_SIMD_VALUE_BYTES));
    simdgroup.active[parity] |= std::uint64_t(1) << lane;
    roundOf_[me] = parity;
    siteOf_[me] = site; // in the caller's frame, which stays put while it waits
    pathOf_[me] = path; // so are its calls, in the frames of their callers
    waiting_[me] = Wait::Simdgroup;
    if (++simdgroup.arrived + simdgroup.atBarrier == simdgroup.alive) resolveSimdgroup(s);
    if (waiting_[me] != Wait::None) {
        wait(Wait::Simdgroup);
    } else if (const std::uint32_t first = firstOfLastRound(s); first != me) {
        // Released by its own arrival, this lane would run on ahead of the lanes before it: it
        // yields to the round's first lane and runs when the ring comes back to it.
        switchTo(first, &contexts_[me]);
        setCurrent(me);
    }
    // The round's buffer (the one its lanes' values are in when it is released) stays as it
    // is until this thread and every other of the round has handed in its next value, which
    // goes to the other buffer.
    const std::uint32_t buffer = roundOf_[me];
    round->values = simdValues(s, buffer);
    round->active = simdgroup.active[buffer];
    round->lane = lane;
    round->width = simdWidth_;
}

void FiberScheduler::scopeCall(std::uint32_t simdgroups, const mc_scope_record* mine, mc_scope_fn fn,
                               void* context) {
    const std::uint32_t me = current_;
    if (simdgroups == 0) simdgroups = 1;
    const std::uint32_t first = (me / simdWidth_) / simdgroups * simdgroups;
    Scope& scope = scopes_[first];
    scope.simdgroups = simdgroups;
    scope.records.push_back(*mine);
    scope.fn = fn;
    scope.context = context;
    scopeOf_[me] = first;
    if (scope.records.size() == scopeAlive(first, simdgroups)) completeScope(first);
    else wait(Wait::Scope);
}

std::uint32_t FiberScheduler::scopeAlive(std::uint32_t first, std::uint32_t simdgroups) const {
    std::uint32_t alive = 0;
    const std::uint32_t end = std::min<std::uint32_t>(first + simdgroups, static_cast<std::uint32_t>(simdgroups_.size()));
    for (std::uint32_t s = first; s < end; ++s) alive += simdgroups_[s].alive;
    return alive;
}

void FiberScheduler::completeScope(std::uint32_t first) {
    Scope& scope = scopes_[first];
    // The records' slot pointers are into the waiting threads' frames, which stay put while
    // they wait; fn runs on the calling fiber and never switches.
    scope.fn(scope.context, scope.records.data(), static_cast<std::uint32_t>(scope.records.size()));
    ++scopeCallsCompleted_;
    const std::uint32_t begin = first * simdWidth_;
    const std::uint32_t end = std::min<std::uint32_t>(begin + scope.simdgroups * simdWidth_,
                                                      static_cast<std::uint32_t>(waiting_.size()));
    for (std::uint32_t i = begin; i < end; ++i)
        if (waiting_[i] == Wait::Scope && scopeOf_[i] == first) waiting_[i] = Wait::None;
    scope.simdgroups = 0;
    scope.records.clear();
}

unsigned char* FiberScheduler::simdValues(std::uint32_t simdgroup, std::uint32_t round) {
    return simdValues_.data() + (std::size_t(simdgroup) * 2 + round) * simdWidth_ * METALCPU_SIMD_VALUE_BYTES;
}

void FiberScheduler::wait(Wait reason, std::uint32_t from) {
    const std::uint32_t me = current_;
    waiting_[me] = reason;
    const std::uint32_t target = runnableFrom(from == kMainContext ? next_[me] : from);
    if (target == me) return; // released by releaseAll
    switchTo(target, &contexts_[me]);
    setCurrent(me);
}

std::uint32_t FiberScheduler::firstOfLastRound(std::uint32_t simdgroup) const {
    const SimdGroup& group = simdgroups_[simdgroup];
    const std::uint64_t active = group.active[(group.round - 1) & 1u];
    return simdgroup * simdWidth_ + (active ? static_cast<std::uint32_t>(__builtin_ctzll(active)) : 0u);
}

std::uint32_t FiberScheduler::runnableFrom(std::uint32_t from) {
    for (;;) {
        std::uint32_t target = from;
        do {
            if (waiting_[target] == Wait::None) return target;
            target = next_[target];
        } while (target != from);
        // Every live thread waits and none completes a rendezvous: divergent code (a scope
        // operation split from a collective). Force the rounds open.
        releaseAll();
    }
}

void FiberScheduler::releaseThreadgroup(bool complete) {
    if (checkBarriers_ && complete) checkBarrierRound();
    arrived_ = 0;
    ++barriersCompleted_;
    for (Wait& w : waiting_)
        if (w == Wait::Threadgroup) w = Wait::None;
    for (SimdGroup& simdgroup : simdgroups_) simdgroup.atBarrier = 0;
}

void FiberScheduler::checkBarrierRound() const {
    metalcpu_kernel::barrier_round_tally tally(static_cast<std::uint32_t>(waiting_.size()));
    for (std::uint32_t i = 0; i < waiting_.size(); ++i) {
        if (finished_[i]) tally.finished(i);
        else if (waiting_[i] == Wait::Threadgroup || i == current_) tally.waiting(i, barrierSiteOf_[i]);
        else return; // a thread elsewhere: not a round every thread took part in
    }
    if (tally.divergent()) reportBarrierRound(group_, tally.round());
}

void FiberScheduler::checkSimdgroupBarrier(std::uint32_t simdgroup) const {
    const std::uint32_t begin = simdgroup * simdWidth_;
    const std::uint32_t end = std::min<std::uint32_t>(begin + simdWidth_, static_cast<std::uint32_t>(waiting_.size()));
    const auto atBarrier = [&](std::uint32_t i) {
        return waiting_[i] == Wait::Simdgroup && siteOf_[i]->kind == MC_SIMD_BARRIER_KIND;
    };
    std::uint32_t at = end;
    for (std::uint32_t i = begin; i < end; ++i)
        if (atBarrier(i) && (at == end || earlierPlace(*siteOf_[i], pathOf_[i], *siteOf_[at], pathOf_[at]))) at = i;
    if (at == end) return;
    // Threads that returned are not active: Metal's SIMD-group functions and barrier work over
    // the active threads, so only those that are still running count.
    mc_barrier_round round{};
    round.site = *siteOf_[at];
    round.first_missing = static_cast<std::uint32_t>(waiting_.size());
    for (std::uint32_t i = begin; i < end; ++i) {
        if (finished_[i]) continue;
        ++round.threads;
        if (atBarrier(i) && samePlace(*siteOf_[i], pathOf_[i], *siteOf_[at], pathOf_[at])) {
            ++round.reached;
            continue;
        }
        // At a SIMD-group function, or at (or on its way to) the threadgroup barrier.
        if (round.elsewhere++ == 0) round.other = waiting_[i] == Wait::Simdgroup ? *siteOf_[i] : barrierSiteOf_[i];
        round.first_missing = std::min(round.first_missing, i);
    }
    if (round.elsewhere > 0) reportBarrierRound(group_, round);
}

void FiberScheduler::resolveSimdgroup(std::uint32_t simdgroup) {
    if (checkBarriers_) checkSimdgroupBarrier(simdgroup);
    SimdGroup& group = simdgroups_[simdgroup];
    if (!group.divergent) {
        releaseSimdgroup(simdgroup);
        return;
    }
    const std::uint32_t begin = simdgroup * simdWidth_;
    const std::uint32_t end = std::min<std::uint32_t>(begin + simdWidth_, static_cast<std::uint32_t>(waiting_.size()));
    std::uint32_t first = end;
    for (std::uint32_t i = begin; i < end; ++i)
        if (waiting_[i] == Wait::Simdgroup &&
            (first == end || earlierPlace(*siteOf_[i], pathOf_[i], *siteOf_[first], pathOf_[first])))
            first = i;
    // Every lane of the SIMD-group is waiting, so none is still reading a round's values:
    // a lane whose value went to the other buffer (it arrived after an earlier partial
    // release) can have it moved to this round's.
    const std::uint32_t parity = group.round & 1u;
    std::uint64_t active = 0;
    std::uint32_t released = 0;
    for (std::uint32_t i = begin; i < end; ++i) {
        if (waiting_[i] != Wait::Simdgroup || !samePlace(*siteOf_[i], pathOf_[i], *siteOf_[first], pathOf_[first]))
            continue;
        const std::size_t offset = std::size_t(i - begin) * METALCPU_SIMD_VALUE_BYTES;
        if (roundOf_[i] != parity)
            std::memcpy(simdValues(simdgroup, parity) + offset, simdValues(simdgroup, roundOf_[i]) + offset,
                        METALCPU_SIMD_VALUE_BYTES);
        roundOf_[i] = parity;
        active |= std::uint64_t(1) << (i - begin);
        ++released;
    }
    for (std::uint32_t i = begin; i < end; ++i)
        if ((active >> (i - begin)) & 1u) waiting_[i] = Wait::None;
    group.active[parity] = active;
    ++group.round;
    group.arrived -= released;
    group.divergent = group.arrived > 0;
}

void FiberScheduler::releaseSimdgroup(std::uint32_t simdgroup) {
    simdgroups_[simdgroup].arrived = 0;
    ++simdgroups_[simdgroup].round;
    const std::uint32_t begin = simdgroup * simdWidth_;
    const std::uint32_t end = std::min<std::uint32_t>(begin + simdWidth_, static_cast<std::uint32_t>(waiting_.size()));
    for (std::uint32_t i = begin; i < end; ++i)
        if (waiting_[i] == Wait::Simdgroup) waiting_[i] = Wait::None;
}

void FiberScheduler::releaseAll() {
    bool released = false;
    for (std::uint32_t first = 0; first < scopes_.size(); ++first)
        if (!scopes_[first].records.empty()) completeScope(first), released = true;
    for (std::uint32_t s = 0; s < simdgroups_.size(); ++s)
        if (simdgroups_[s].arrived > 0) resolveSimdgroup(s), released = true;
    // A barrier opened early lets threads past it that should wait: only when nothing else can.
    if (!released && arrived_ > 0) releaseThreadgroup(false);
}

void FiberScheduler::finishCurrent() {
    const std::uint32_t me = current_;
    if (checkBarriers_) finished_[me] = 1;
    --alive_;
    SimdGroup& simdgroup = simdgroups_[me / simdWidth_];
    --simdgroup.alive;
    if (alive_ == 0) {
        setCurrent(0);
        announceSwitch(nullptr, kMainContext);
        ctx::jump_fcontext(mainContext_, &discarded_);
        __builtin_unreachable();
    }
    const std::uint32_t following = next_[me];
    next_[previous_[me]] = following;
    previous_[following] = previous_[me];
    // The rest may all have been waiting for this thread (which counts as arrived by leaving).
    if (arrived_ > 0 && arrived_ == alive_) releaseThreadgroup();
    std::uint32_t resumeFrom = following;
    if (simdgroup.arrived > 0 && simdgroup.arrived + simdgroup.atBarrier == simdgroup.alive) {
        resolveSimdgroup(me / simdWidth_);
        resumeFrom = firstOfLastRound(me / simdWidth_);
    }
    for (std::uint32_t first = 0; first < scopes_.size(); ++first) {
        const Scope& scope = scopes_[first];
        if (!scope.records.empty() && scope.records.size() == scopeAlive(first, scope.simdgroups))
            completeScope(first);
    }
    const std::uint32_t target = runnableFrom(resumeFrom);
    setCurrent(target);
    announceSwitch(nullptr, target);
    ctx::jump_fcontext(contexts_[target], &discarded_);
    __builtin_unreachable();
}

} // namespace metalcpu::exec
