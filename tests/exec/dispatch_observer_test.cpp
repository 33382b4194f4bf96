// Tests of exec/dispatch_observer.h: the executor tells whatever observes a dispatch of the
// invalid accesses an instrumented kernel makes, through the interface alone (no validation
// type here), and lets the observer choose the address the kernel touches.
#include "exec/dispatch_observer.h"
#include "exec/executor.h"
#include "exec/regions.h"
#include "test_kernels.h"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

namespace metalcpu::exec {
namespace {

using testing::GuardedBuffer;
using testing::gridIndex;
using testing::makeDispatch;

/// Records what it is told; lets accesses through to the real address or not.
class RecordingObserver final : public DispatchObserver {
public:
    struct Call {
        std::uint64_t pointer, byteOffset, size;
        std::uint32_t op;
        const mc_site* site;
        ObservedThread thread;
        void* standIn;
    };

    bool letThrough = false;
    bool threadgroupChecks = true;

    void* invalidAccess(std::uint64_t pointer, std::uint64_t byteOffset, std::uint64_t size, std::uint32_t op,
                        const mc_site* site, const ObservedThread& thread, void* standIn) override {
        std::lock_guard lock(mutex_);
        calls.push_back(Call{pointer, byteOffset, size, op, site, thread, standIn});
        return letThrough ? reinterpret_cast<void*>(pointer + byteOffset) : standIn;
    }
    bool checksThreadgroupMemory() const override { return threadgroupChecks; }

    std::vector<Call> calls;

private:
    std::mutex mutex_;
};

const mc_site kStoreSite = {"observed.metal", "store_one", 7, 9};
constexpr std::uint32_t kFaultingThread = 5; // within its group

// A kernel on fibers whose thread kFaultingThread of every group makes one "invalid" store, as
// an instrumented kernel does when its check fails: it asks the executor where to store.
void storeThread(const mc_group* g, mc_u32 i) {
    auto* out = static_cast<std::uint32_t*>(g->dispatch->buffers[0]);
    std::uint32_t* target = &out[gridIndex(g, i)];
    if (i == kFaultingThread) {
        target = static_cast<std::uint32_t*>(exec::kernelServices()->validation_fault(
            reinterpret_cast<std::uint64_t>(out), std::uint64_t(gridIndex(g, i)) * 4, 4, MC_OP_STORE, &kStoreSite));
    }
    *target = 100 + gridIndex(g, i);
}

/// Runs storeThread over `grid` in groups of `group`, observed by `observer` (may be null),
/// into `out`.
void runStoreKernel(const std::uint32_t (&grid)[3], const std::uint32_t (&group)[3], DispatchObserver* observer,
                    GuardedBuffer& out) {
    mc_kernel kernel{};
    kernel.name = "store_one";
    kernel.flags = MC_KERNEL_USES_BARRIERS;
    kernel.run_thread = &storeThread;
    Dispatch dispatch = makeDispatch(kernel, grid, group);
    dispatch.parameters.buffers[0] = out.data();
    dispatch.observer = observer;
    const DispatchResult result = Executor::shared().run(dispatch);
    ASSERT_TRUE(result.ok) << result.error;
}

// Test that the observer hears of each invalid access with the thread that made it, and that
// the kernel then touches the stand-in it returned: the real element keeps its old value.
TEST(DispatchObserver, ToldOfEachInvalidAccessWithItsThread) {
    const std::uint32_t grid[3] = {20, 2, 1}, group[3] = {8, 1, 1}; // 3 x 2 groups, the last cut to 4
    GuardedBuffer out(40);
    RecordingObserver observer;
    runStoreKernel(grid, group, &observer, out);

    // Groups x = 0, 1 have a thread 5 (x = 5, 13); the last group's 4 threads do not.
    ASSERT_EQ(observer.calls.size(), 4u);
    for (const RecordingObserver::Call& call : observer.calls) {
        EXPECT_EQ(call.op, std::uint32_t(MC_OP_STORE));
        EXPECT_EQ(call.size, 4u);
        EXPECT_EQ(call.site, &kStoreSite);
        EXPECT_EQ(call.thread.local.x, kFaultingThread);
        EXPECT_EQ(call.thread.local.y, 0u);
        EXPECT_EQ(call.thread.grid.x, call.thread.group.x * 8 + kFaultingThread);
        EXPECT_EQ(call.thread.grid.y, call.thread.group.y);
        EXPECT_EQ(call.byteOffset, (call.thread.grid.y * 20 + call.thread.grid.x) * 4u);
        EXPECT_LT(call.thread.threadgroupBegin, call.thread.threadgroupEnd);
    }
    for (std::uint32_t y = 0; y < 2; ++y)
        for (std::uint32_t x = 0; x < 20; ++x) {
            const bool faulted = x % 8 == kFaultingThread;
            EXPECT_EQ(out[y * 20 + x], faulted ? 0u : 100 + y * 20 + x) << x << "," << y;
        }
    EXPECT_TRUE(out.canariesIntact());
}

// Test that an observer may let the access happen where the kernel aimed it.
TEST(DispatchObserver, MayLetTheAccessThrough) {
    const std::uint32_t grid[3] = {8, 1, 1}, group[3] = {8, 1, 1};
    GuardedBuffer out(8);
    RecordingObserver observer;
    observer.letThrough = true;
    runStoreKernel(grid, group, &observer, out);
    ASSERT_EQ(observer.calls.size(), 1u);
    EXPECT_EQ(out[kFaultingThread], 100 + kFaultingThread);
    EXPECT_TRUE(out.canariesIntact());
}

// Test that without an observer an invalid access still goes to a stand-in, never the real
// address (an instrumented kernel outside a validated dispatch cannot corrupt memory).
TEST(DispatchObserver, WithoutOneTheAccessGoesToAStandIn) {
    const std::uint32_t grid[3] = {8, 1, 1}, group[3] = {8, 1, 1};
    GuardedBuffer out(8);
    runStoreKernel(grid, group, nullptr, out);
    EXPECT_EQ(out[kFaultingThread], 0u);
    EXPECT_EQ(out[kFaultingThread + 1], 100 + kFaultingThread + 1);
}

// The span the tag of a checked threadgroup variable allows, as the kernel sees it.
std::vector<std::uint64_t> g_spans;
std::mutex g_spansMutex;

void checkedVariableGroup(const mc_group* g) {
    const mc_u64 tagged = exec::kernelServices()->checked_threadgroup_variable(g, 1u << 20, 64, 16);
    const mc_region& region = exec::kernelServices()->regions[tagged >> METALCPU_REGION_TAG_SHIFT];
    std::lock_guard lock(g_spansMutex);
    g_spans.push_back(region.length);
}

// Test that the observer decides whether threadgroup pointers are confined to their variable.
TEST(DispatchObserver, DecidesWhetherThreadgroupMemoryIsChecked) {
    mc_kernel kernel{};
    kernel.name = "checked_variable";
    kernel.run_group = &checkedVariableGroup;
    const std::uint32_t grid[3] = {4, 1, 1}, group[3] = {4, 1, 1};
    for (bool checks : {true, false}) {
        g_spans.clear();
        Dispatch dispatch = makeDispatch(kernel, grid, group);
        RecordingObserver observer;
        observer.threadgroupChecks = checks;
        dispatch.observer = &observer;
        ASSERT_TRUE(Executor::shared().run(dispatch).ok);
        ASSERT_EQ(g_spans.size(), 1u);
        EXPECT_EQ(g_spans[0], checks ? 64u : ~std::uint64_t(0)) << (checks ? "checked" : "unchecked");
    }
}

} // namespace
} // namespace metalcpu::exec
