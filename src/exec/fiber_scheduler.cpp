#include "exec/fiber_scheduler.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

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
constexpr std::size_t kMaxThreads = 1024;

thread_local FiberScheduler* t_current = nullptr;

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
    const std::size_t usable = kStackBytes - pageSize();
    for (std::uint32_t i = 0; i < threadCount; ++i) {
        contexts_[i] = ctx::make_fcontext(stackTop(i), usable, &FiberScheduler::fiberMain);
        next_[i] = (i + 1) % threadCount;
        previous_[i] = (i + threadCount - 1) % threadCount;
    }
    alive_ = threadCount;
    arrived_ = 0;
    FiberScheduler* outer = t_current;
    t_current = this;
    leavingMain_ = true;
    switchTo(0, &mainContext_);
    t_current = outer;
}

void FiberScheduler::switchTo(std::uint32_t target, Context* saveSlot) {
    current_ = target;
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

void FiberScheduler::barrier() {
    const std::uint32_t me = current_;
    if (++arrived_ == alive_) {
        // Everyone else is waiting here: this thread starts the next phase.
        arrived_ = 0;
        ++barriersCompleted_;
        return;
    }
    switchTo(next_[me], &contexts_[me]);
    current_ = me;
}

void FiberScheduler::finishCurrent() {
    const std::uint32_t me = current_;
    --alive_;
    if (alive_ == 0) {
        current_ = 0;
        announceSwitch(nullptr, kMainContext);
        ctx::jump_fcontext(mainContext_, &discarded_);
        __builtin_unreachable();
    }
    const std::uint32_t following = next_[me];
    next_[previous_[me]] = following;
    previous_[following] = previous_[me];
    if (arrived_ == alive_) {
        // The rest were all waiting for this thread (which counts as arrived by leaving).
        arrived_ = 0;
        ++barriersCompleted_;
    }
    current_ = following;
    announceSwitch(nullptr, following);
    ctx::jump_fcontext(contexts_[following], &discarded_);
    __builtin_unreachable();
}

} // namespace metalcpu::exec
