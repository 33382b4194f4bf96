// NS::Error and the runtime's error factory.
#include "foundation/factories.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace metalcpu::ns {
namespace {

class ErrorTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that an error keeps its domain, code and user info, and reads the localized texts
// from the well-known keys.
TEST_F(ErrorTest, FieldsAndUserInfo) {
    NS::Object* values[] = {MTLSTR("It failed."), MTLSTR("Because."), MTLSTR("Try again.")};
    NS::Object* keys[] = {NS::LocalizedDescriptionKey, NS::LocalizedFailureReasonErrorKey,
                          NS::LocalizedRecoverySuggestionErrorKey};
    NS::Dictionary* info = NS::Dictionary::dictionary(values, keys, 3);
    NS::Error* error = NS::Error::error(NS::POSIXErrorDomain, 2, info);
    EXPECT_EQ(error->code(), 2);
    EXPECT_TRUE(error->domain()->isEqualToString(MTLSTR("NSPOSIXErrorDomain")));
    EXPECT_EQ(error->userInfo(), info);
    EXPECT_STREQ(error->localizedDescription()->utf8String(), "It failed.");
    EXPECT_STREQ(error->localizedFailureReason()->utf8String(), "Because.");
    EXPECT_STREQ(error->localizedRecoverySuggestion()->utf8String(), "Try again.");
    EXPECT_EQ(error->localizedRecoveryOptions(), nullptr);
}

// Test Foundation's generic description when the user info has none.
TEST_F(ErrorTest, GenericDescription) {
    NS::Error* error = NS::Error::alloc()->init(MTLSTR("MTLLibraryErrorDomain"), 3, nullptr);
    EXPECT_STREQ(error->localizedDescription()->utf8String(),
                 "The operation couldn\u2019t be completed. (MTLLibraryErrorDomain error 3.)");
    EXPECT_EQ(error->userInfo()->count(), 0u);
    EXPECT_EQ(error->localizedFailureReason(), nullptr);
    std::string description = error->description()->utf8String();
    EXPECT_EQ(description.rfind("Error Domain=MTLLibraryErrorDomain Code=3 ", 0), 0u) << description;
    error->release();
}

// Test that the user info dictionary is retained by the error and released with it.
TEST_F(ErrorTest, OwnsUserInfo) {
    NS::Dictionary* info = NS::Dictionary::alloc()->init();
    NS::Error* error = NS::Error::alloc()->init(NS::CocoaErrorDomain, 1, info);
    EXPECT_EQ(info->retainCount(), 2u);
    error->release();
    EXPECT_EQ(info->retainCount(), 1u);
    info->release();
}

// Test that streaming an NS::Error* prints a pointer, as with metal-cpp.
TEST_F(ErrorTest, StreamsAsPointer) {
    NS::Error* error = NS::Error::error(NS::CocoaErrorDomain, 1, nullptr);
    std::ostringstream printed, expected;
    printed << error;
    expected << static_cast<const void*>(error);
    EXPECT_EQ(printed.str(), expected.str());
}

// Test the runtime's factory: +1, description available through localizedDescription().
TEST_F(ErrorTest, Factory) {
    NS::Error* error = makeError("MTLLibraryErrorDomain", 3, "program_source:1:1: error: oops");
    EXPECT_EQ(error->retainCount(), 1u);
    EXPECT_EQ(error->code(), 3);
    EXPECT_EQ(stringOf(error->domain()), "MTLLibraryErrorDomain");
    EXPECT_EQ(stringOf(error->localizedDescription()), "program_source:1:1: error: oops");
    error->release();
}

// Test that alloc()->init() gives an empty error.
TEST_F(ErrorTest, EmptyError) {
    NS::Error* error = NS::Error::alloc()->init();
    EXPECT_EQ(error->code(), 0);
    EXPECT_EQ(error->domain(), nullptr);
    EXPECT_NE(error->localizedDescription(), nullptr);
    error->release();
}

// Test the remaining domain and key constants.
TEST_F(ErrorTest, Constants) {
    EXPECT_EQ(stringOf(NS::OSStatusErrorDomain), "NSOSStatusErrorDomain");
    EXPECT_EQ(stringOf(NS::MachErrorDomain), "NSMachErrorDomain");
    EXPECT_EQ(stringOf(NS::UnderlyingErrorKey), "NSUnderlyingError");
    EXPECT_EQ(stringOf(NS::LocalizedRecoveryOptionsErrorKey), "NSLocalizedRecoveryOptions");
    EXPECT_EQ(stringOf(NS::RecoveryAttempterErrorKey), "NSRecoveryAttempter");
    EXPECT_EQ(stringOf(NS::HelpAnchorErrorKey), "NSHelpAnchor");
    EXPECT_EQ(stringOf(NS::DebugDescriptionErrorKey), "NSDebugDescription");
    EXPECT_EQ(stringOf(NS::LocalizedFailureErrorKey), "NSLocalizedFailure");
    EXPECT_EQ(stringOf(NS::StringEncodingErrorKey), "NSStringEncodingErrorKey");
    EXPECT_EQ(stringOf(NS::URLErrorKey), "NSURL");
    EXPECT_EQ(stringOf(NS::FilePathErrorKey), "NSFilePath");
}

} // namespace
} // namespace metalcpu::ns
