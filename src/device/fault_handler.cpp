#include "device/fault_handler.h"

#include "exec/dispatch.h"
#include "exec/services.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <sched.h>
#include <cstring>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace metalcpu::device {
namespace {

const iso::ArenaDirectory* g_directory = nullptr;
iso::FaultRecord* g_record = nullptr;

thread_local std::uint64_t t_tag = 0;
thread_local const char* t_kernel = nullptr;

/// How near the stack pointer a faulting address must be to count as a stack overflow: a
/// thread's or fiber's stack ends at an inaccessible page, and a frame that does not fit
/// touches it within the frame's size below the stack pointer.
constexpr std::uint64_t kStackReach = 256 * 1024;

constexpr std::size_t kSignalStackBytes = 64 * 1024;

std::uint64_t stackPointer(const void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<std::uint64_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return uc->uc_mcontext.sp;
#else
    (void)uc;
    return 0;
#endif
}

std::uint64_t instructionPointer(const void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<std::uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/// The first touch of a live allocation's pages: map them for reading and writing and retry.
bool grantArenaPages(std::uint64_t address) {
    iso::ArenaDirectory::Allocation allocation;
    if (!g_directory || !g_directory->find(address, &allocation)) return false;
    if (mprotect(reinterpret_cast<void*>(allocation.begin), allocation.size, PROT_READ | PROT_WRITE) == 0) return true;
    // Out of memory mappings (vm.max_map_count: each buffer in use takes two): the whole
    // arena becomes accessible, one mapping again; the free granules between buffers no longer
    // fault.
    return errno == ENOMEM &&
           mprotect(reinterpret_cast<void*>(g_directory->base()), g_directory->bytes(), PROT_READ | PROT_WRITE) == 0;
}

void onFault(int signal, siginfo_t* info, void* context) {
    const auto address = reinterpret_cast<std::uint64_t>(info->si_addr);
    // A buffer's first touch: map it and retry. Not when the address is the instruction
    // (a jump into a buffer, which stays not executable), nor twice in a row for the same
    // address (the retry would fault for ever). The kernel resumes with its errno as it was.
    static thread_local std::uint64_t lastGranted = 0;
    const int savedErrno = errno;
    if (signal == SIGSEGV && info->si_code == SEGV_ACCERR && address != instructionPointer(context) &&
        address != lastGranted && grantArenaPages(address)) {
        lastGranted = address;
        errno = savedErrno;
        return;
    }

    iso::FaultRecord* record = g_record;
    // Only the first fault is recorded; a second thread's fault waits for the end.
    static std::atomic<int> recording{0};
    if (record && recording.exchange(1) == 0) {
        record->signal = signal;
        record->code = info->si_code;
        record->address = address;
        record->instruction = instructionPointer(context);
        const std::uint64_t sp = stackPointer(context);
        record->stackOverflow = (signal == SIGSEGV || signal == SIGBUS) && sp &&
                                (address > sp ? address - sp : sp - address) < kStackReach;
#ifdef SYS_SECCOMP
        if (signal == SIGSYS && info->si_code == SYS_SECCOMP) record->systemCall = static_cast<std::uint32_t>(info->si_syscall);
#endif
        std::uint64_t tag = t_tag;
        const char* kernel = t_kernel;
        if (const exec::Dispatch* dispatch = exec::currentDispatch()) {
            tag = dispatch->tag;
            kernel = dispatch->kernelName.c_str();
        }
        record->requestTag = tag;
        if (kernel) {
            std::size_t n = 0;
            while (kernel[n] && n + 1 < sizeof record->kernel) {
                record->kernel[n] = kernel[n];
                ++n;
            }
            record->kernel[n] = '\0';
        }
        record->written.store(1, std::memory_order_release);
    } else if (record) {
        while (record->written.load(std::memory_order_acquire) == 0) sched_yield();
    }
    _exit(70);
}

} // namespace

namespace {

/// A thread's signal stack, unmapped when the thread ends (after it is no longer in use).
struct ThreadSignalStack {
    void* memory = nullptr;
    ~ThreadSignalStack() {
        if (!memory) return;
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        if (sigaltstack(&off, nullptr) == 0) munmap(memory, kSignalStackBytes);
    }
};

} // namespace

void giveThreadSignalStack() {
    static thread_local ThreadSignalStack given;
    if (given.memory) return;
    void* memory = mmap(nullptr, kSignalStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;
    stack_t stack{};
    stack.ss_sp = memory;
    stack.ss_size = kSignalStackBytes;
    if (sigaltstack(&stack, nullptr) == 0) given.memory = memory;
    else munmap(memory, kSignalStackBytes);
}

void installFaultHandlers(const iso::ArenaDirectory* directory, iso::FaultRecord* record) {
    g_directory = directory;
    g_record = record;
    struct sigaction action{};
    action.sa_sigaction = &onFault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT}) sigaction(signal, &action, nullptr);
    giveThreadSignalStack();
}

void setThreadActivity(std::uint64_t tag, const char* kernel) {
    t_tag = tag;
    t_kernel = kernel;
}

} // namespace metalcpu::device
