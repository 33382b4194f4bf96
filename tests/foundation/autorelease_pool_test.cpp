// Autorelease pools: Cocoa's semantics with a pool, a bounded fallback without one.
#include "foundation/autorelease_pool.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace metalcpu::ns {
namespace {

using testing::Probe;

// Test that an object autoreleased into a pool lives until the pool is drained.
TEST(AutoreleasePoolTest, DrainReleasesObjects) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    bool destroyed = false;
    make<Probe>(&destroyed)->autorelease();
    EXPECT_FALSE(destroyed);
    pool->drain();
    EXPECT_TRUE(destroyed);
}

// Test that release() of a pool drains it, as in Cocoa.
TEST(AutoreleasePoolTest, ReleaseDrains) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    bool destroyed = false;
    make<Probe>(&destroyed)->autorelease();
    pool->release();
    EXPECT_TRUE(destroyed);
}

// Test that an object retained after autorelease survives the drain with one reference.
TEST(AutoreleasePoolTest, RetainedObjectSurvivesDrain) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    bool destroyed = false;
    NS::Object* probe = make<Probe>(&destroyed)->autorelease()->retain();
    pool->drain();
    EXPECT_FALSE(destroyed);
    EXPECT_EQ(probe->retainCount(), 1u);
    probe->release();
    EXPECT_TRUE(destroyed);
}

// Test that addObject hands the object to the pool like autorelease.
TEST(AutoreleasePoolTest, AddObject) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    bool destroyed = false;
    pool->addObject(make<Probe>(&destroyed));
    EXPECT_FALSE(destroyed);
    pool->drain();
    EXPECT_TRUE(destroyed);
}

// Test that autorelease goes to the innermost pool, and draining it leaves the outer's.
TEST(AutoreleasePoolTest, NestedPoolsDrainInnermostFirst) {
    NS::AutoreleasePool* outer = NS::AutoreleasePool::alloc()->init();
    bool outerObject = false, innerObject = false;
    make<Probe>(&outerObject)->autorelease();
    NS::AutoreleasePool* inner = NS::AutoreleasePool::alloc()->init();
    make<Probe>(&innerObject)->autorelease();
    inner->drain();
    EXPECT_TRUE(innerObject);
    EXPECT_FALSE(outerObject);
    outer->drain();
    EXPECT_TRUE(outerObject);
}

// Test that draining an outer pool drains the pools nested in it, newest objects first.
TEST(AutoreleasePoolTest, OuterDrainReleasesNestedPoolsInOrder) {
    std::vector<int> order;
    class Recorder final : public Implements<NS::Object> {
    public:
        Recorder(std::vector<int>* order, int id) : order_(order), id_(id) {}
        ~Recorder() override { order_->push_back(id_); }
        const char* className() const override { return "Recorder"; }

    private:
        std::vector<int>* order_;
        int id_;
    };
    NS::AutoreleasePool* outer = NS::AutoreleasePool::alloc()->init();
    make<Recorder>(&order, 1)->autorelease();
    NS::AutoreleasePool::alloc()->init(); // never drained by the program
    make<Recorder>(&order, 2)->autorelease();
    make<Recorder>(&order, 3)->autorelease();
    outer->drain();
    EXPECT_EQ(order, (std::vector<int>{3, 2, 1}));
}

// Test that an object autoreleased into a pool that is then drained is freed (the live
// object count returns to where it was).
TEST(AutoreleasePoolTest, DrainedPoolFreesEverything) {
    std::size_t before = ObjectBase::liveObjectCount();
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    for (int i = 0; i < 1000; ++i) NS::String::string("loop", NS::UTF8StringEncoding);
    EXPECT_GE(ObjectBase::liveObjectCount(), before + 1000);
    pool->drain();
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test that a thread without any pool keeps memory bounded: 100000 autoreleased strings
// leave at most the fallback pool's capacity alive.
TEST(AutoreleasePoolTest, LoopWithoutPoolStaysBounded) {
    std::thread([] {
        std::size_t before = ObjectBase::liveObjectCount();
        std::size_t peak = 0;
        for (int i = 0; i < 100000; ++i) {
            NS::String* string = NS::String::string("autoreleased", NS::UTF8StringEncoding);
            ASSERT_NE(string, nullptr);
            peak = std::max(peak, ObjectBase::liveObjectCount() - before);
        }
        EXPECT_LE(peak, kFallbackPoolCapacity + 1);
        EXPECT_EQ(fallbackPoolSize(), kFallbackPoolCapacity);
    }).join();
}

// Test that the newest 1024 objects autoreleased without a pool stay valid.
TEST(AutoreleasePoolTest, FallbackKeepsNewestObjects) {
    // Outlives the thread: the newest objects are freed when it exits.
    static bool flags[3000];
    std::thread([] {
        for (int i = 0; i < 3000; ++i) make<Probe>(&flags[i])->autorelease();
        for (int i = 0; i < 3000 - static_cast<int>(kFallbackPoolCapacity); ++i) EXPECT_TRUE(flags[i]) << i;
        for (int i = 3000 - static_cast<int>(kFallbackPoolCapacity); i < 3000; ++i) EXPECT_FALSE(flags[i]) << i;
    }).join();
}

// Test that an object that may not leave the fallback pool yet survives until it may.
TEST(AutoreleasePoolTest, FallbackHoldsObjectsThatSayNo) {
    std::thread([] {
        bool destroyed = false;
        auto* probe = static_cast<Probe*>(coreOf(make<Probe>(&destroyed)));
        probe->mayDrain = false;
        probe->autorelease();
        for (int i = 0; i < 5000; ++i) NS::String::string("filler", NS::UTF8StringEncoding);
        EXPECT_FALSE(destroyed);
        probe->mayDrain = true;
        for (int i = 0; i < 5000; ++i) NS::String::string("filler", NS::UTF8StringEncoding);
        EXPECT_TRUE(destroyed);
    }).join();
}

// Test that thread exit drains the fallback pool and pools the thread left undrained,
// including objects that refused to leave the fallback pool.
TEST(AutoreleasePoolTest, ThreadExitDrainsEverything) {
    bool inFallback = false, inPool = false, held = false;
    std::size_t before = ObjectBase::liveObjectCount();
    std::thread([&] {
        make<Probe>(&inFallback)->autorelease();
        auto* stubborn = static_cast<Probe*>(coreOf(make<Probe>(&held)));
        stubborn->mayDrain = false;
        stubborn->autorelease();
        for (std::size_t i = 0; i < kFallbackPoolCapacity + 10; ++i) make<Probe>()->autorelease();
        NS::AutoreleasePool::alloc()->init();
        make<Probe>(&inPool)->autorelease();
    }).join();
    EXPECT_TRUE(inFallback);
    EXPECT_TRUE(inPool);
    EXPECT_TRUE(held);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test that objects autoreleased while a pool drains are released by that drain.
TEST(AutoreleasePoolTest, AutoreleaseDuringDrain) {
    class Chain final : public Implements<NS::Object> {
    public:
        explicit Chain(bool* destroyed) : destroyed_(destroyed) {}
        ~Chain() override { make<Probe>(destroyed_)->autorelease(); }
        const char* className() const override { return "Chain"; }

    private:
        bool* destroyed_;
    };
    bool destroyed = false;
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    make<Chain>(&destroyed)->autorelease();
    pool->drain();
    EXPECT_TRUE(destroyed);
}

// Test that pools are per thread: another thread's autoreleases do not go into ours.
TEST(AutoreleasePoolTest, PoolsArePerThread) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    bool otherThread = false;
    std::thread([&] {
        NS::AutoreleasePool* own = NS::AutoreleasePool::alloc()->init();
        make<Probe>(&otherThread)->autorelease();
        own->drain();
        EXPECT_TRUE(otherThread);
    }).join();
    pool->drain();
}

// Test that showPools prints the thread's pools and what each holds: none before the first
// pool, then the pool and the object autoreleased into it.
TEST(AutoreleasePoolTest, ShowPools) {
    ::testing::internal::CaptureStderr();
    NS::AutoreleasePool::showPools();
    const std::string empty = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(empty.find("0 releases pending in 0 pools"), std::string::npos) << empty;
    EXPECT_EQ(empty.find("POOL 0x"), std::string::npos) << empty;

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    NS::String::string("shown", NS::UTF8StringEncoding);
    ::testing::internal::CaptureStderr();
    NS::AutoreleasePool::showPools();
    const std::string shown = ::testing::internal::GetCapturedStderr();
    pool->drain();
    EXPECT_NE(shown.find("1 releases pending in 1 pools"), std::string::npos) << shown;
    EXPECT_NE(shown.find("POOL 0x"), std::string::npos) << shown;
    EXPECT_NE(shown.find("shown"), std::string::npos) << shown;
}

} // namespace
} // namespace metalcpu::ns
