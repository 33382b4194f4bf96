#include "isolation/shared_arena.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace metalcpu::iso {
namespace {

// Test that allocations are whole granules of the arena, zero-filled, with a free granule
// between two of them, and that the directory knows where each begins and ends.
TEST(SharedArena, AllocationsAreZeroedGranulesKnownToTheDirectory) {
    SharedArena* host = SharedArena::host();
    ASSERT_NE(host, nullptr) << "no shared arena on this machine";
    SharedArena& shared = *host;
    std::uint8_t* a = shared.allocate(100);
    std::uint8_t* b = shared.allocate(3 * kArenaGranule + 1);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uint64_t>(a) % kArenaGranule, 0u);
    EXPECT_TRUE(shared.contains(a, 100));
    for (int i = 0; i < 100; ++i) ASSERT_EQ(a[i], 0);
    std::memset(a, 0xab, kArenaGranule);

    ArenaDirectory::Allocation found;
    ASSERT_TRUE(shared.directory().find(reinterpret_cast<std::uint64_t>(a) + 50, &found));
    EXPECT_EQ(found.begin, reinterpret_cast<std::uint64_t>(a));
    EXPECT_EQ(found.length, 100u);
    EXPECT_EQ(found.size, kArenaGranule);
    ASSERT_TRUE(shared.directory().find(reinterpret_cast<std::uint64_t>(b) + 3 * kArenaGranule, &found));
    EXPECT_EQ(found.size, 4 * kArenaGranule);
    // The granule after an allocation belongs to nobody, but is reported against it.
    const std::uint64_t after = reinterpret_cast<std::uint64_t>(a) + kArenaGranule;
    EXPECT_FALSE(shared.directory().find(after, &found));
    ASSERT_TRUE(shared.directory().findAtOrBelow(after + 8, &found));
    EXPECT_EQ(found.begin, reinterpret_cast<std::uint64_t>(a));

    shared.release(a);
    EXPECT_FALSE(shared.directory().find(reinterpret_cast<std::uint64_t>(a), &found));
    // Its pages went back to the system: memory given out there again reads zero. (Its
    // run, of the same size, is the best fit.)
    std::uint8_t* again = shared.allocate(100);
    ASSERT_EQ(again, a);
    for (std::uint64_t i = 0; i < kArenaGranule; ++i) ASSERT_EQ(again[i], 0) << i;
    shared.release(again);
    shared.release(b);
}

// Test that freed runs merge, so that many small allocations freed make room for a large one
// at the same place, and that the bytes in use are counted.
TEST(SharedArena, FreedRunsMergeAndAreReused) {
    SharedArena* host = SharedArena::host();
    ASSERT_NE(host, nullptr) << "no shared arena on this machine";
    SharedArena& shared = *host;
    const std::uint64_t before = shared.allocatedBytes();
    std::vector<std::uint8_t*> small;
    for (int i = 0; i < 64; ++i) small.push_back(shared.allocate(kArenaGranule));
    for (std::uint8_t* p : small) ASSERT_NE(p, nullptr);
    EXPECT_EQ(shared.allocatedBytes(), before + 64 * kArenaGranule);
    std::set<std::uint8_t*> distinct(small.begin(), small.end());
    EXPECT_EQ(distinct.size(), small.size());
    for (std::uint8_t* p : small) shared.release(p);
    EXPECT_EQ(shared.allocatedBytes(), before);
    // 64 granules plus the gaps between them are one free run again.
    std::uint8_t* large = shared.allocate(100 * kArenaGranule);
    ASSERT_NE(large, nullptr);
    EXPECT_TRUE(shared.contains(large, 100 * kArenaGranule));
    shared.release(large);
}

// Test that a request larger than the arena is refused, not wrapped around.
TEST(SharedArena, TooLargeIsRefused) {
    SharedArena* host = SharedArena::host();
    ASSERT_NE(host, nullptr) << "no shared arena on this machine";
    SharedArena& shared = *host;
    EXPECT_EQ(shared.allocate(shared.bytes()), nullptr);
    EXPECT_EQ(shared.allocate(~std::uint64_t(0)), nullptr);
    EXPECT_FALSE(shared.contains(reinterpret_cast<void*>(shared.base() + shared.bytes() - 4), 8));
}

// Test that another mapping of the arena's memory file at another address sees the same
// bytes: what a device process does at the same address.
TEST(SharedArena, MemoryFileHoldsTheBytes) {
    SharedArena* host = SharedArena::host();
    ASSERT_NE(host, nullptr) << "no shared arena on this machine";
    SharedArena& shared = *host;
    std::uint8_t* a = shared.allocate(64);
    ASSERT_NE(a, nullptr);
    std::memcpy(a, "shared", 7);
    const off_t offset = static_cast<off_t>(reinterpret_cast<std::uint64_t>(a) - shared.base());
    void* view = mmap(nullptr, kArenaGranule, PROT_READ, MAP_SHARED, shared.memoryFile(), offset);
    ASSERT_NE(view, MAP_FAILED);
    EXPECT_STREQ(static_cast<const char*>(view), "shared");
    munmap(view, kArenaGranule);
    shared.release(a);
}

// Test that a child made by fork() neither allocates from the arena it inherited nor, when it
// releases a buffer, zeroes or frees the parent's memory: the file is shared with the parent.
TEST(SharedArena, ForkedChildLeavesTheParentsArenaAlone) {
    SharedArena* host = SharedArena::host();
    ASSERT_NE(host, nullptr) << "no shared arena on this machine";
    std::uint8_t* buffer = host->allocate(100);
    ASSERT_NE(buffer, nullptr);
    std::memset(buffer, 0x5a, 100);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const bool refused = host->forked() && host->allocate(100) == nullptr;
        host->release(buffer);
        _exit(refused ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child allocated from the arena";
    EXPECT_FALSE(host->forked());
    for (int i = 0; i < 100; ++i) ASSERT_EQ(buffer[i], 0x5a) << i;
    ArenaDirectory::Allocation found;
    EXPECT_TRUE(host->directory().find(reinterpret_cast<std::uint64_t>(buffer), &found));
    host->release(buffer);
}

} // namespace
} // namespace metalcpu::iso
