// NS::Bundle.
#include "support/files.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

class BundleTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that the main bundle is the executable's directory.
TEST_F(BundleTest, MainBundleIsExecutableDirectory) {
    NS::Bundle* main = NS::Bundle::mainBundle();
    ASSERT_NE(main, nullptr);
    EXPECT_EQ(main, NS::Bundle::mainBundle());
    std::string directory = support::executableDirectory();
    EXPECT_EQ(std::string(main->bundlePath()->utf8String()), directory);
    EXPECT_EQ(std::string(main->resourcePath()->utf8String()), directory);
    EXPECT_EQ(std::string(main->executablePath()->utf8String()).rfind(directory + "/", 0), 0u);
    EXPECT_EQ(std::string(main->bundleURL()->fileSystemRepresentation()), directory);
    EXPECT_EQ(std::string(main->resourceURL()->fileSystemRepresentation()), directory);
    EXPECT_NE(main->executableURL(), nullptr);
    EXPECT_TRUE(main->isLoaded());
    EXPECT_TRUE(main->load());
    EXPECT_FALSE(main->unload());
    NS::Error* error = nullptr;
    EXPECT_TRUE(main->preflightAndReturnError(&error));
    EXPECT_TRUE(main->loadAndReturnError(&error));
    EXPECT_EQ(error, nullptr);
    main->release(); // a singleton: releases do nothing
    EXPECT_NE(NS::Bundle::mainBundle()->bundlePath(), nullptr);
}

// Test auxiliary executables, found beside the program.
TEST_F(BundleTest, AuxiliaryExecutables) {
    NS::Bundle* main = NS::Bundle::mainBundle();
    std::string self = main->executablePath()->utf8String();
    NS::String* name = NS::String::string(self.substr(self.rfind('/') + 1).c_str(), NS::UTF8StringEncoding);
    EXPECT_EQ(std::string(main->pathForAuxiliaryExecutable(name)->utf8String()), self);
    EXPECT_EQ(std::string(main->URLForAuxiliaryExecutable(name)->fileSystemRepresentation()), self);
    EXPECT_EQ(main->pathForAuxiliaryExecutable(MTLSTR("no-such-program")), nullptr);
    EXPECT_EQ(main->URLForAuxiliaryExecutable(MTLSTR("no-such-program")), nullptr);
}

// Test bundles made for other directories.
TEST_F(BundleTest, OtherBundles) {
    NS::Bundle* tmp = NS::Bundle::bundle(MTLSTR("/tmp"));
    ASSERT_NE(tmp, nullptr);
    EXPECT_STREQ(tmp->bundlePath()->utf8String(), "/tmp");
    EXPECT_EQ(tmp->executablePath(), nullptr);
    EXPECT_FALSE(tmp->isLoaded());
    EXPECT_NE(NS::Bundle::bundle(NS::URL::fileURLWithPath(MTLSTR("/tmp"))), nullptr);
    EXPECT_EQ(NS::Bundle::bundle(MTLSTR("/no/such/directory")), nullptr);
    NS::Bundle* made = NS::Bundle::alloc()->init(MTLSTR("/tmp"));
    EXPECT_NE(made, nullptr);
    made->release();
    made = NS::Bundle::alloc()->init(NS::URL::fileURLWithPath(MTLSTR("/tmp")));
    EXPECT_NE(made, nullptr);
    made->release();
}

// Test the members without a Linux meaning.
TEST_F(BundleTest, AbsentMembers) {
    NS::Bundle* main = NS::Bundle::mainBundle();
    EXPECT_EQ(main->allBundles()->count(), 1u);
    EXPECT_EQ(main->allFrameworks()->count(), 0u);
    EXPECT_EQ(main->privateFrameworksURL(), nullptr);
    EXPECT_EQ(main->sharedFrameworksURL(), nullptr);
    EXPECT_EQ(main->sharedSupportURL(), nullptr);
    EXPECT_EQ(main->builtInPlugInsURL(), nullptr);
    EXPECT_EQ(main->appStoreReceiptURL(), nullptr);
    EXPECT_EQ(main->privateFrameworksPath(), nullptr);
    EXPECT_EQ(main->sharedFrameworksPath(), nullptr);
    EXPECT_EQ(main->sharedSupportPath(), nullptr);
    EXPECT_EQ(main->builtInPlugInsPath(), nullptr);
    EXPECT_EQ(main->bundleIdentifier(), nullptr);
    EXPECT_EQ(main->infoDictionary(), nullptr);
    EXPECT_EQ(main->localizedInfoDictionary(), nullptr);
    EXPECT_EQ(main->objectForInfoDictionaryKey(MTLSTR("CFBundleName")), nullptr);
    EXPECT_NE(NS::BundleDidLoadNotification, nullptr);
    EXPECT_NE(NS::BundleResourceRequestLowDiskSpaceNotification, nullptr);
}

// Test localized strings: with no tables, the value if given, else the key.
TEST_F(BundleTest, LocalizedStrings) {
    NS::Bundle* main = NS::Bundle::mainBundle();
    EXPECT_EQ(main->localizedString(MTLSTR("key")), MTLSTR("key"));
    EXPECT_EQ(main->localizedString(MTLSTR("key"), MTLSTR("value")), MTLSTR("value"));
    EXPECT_STREQ(main->localizedString(nullptr)->utf8String(), "");
    EXPECT_EQ(NS::LocalizedString(MTLSTR("k"), nullptr), MTLSTR("k"));
    EXPECT_EQ(NS::LocalizedStringFromTable(MTLSTR("k"), MTLSTR("t"), nullptr), MTLSTR("k"));
    EXPECT_EQ(NS::LocalizedStringFromTableInBundle(MTLSTR("k"), MTLSTR("t"), main, nullptr), MTLSTR("k"));
    EXPECT_EQ(NS::LocalizedStringWithDefaultValue(MTLSTR("k"), MTLSTR("t"), main, MTLSTR("v"), nullptr), MTLSTR("v"));
}

} // namespace
} // namespace metalcpu::ns
