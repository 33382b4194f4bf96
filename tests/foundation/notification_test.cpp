// NS::NotificationCenter.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

// Test that observers can be added to and removed from the default center.
TEST(NotificationTest, AddAndRemoveObserver) {
    NS::NotificationCenter* center = NS::NotificationCenter::defaultCenter();
    ASSERT_NE(center, nullptr);
    EXPECT_EQ(center, NS::NotificationCenter::defaultCenter());
    std::size_t before = ObjectBase::liveObjectCount();
    NS::ObserverFunction handler = [](NS::Notification*) {};
    NS::Object* observer = center->addObserver(NS::BundleDidLoadNotification, nullptr, nullptr, handler);
    EXPECT_NE(observer, nullptr);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before + 1);
    center->removeObserver(observer);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
    center->removeObserver(nullptr);
}

} // namespace
} // namespace metalcpu::ns
