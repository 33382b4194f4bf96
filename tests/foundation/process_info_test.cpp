// NS::ProcessInfo.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <thread>

namespace metalcpu::ns {
namespace {

class ProcessInfoTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test the machine facts read from Linux.
TEST_F(ProcessInfoTest, MachineFacts) {
    NS::ProcessInfo* info = NS::ProcessInfo::processInfo();
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info, NS::ProcessInfo::processInfo());
    EXPECT_EQ(info->processorCount(), static_cast<NS::UInteger>(sysconf(_SC_NPROCESSORS_CONF)));
    EXPECT_GE(info->activeProcessorCount(), 1u);
    EXPECT_LE(info->activeProcessorCount(), info->processorCount());
    EXPECT_GT(info->physicalMemory(), 1ull << 20);
    EXPECT_GT(info->systemUptime(), 0.0);
    EXPECT_EQ(info->processIdentifier(), getpid());
    EXPECT_GT(info->hostName()->length(), 0u);
}

// Test the process facts: arguments, environment and names.
TEST_F(ProcessInfoTest, ProcessFacts) {
    NS::ProcessInfo* info = NS::ProcessInfo::processInfo();
    NS::Array* arguments = info->arguments();
    ASSERT_GE(arguments->count(), 1u);
    EXPECT_EQ(arguments, info->arguments());
    setenv("METALCPU_PROCESS_INFO_TEST", "yes", 1);
    NS::Dictionary* environment = info->environment();
    NS::String* value = environment->object<NS::String>(MTLSTR("METALCPU_PROCESS_INFO_TEST"));
    ASSERT_NE(value, nullptr);
    EXPECT_STREQ(value->utf8String(), "yes");
    EXPECT_GT(info->processName()->length(), 0u);
    info->setProcessName(MTLSTR("renamed"));
    EXPECT_STREQ(info->processName()->utf8String(), "renamed");
    info->setProcessName(nullptr);
    EXPECT_FALSE(info->globallyUniqueString()->isEqualToString(info->globallyUniqueString()));
    (void)info->userName();
    (void)info->fullUserName();
}

// Test that the reported OS is the emulated macOS version.
TEST_F(ProcessInfoTest, EmulatedOperatingSystem) {
    NS::ProcessInfo* info = NS::ProcessInfo::processInfo();
    NS::OperatingSystemVersion version = info->operatingSystemVersion();
    EXPECT_EQ(version.majorVersion, 26);
    EXPECT_TRUE(info->isOperatingSystemAtLeastVersion({13, 0, 0}));
    EXPECT_TRUE(info->isOperatingSystemAtLeastVersion({26, 0, 0}));
    EXPECT_FALSE(info->isOperatingSystemAtLeastVersion({99, 0, 0}));
    EXPECT_NE(std::string(info->operatingSystemVersionString()->utf8String()).find("metalcpu"), std::string::npos);
    EXPECT_EQ(info->operatingSystem(), 0u);
}

// Test activities and the power-management members.
TEST_F(ProcessInfoTest, ActivitiesAndPower) {
    NS::ProcessInfo* info = NS::ProcessInfo::processInfo();
    bool ran = false;
    info->performActivity(NS::ActivityUserInitiated, MTLSTR("work"), [&] { ran = true; });
    EXPECT_TRUE(ran);
    bool expired = true;
    info->performExpiringActivity(MTLSTR("work"), [&](bool value) { expired = value; });
    EXPECT_FALSE(expired);
    NS::Object* activity = info->beginActivity(NS::ActivityBackground, MTLSTR("work"));
    EXPECT_NE(activity, nullptr);
    info->endActivity(activity);
    info->disableSuddenTermination();
    info->enableSuddenTermination();
    info->disableAutomaticTermination(MTLSTR("x"));
    info->enableAutomaticTermination(MTLSTR("x"));
    info->setAutomaticTerminationSupportEnabled(true);
    EXPECT_FALSE(info->automaticTerminationSupportEnabled());
    EXPECT_EQ(info->thermalState(), NS::ProcessInfoThermalStateNominal);
    EXPECT_FALSE(info->isLowPowerModeEnabled());
    EXPECT_FALSE(info->isiOSAppOnMac());
    EXPECT_FALSE(info->isMacCatalystApp());
    EXPECT_FALSE(info->isDeviceCertified(NS::DeviceCertificationiPhonePerformanceGaming));
    EXPECT_TRUE(info->hasPerformanceProfile(NS::ProcessPerformanceProfileDefault));
    EXPECT_FALSE(info->hasPerformanceProfile(NS::ProcessPerformanceProfileSustained));
    EXPECT_NE(NS::ProcessInfoThermalStateDidChangeNotification, nullptr);
    EXPECT_NE(NS::ProcessInfoPowerStateDidChangeNotification, nullptr);
    EXPECT_NE(NS::ProcessInfoPerformanceProfileDidChangeNotification, nullptr);
}

} // namespace
} // namespace metalcpu::ns
