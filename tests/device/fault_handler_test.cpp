#include "device/fault_handler.h"

#include <gtest/gtest.h>

#include <csignal>
#include <functional>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace metalcpu::device {
namespace {

/// What a child that ran `action` under the fault handlers left: its wait status and record.
struct Ending {
    int status = 0;
    struct {
        std::uint32_t written = 0;
        int signal = 0;
        std::uint32_t stackOverflow = 0;
        std::uint64_t address = 0, requestTag = 0;
        std::string kernel;
    } record;
};

/// An arena of four granules at a free address, with one live allocation in its second
/// granule, as a device process sees the host's buffers: mapped but inaccessible.
struct TinyArena {
    int file = memfd_create("test-arena", 0);
    std::uint8_t* base = nullptr;
    void* directoryMemory = nullptr;
    iso::ArenaDirectory directory;

    TinyArena() {
        const std::uint64_t bytes = 4 * iso::kArenaGranule;
        EXPECT_EQ(ftruncate(file, static_cast<off_t>(bytes)), 0);
        base = static_cast<std::uint8_t*>(mmap(nullptr, bytes, PROT_NONE, MAP_SHARED, file, 0));
        directoryMemory = mmap(nullptr, iso::ArenaDirectory::bytesFor(4), PROT_READ | PROT_WRITE,
                               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        directory = iso::ArenaDirectory(directoryMemory, reinterpret_cast<std::uint64_t>(base), 4);
        directory.record(reinterpret_cast<std::uint64_t>(base) + iso::kArenaGranule, 100, iso::kArenaGranule);
    }
};

Ending runFaulting(const std::function<void(TinyArena&)>& action) {
    TinyArena arena;
    auto* record = static_cast<iso::FaultRecord*>(
        mmap(nullptr, iso::kFaultRecordBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    const pid_t child = fork();
    if (child == 0) {
        installFaultHandlers(&arena.directory, record);
        setThreadActivity(77, "the_kernel");
        action(arena);
        _exit(0);
    }
    Ending ending;
    waitpid(child, &ending.status, 0);
    ending.record.written = record->written.load();
    ending.record.signal = record->signal;
    ending.record.stackOverflow = record->stackOverflow;
    ending.record.address = record->address;
    ending.record.requestTag = record->requestTag;
    ending.record.kernel = record->kernel;
    munmap(record, iso::kFaultRecordBytes);
    return ending;
}

volatile int g_zero = 0;

int recurse(volatile int* depth) {
    volatile char frame[4096];
    if (*depth < 0) return 0; // never: the stack ends first
    frame[*depth % 4096] = 1;
    *depth = *depth + 1;
    return recurse(depth) + frame[0];
}

// Test that the first touch of a live allocation's pages is let through, reads zero and keeps
// what is written: the device process maps the host's buffers on demand.
TEST(FaultHandler, LiveAllocationPagesAreMappedOnFirstTouch) {
    Ending ending = runFaulting([](TinyArena& arena) {
        std::uint8_t* buffer = arena.base + iso::kArenaGranule;
        if (buffer[10] != 0) _exit(1);
        buffer[10] = 42;
        if (buffer[10] != 42) _exit(2);
    });
    ASSERT_TRUE(WIFEXITED(ending.status));
    EXPECT_EQ(WEXITSTATUS(ending.status), 0);
    EXPECT_EQ(ending.record.written, 0u);
}

// Test that a touch of the free granule after an allocation, and a store through a null
// pointer, are recorded as SIGSEGV faults of the running dispatch, with the address.
TEST(FaultHandler, StoresOutsideLiveAllocationsAreRecorded) {
    for (int which = 0; which < 2; ++which) {
        Ending ending = runFaulting([&](TinyArena& arena) {
            volatile std::uint8_t* target = which == 0 ? arena.base + 2 * iso::kArenaGranule + 8
                                                       : reinterpret_cast<std::uint8_t*>(16);
            *target = 1;
        });
        ASSERT_TRUE(WIFEXITED(ending.status)) << which;
        EXPECT_EQ(WEXITSTATUS(ending.status), 70);
        EXPECT_EQ(ending.record.written, 1u);
        EXPECT_EQ(ending.record.signal, SIGSEGV);
        EXPECT_EQ(ending.record.requestTag, 77u);
        EXPECT_EQ(ending.record.kernel, "the_kernel");
        EXPECT_EQ(ending.record.stackOverflow, 0u);
        if (which == 1) {
            EXPECT_EQ(ending.record.address, 16u);
        }
    }
}

// Test that the other signals a kernel can raise are recorded too: an illegal instruction,
// an integer division by zero, and a bus error.
TEST(FaultHandler, TrapsAreRecorded) {
    Ending illegal = runFaulting([](TinyArena&) { __builtin_trap(); });
    EXPECT_EQ(illegal.record.signal, SIGILL);
    Ending divide = runFaulting([](TinyArena&) {
        volatile int quotient = 10 / g_zero;
        (void)quotient;
    });
    EXPECT_EQ(divide.record.signal, SIGFPE);
    Ending bus = runFaulting([](TinyArena&) {
        // A shared page past the end of its file: reading it raises SIGBUS.
        const int file = memfd_create("short", 0);
        auto* page = static_cast<volatile char*>(mmap(nullptr, 4096, PROT_READ, MAP_SHARED, file, 0));
        (void)page[0];
    });
    EXPECT_EQ(bus.record.signal, SIGBUS);
    for (const Ending* ending : {&illegal, &divide, &bus}) {
        ASSERT_TRUE(WIFEXITED(ending->status));
        EXPECT_EQ(WEXITSTATUS(ending->status), 70);
        EXPECT_EQ(ending->record.requestTag, 77u);
    }
}

// Test that running out of stack is caught on the alternate signal stack and recorded as a
// stack overflow, not as an ordinary fault.
TEST(FaultHandler, StackOverflowIsRecognised) {
    Ending ending = runFaulting([](TinyArena&) {
        volatile int depth = 0;
        recurse(&depth);
    });
    ASSERT_TRUE(WIFEXITED(ending.status));
    EXPECT_EQ(WEXITSTATUS(ending.status), 70);
    EXPECT_EQ(ending.record.signal, SIGSEGV);
    EXPECT_EQ(ending.record.stackOverflow, 1u);
}

} // namespace
} // namespace metalcpu::device
