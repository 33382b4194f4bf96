// NS::Condition (NSLock.hpp) and NS::Date.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <thread>

namespace metalcpu::ns {
namespace {

// Test that a condition wakes a waiting thread when signalled.
TEST(LockTest, ConditionSignal) {
    NS::Condition* condition = NS::Condition::alloc()->init();
    bool ready = false;
    std::thread producer([&] {
        condition->lock();
        ready = true;
        condition->signal();
        condition->unlock();
    });
    condition->lock();
    while (!ready) condition->wait();
    condition->unlock();
    producer.join();
    condition->broadcast();
    condition->release();
}

// Test that waitUntilDate times out and returns false when nobody signals.
TEST(LockTest, WaitUntilDateTimesOut) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    NS::Condition* condition = NS::Condition::alloc()->init();
    condition->lock();
    EXPECT_FALSE(condition->waitUntilDate(NS::Date::dateWithTimeIntervalSinceNow(0.01)));
    EXPECT_FALSE(condition->waitUntilDate(nullptr));
    condition->unlock();
    condition->release();
    pool->drain();
}

// Test that dates describe themselves in Foundation's format.
TEST(LockTest, DateDescription) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    std::string text = NS::Date::dateWithTimeIntervalSinceNow(0)->description()->utf8String();
    EXPECT_EQ(text.size(), std::string("2025-01-31 12:00:00 +0000").size()) << text;
    pool->drain();
}

} // namespace
} // namespace metalcpu::ns
