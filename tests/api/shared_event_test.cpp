// Events: MTL::Event and MTL::SharedEvent (rt::SharedEvent), waiting with and without a time
// limit, and notifications through listeners. Threads meet through the events themselves and
// futures, never through sleeps.
#include "foundation/test_support.h"
#include "runtime/shared_event.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace {

using metalcpu::rt::SharedEvent;

class SharedEventTest : public ::testing::Test {
protected:
    NS::SharedPtr<MTL::Device> device_ = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
};

// Test that both kinds of event know their device and label, start at 0 and that a shared
// event keeps the value it is given (also a smaller one: the program owns the counter).
TEST_F(SharedEventTest, ValuesLabelsAndDevice) {
    auto event = NS::TransferPtr(device_->newEvent());
    ASSERT_NE(event.get(), nullptr);
    EXPECT_EQ(event->device(), device_.get());
    event->setLabel(NS::String::string("frame", NS::UTF8StringEncoding));
    EXPECT_STREQ(event->label()->utf8String(), "frame");
    ASSERT_NE(SharedEvent::of(event.get()), nullptr);
    EXPECT_FALSE(SharedEvent::of(event.get())->isShared());
    EXPECT_STREQ(SharedEvent::of(event.get())->className(), "MTLEvent");

    auto shared = NS::TransferPtr(device_->newSharedEvent());
    ASSERT_NE(shared.get(), nullptr);
    EXPECT_EQ(shared->signaledValue(), 0u);
    shared->setSignaledValue(5);
    EXPECT_EQ(shared->signaledValue(), 5u);
    shared->setSignaledValue(3);
    EXPECT_EQ(shared->signaledValue(), 3u);
    SharedEvent* core = SharedEvent::of(shared.get());
    ASSERT_NE(core, nullptr);
    EXPECT_EQ(core->value(), 3u);
    core->signal(9);
    EXPECT_EQ(shared->signaledValue(), 9u);
    EXPECT_STREQ(core->className(), "MTLSharedEvent");
}

// Test that waiting returns true at once for a value already reached, false when the time
// limit passes first, and true when another thread signals during the wait.
TEST_F(SharedEventTest, WaitUntilSignaledValue) {
    auto event = NS::TransferPtr(device_->newSharedEvent());
    event->setSignaledValue(4);
    EXPECT_TRUE(event->waitUntilSignaledValue(4, 0));
    EXPECT_TRUE(event->waitUntilSignaledValue(2, 0));
    EXPECT_FALSE(event->waitUntilSignaledValue(5, 0));
    EXPECT_FALSE(event->waitUntilSignaledValue(5, 10));

    // The other thread waits for the main thread's signal 6, then signals 7 that the main
    // thread waits for without a practical limit.
    std::thread other([&] {
        SharedEvent::of(event.get())->waitFor(6);
        event->setSignaledValue(7);
    });
    event->setSignaledValue(6);
    EXPECT_TRUE(event->waitUntilSignaledValue(7, UINT64_MAX));
    other.join();
    EXPECT_EQ(event->signaledValue(), 7u);
}

// Test that a notification runs once the value reaches its own, on the listener's thread,
// with the event and the value signalled; that one registered for a value already reached
// runs too; and that handlers are not called under the event's lock (they read, signal and
// register again from inside).
TEST_F(SharedEventTest, NotificationsRunOnTheListenerThread) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    auto event = NS::TransferPtr(device_->newSharedEvent());
    auto listener = NS::TransferPtr(MTL::SharedEventListener::alloc()->init());
    ASSERT_NE(listener.get(), nullptr);

    std::promise<std::vector<std::string>> done;
    std::vector<std::string> seen; // written only on the listener's thread
    const std::thread::id mainThread = std::this_thread::get_id();
    event->notifyListener(listener.get(), 2, [&](MTL::SharedEvent* signalled, std::uint64_t value) {
        seen.push_back("at 2: value " + std::to_string(value) + (signalled == event.get() ? " same event" : "") +
                       (std::this_thread::get_id() != mainThread ? " other thread" : ""));
        // Inside the handler: read, register a notification that is already due, signal.
        seen.push_back("reads " + std::to_string(signalled->signaledValue()));
        signalled->notifyListener(listener.get(), 1, [&](MTL::SharedEvent*, std::uint64_t v) {
            seen.push_back("at 1 (from handler): value " + std::to_string(v));
            done.set_value(seen);
        });
        signalled->setSignaledValue(value + 1);
    });
    event->setSignaledValue(1); // not yet due
    event->setSignaledValue(2);
    std::vector<std::string> result = done.get_future().get();
    ASSERT_EQ(result.size(), 3u);
    EXPECT_EQ(result[0], "at 2: value 2 same event other thread");
    EXPECT_EQ(result[1], "reads 2");
    EXPECT_EQ(result[2], "at 1 (from handler): value 2"); // due at once, run after the handler
    EXPECT_EQ(event->signaledValue(), 3u);
    pool->release();
}

// Test that notifications keep their listener and event alive: both released by the
// program before the signal, the notification still runs, and the objects are freed after.
TEST_F(SharedEventTest, NotificationsKeepTheirObjectsAlive) {
    const std::size_t liveBefore = metalcpu::ns::ObjectBase::liveObjectCount();
    std::promise<std::uint64_t> ran;
    {
        MTL::SharedEvent* event = device_->newSharedEvent();
        MTL::SharedEventListener* listener = MTL::SharedEventListener::alloc()->init();
        event->notifyListener(listener, 1, [&](MTL::SharedEvent*, std::uint64_t value) { ran.set_value(value); });
        listener->release();
        SharedEvent* core = SharedEvent::of(event);
        core->retain();
        event->release();
        core->signal(1);
        core->release(); // the last program reference: the notification holds the event
    }
    EXPECT_EQ(ran.get_future().get(), 1u);
    // signal() dropped the listener's last reference: its destructor ran the queue (the
    // handler, then the handler's release of the event) and joined the thread before
    // returning, so the program's last release above freed the event.
    EXPECT_EQ(metalcpu::ns::ObjectBase::liveObjectCount(), liveBefore);
}

// Test that the shared listener is one object for the process and delivers notifications,
// in the order they became due.
TEST_F(SharedEventTest, SharedListenerDeliversInOrder) {
    MTL::SharedEventListener* listener = MTL::SharedEventListener::sharedListener();
    ASSERT_NE(listener, nullptr);
    EXPECT_EQ(MTL::SharedEventListener::sharedListener(), listener);
    auto event = NS::TransferPtr(device_->newSharedEvent());
    std::vector<int> order;
    std::promise<void> done;
    for (int at : {3, 1, 2})
        event->notifyListener(listener, static_cast<std::uint64_t>(at), [&order, &done, at](MTL::SharedEvent*, std::uint64_t) {
            order.push_back(at);
            if (order.size() == 3) done.set_value();
        });
    event->setSignaledValue(1);
    event->setSignaledValue(2);
    event->setSignaledValue(3);
    done.get_future().wait();
    EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

METALCPU_NIL_TEST_BODY void messageNilEvents() {
    metalcpu::ns::testing::LogCapture log;
    auto* event = metalcpu::ns::testing::nil<MTL::SharedEvent>();
    EXPECT_EQ(event->signaledValue(), 0u);
    event->setSignaledValue(3);
    EXPECT_FALSE(event->waitUntilSignaledValue(1, 0));
    event->notifyListener(MTL::SharedEventListener::sharedListener(), 0, [](MTL::SharedEvent*, std::uint64_t) {});
    EXPECT_EQ(event->device(), nullptr);
    EXPECT_EQ(event->newSharedEventHandle(), nullptr);
    EXPECT_EQ(metalcpu::ns::testing::nil<MTL::SharedEventListener>()->init(), nullptr);
    EXPECT_EQ(log.text(), "");
}

// Test that event methods on nil do nothing, return zero and log nothing.
TEST(SharedEventNilTest, NilReceivers) { messageNilEvents(); }

} // namespace
