// metal-cpp's promise: any method called on a null object does nothing and returns
// zero/nullptr. Every instance method of every Foundation class is called here, which also
// proves that each one is defined.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

using testing::nil;

METALCPU_NIL_TEST_BODY void messageNilObject() {
    NS::Object* object = nil<NS::Object>();
    EXPECT_EQ(object->retain(), nullptr);
    object->release();
    EXPECT_EQ(object->autorelease(), nullptr);
    EXPECT_EQ(object->retainCount(), 0u);
    EXPECT_EQ(object->hash(), 0u);
    EXPECT_FALSE(object->isEqual(object));
    EXPECT_EQ(object->description(), nullptr);
    EXPECT_EQ(object->debugDescription(), nullptr);
}

METALCPU_NIL_TEST_BODY void messageNilPool() {
    NS::AutoreleasePool* pool = nil<NS::AutoreleasePool>();
    EXPECT_EQ(pool->init(), nullptr);
    pool->drain();
    pool->addObject(nullptr);
    pool->release();
}

METALCPU_NIL_TEST_BODY void messageNilString() {
    NS::String* string = nil<NS::String>();
    EXPECT_EQ(string->init(), nullptr);
    EXPECT_EQ(string->init(MTLSTR("x")), nullptr);
    EXPECT_EQ(string->init("x", NS::UTF8StringEncoding), nullptr);
    char bytes[] = "x";
    EXPECT_EQ(string->init(bytes, 1, NS::UTF8StringEncoding, false), nullptr);
    EXPECT_EQ(string->character(0), 0);
    EXPECT_EQ(string->length(), 0u);
    EXPECT_EQ(string->cString(NS::UTF8StringEncoding), nullptr);
    EXPECT_EQ(string->utf8String(), nullptr);
    EXPECT_EQ(string->maximumLengthOfBytes(NS::UTF8StringEncoding), 0u);
    EXPECT_EQ(string->lengthOfBytes(NS::UTF8StringEncoding), 0u);
    EXPECT_FALSE(string->isEqualToString(MTLSTR("x")));
    NS::Range range = string->rangeOfString(MTLSTR("x"), 0);
    EXPECT_EQ(range.location, 0u);
    EXPECT_EQ(range.length, 0u);
    EXPECT_EQ(string->fileSystemRepresentation(), nullptr);
    EXPECT_EQ(string->stringByAppendingString(MTLSTR("x")), nullptr);
    EXPECT_EQ(string->caseInsensitiveCompare(MTLSTR("x")), NS::OrderedSame);
    EXPECT_EQ(string->copy(), nullptr);
    EXPECT_EQ(string->retain(), nullptr);
    EXPECT_EQ(string->autorelease(), nullptr);
    EXPECT_EQ(string->retainCount(), 0u);
    string->release();
}

METALCPU_NIL_TEST_BODY void messageNilError() {
    NS::Error* error = nil<NS::Error>();
    EXPECT_EQ(error->init(), nullptr);
    EXPECT_EQ(error->init(NS::CocoaErrorDomain, 1, nullptr), nullptr);
    EXPECT_EQ(error->code(), 0);
    EXPECT_EQ(error->domain(), nullptr);
    EXPECT_EQ(error->userInfo(), nullptr);
    EXPECT_EQ(error->localizedDescription(), nullptr);
    EXPECT_EQ(error->localizedRecoveryOptions(), nullptr);
    EXPECT_EQ(error->localizedRecoverySuggestion(), nullptr);
    EXPECT_EQ(error->localizedFailureReason(), nullptr);
    // The common pattern: print the error of a call that succeeded.
    EXPECT_EQ(error->localizedDescription()->utf8String(), nullptr);
    EXPECT_EQ(error->copy(), nullptr);
}

METALCPU_NIL_TEST_BODY void messageNilCollections() {
    NS::Array* array = nil<NS::Array>();
    EXPECT_EQ(array->init(), nullptr);
    EXPECT_EQ(array->init(nullptr, 0), nullptr);
    EXPECT_EQ(array->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    EXPECT_EQ(array->object(0), nullptr);
    EXPECT_EQ(array->object<NS::String>(0), nullptr);
    EXPECT_EQ(array->count(), 0u);
    EXPECT_EQ(array->objectEnumerator(), nullptr);
    EXPECT_EQ(array->copy(), nullptr);

    NS::Dictionary* dictionary = nil<NS::Dictionary>();
    EXPECT_EQ(dictionary->init(), nullptr);
    EXPECT_EQ(dictionary->init(nullptr, nullptr, 0), nullptr);
    EXPECT_EQ(dictionary->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    EXPECT_EQ(dictionary->keyEnumerator(), nullptr);
    EXPECT_EQ(dictionary->keyEnumerator<NS::String>(), nullptr);
    EXPECT_EQ(dictionary->object(MTLSTR("k")), nullptr);
    EXPECT_EQ(dictionary->object<NS::Number>(MTLSTR("k")), nullptr);
    EXPECT_EQ(dictionary->count(), 0u);

    NS::Set* set = nil<NS::Set>();
    EXPECT_EQ(set->count(), 0u);
    EXPECT_EQ(set->objectEnumerator(), nullptr);
    EXPECT_EQ(set->init(), nullptr);
    EXPECT_EQ(set->init(nullptr, 0), nullptr);
    EXPECT_EQ(set->init(static_cast<const NS::Coder*>(nullptr)), nullptr);

    NS::Enumerator<NS::String>* enumerator = nil<NS::Enumerator<NS::String>>();
    EXPECT_EQ(enumerator->nextObject(), nullptr);
    EXPECT_EQ(enumerator->allObjects(), nullptr);
    NS::FastEnumerationState state{};
    NS::Object* buffer[1];
    EXPECT_EQ(enumerator->countByEnumerating(&state, buffer, 1), 0u);
}

METALCPU_NIL_TEST_BODY void messageNilNumbers() {
    NS::Value* value = nil<NS::Value>();
    int bytes = 5;
    EXPECT_EQ(value->init(&bytes, "i"), nullptr);
    EXPECT_EQ(value->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    value->getValue(&bytes, sizeof bytes);
    EXPECT_EQ(bytes, 5);
    EXPECT_EQ(value->objCType(), nullptr);
    EXPECT_FALSE(value->isEqualToValue(value));
    EXPECT_EQ(value->pointerValue(), nullptr);

    NS::Number* number = nil<NS::Number>();
    EXPECT_EQ(number->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    EXPECT_EQ(number->init(static_cast<char>(1)), nullptr);
    EXPECT_EQ(number->init(static_cast<unsigned char>(1)), nullptr);
    EXPECT_EQ(number->init(static_cast<short>(1)), nullptr);
    EXPECT_EQ(number->init(static_cast<unsigned short>(1)), nullptr);
    EXPECT_EQ(number->init(1), nullptr);
    EXPECT_EQ(number->init(1u), nullptr);
    EXPECT_EQ(number->init(1L), nullptr);
    EXPECT_EQ(number->init(1UL), nullptr);
    EXPECT_EQ(number->init(1LL), nullptr);
    EXPECT_EQ(number->init(1ULL), nullptr);
    EXPECT_EQ(number->init(1.0f), nullptr);
    EXPECT_EQ(number->init(1.0), nullptr);
    EXPECT_EQ(number->init(true), nullptr);
    EXPECT_EQ(number->charValue(), 0);
    EXPECT_EQ(number->unsignedCharValue(), 0);
    EXPECT_EQ(number->shortValue(), 0);
    EXPECT_EQ(number->unsignedShortValue(), 0);
    EXPECT_EQ(number->intValue(), 0);
    EXPECT_EQ(number->unsignedIntValue(), 0u);
    EXPECT_EQ(number->longValue(), 0);
    EXPECT_EQ(number->unsignedLongValue(), 0u);
    EXPECT_EQ(number->longLongValue(), 0);
    EXPECT_EQ(number->unsignedLongLongValue(), 0u);
    EXPECT_EQ(number->floatValue(), 0.0f);
    EXPECT_EQ(number->doubleValue(), 0.0);
    EXPECT_FALSE(number->boolValue());
    EXPECT_EQ(number->integerValue(), 0);
    EXPECT_EQ(number->unsignedIntegerValue(), 0u);
    EXPECT_EQ(number->stringValue(), nullptr);
    EXPECT_EQ(number->compare(number), NS::OrderedSame);
    EXPECT_FALSE(number->isEqualToNumber(number));
    EXPECT_EQ(number->descriptionWithLocale(nullptr), nullptr);
    EXPECT_EQ(number->objCType(), nullptr);
}

METALCPU_NIL_TEST_BODY void messageNilDataAndUrl() {
    NS::Data* data = nil<NS::Data>();
    EXPECT_EQ(data->bytes(), nullptr);
    EXPECT_EQ(data->length(), 0u);

    NS::URL* url = nil<NS::URL>();
    EXPECT_EQ(url->init(), nullptr);
    EXPECT_EQ(url->init(MTLSTR("file:///x")), nullptr);
    EXPECT_EQ(url->initFileURLWithPath(MTLSTR("/x")), nullptr);
    EXPECT_EQ(url->fileSystemRepresentation(), nullptr);
}

METALCPU_NIL_TEST_BODY void messageNilBundle() {
    NS::Bundle* bundle = nil<NS::Bundle>();
    EXPECT_EQ(bundle->init(MTLSTR("/tmp")), nullptr);
    EXPECT_EQ(bundle->init(static_cast<const NS::URL*>(nullptr)), nullptr);
    EXPECT_EQ(bundle->allBundles(), nullptr);
    EXPECT_EQ(bundle->allFrameworks(), nullptr);
    EXPECT_FALSE(bundle->load());
    EXPECT_FALSE(bundle->unload());
    EXPECT_FALSE(bundle->isLoaded());
    EXPECT_FALSE(bundle->preflightAndReturnError(nullptr));
    EXPECT_FALSE(bundle->loadAndReturnError(nullptr));
    EXPECT_EQ(bundle->bundleURL(), nullptr);
    EXPECT_EQ(bundle->resourceURL(), nullptr);
    EXPECT_EQ(bundle->executableURL(), nullptr);
    EXPECT_EQ(bundle->URLForAuxiliaryExecutable(MTLSTR("x")), nullptr);
    EXPECT_EQ(bundle->privateFrameworksURL(), nullptr);
    EXPECT_EQ(bundle->sharedFrameworksURL(), nullptr);
    EXPECT_EQ(bundle->sharedSupportURL(), nullptr);
    EXPECT_EQ(bundle->builtInPlugInsURL(), nullptr);
    EXPECT_EQ(bundle->appStoreReceiptURL(), nullptr);
    EXPECT_EQ(bundle->bundlePath(), nullptr);
    EXPECT_EQ(bundle->resourcePath(), nullptr);
    EXPECT_EQ(bundle->executablePath(), nullptr);
    EXPECT_EQ(bundle->pathForAuxiliaryExecutable(MTLSTR("x")), nullptr);
    EXPECT_EQ(bundle->privateFrameworksPath(), nullptr);
    EXPECT_EQ(bundle->sharedFrameworksPath(), nullptr);
    EXPECT_EQ(bundle->sharedSupportPath(), nullptr);
    EXPECT_EQ(bundle->builtInPlugInsPath(), nullptr);
    EXPECT_EQ(bundle->bundleIdentifier(), nullptr);
    EXPECT_EQ(bundle->infoDictionary(), nullptr);
    EXPECT_EQ(bundle->localizedInfoDictionary(), nullptr);
    EXPECT_EQ(bundle->objectForInfoDictionaryKey(MTLSTR("x")), nullptr);
    EXPECT_EQ(bundle->localizedString(MTLSTR("k"), MTLSTR("v"), nullptr), nullptr);
    EXPECT_EQ(NS::LocalizedStringFromTableInBundle(MTLSTR("k"), nullptr, bundle, nullptr), nullptr);
}

METALCPU_NIL_TEST_BODY void messageNilProcessInfo() {
    NS::ProcessInfo* info = nil<NS::ProcessInfo>();
    EXPECT_EQ(info->arguments(), nullptr);
    EXPECT_EQ(info->environment(), nullptr);
    EXPECT_EQ(info->hostName(), nullptr);
    EXPECT_EQ(info->processName(), nullptr);
    info->setProcessName(MTLSTR("x"));
    EXPECT_EQ(info->processIdentifier(), 0);
    EXPECT_EQ(info->globallyUniqueString(), nullptr);
    EXPECT_EQ(info->userName(), nullptr);
    EXPECT_EQ(info->fullUserName(), nullptr);
    EXPECT_EQ(info->operatingSystem(), 0u);
    EXPECT_EQ(info->operatingSystemVersion().majorVersion, 0);
    EXPECT_EQ(info->operatingSystemVersionString(), nullptr);
    EXPECT_FALSE(info->isOperatingSystemAtLeastVersion({1, 0, 0}));
    EXPECT_EQ(info->processorCount(), 0u);
    EXPECT_EQ(info->activeProcessorCount(), 0u);
    EXPECT_EQ(info->physicalMemory(), 0u);
    EXPECT_EQ(info->systemUptime(), 0.0);
    info->disableSuddenTermination();
    info->enableSuddenTermination();
    info->disableAutomaticTermination(nullptr);
    info->enableAutomaticTermination(nullptr);
    EXPECT_FALSE(info->automaticTerminationSupportEnabled());
    info->setAutomaticTerminationSupportEnabled(true);
    EXPECT_EQ(info->beginActivity(NS::ActivityBackground, nullptr), nullptr);
    info->endActivity(nullptr);
    bool ran = false;
    info->performActivity(NS::ActivityBackground, nullptr, [&] { ran = true; });
    info->performExpiringActivity(nullptr, [&](bool) { ran = true; });
    EXPECT_FALSE(ran);
    EXPECT_EQ(info->thermalState(), NS::ProcessInfoThermalStateNominal);
    EXPECT_FALSE(info->isLowPowerModeEnabled());
    EXPECT_FALSE(info->isiOSAppOnMac());
    EXPECT_FALSE(info->isMacCatalystApp());
    EXPECT_FALSE(info->isDeviceCertified(NS::DeviceCertificationiPhonePerformanceGaming));
    EXPECT_FALSE(info->hasPerformanceProfile(NS::ProcessPerformanceProfileDefault));
}

METALCPU_NIL_TEST_BODY void messageNilLocksAndNotifications() {
    NS::Condition* condition = nil<NS::Condition>();
    EXPECT_EQ(condition->init(), nullptr);
    condition->lock();
    condition->unlock();
    condition->wait();
    EXPECT_FALSE(condition->waitUntilDate(nullptr));
    condition->signal();
    condition->broadcast();

    NS::Notification* notification = nil<NS::Notification>();
    EXPECT_EQ(notification->name(), nullptr);
    EXPECT_EQ(notification->object(), nullptr);
    EXPECT_EQ(notification->userInfo(), nullptr);

    NS::NotificationCenter* center = nil<NS::NotificationCenter>();
    NS::ObserverFunction handler = [](NS::Notification*) {};
    EXPECT_EQ(center->addObserver(nullptr, nullptr, nullptr, handler), nullptr);
    center->removeObserver(nullptr);
}

// Test NS::Object's own methods on nil.
TEST(NilTest, Object) { messageNilObject(); }

// Test NS::AutoreleasePool on nil.
TEST(NilTest, AutoreleasePool) { messageNilPool(); }

// Test NS::String on nil.
TEST(NilTest, String) { messageNilString(); }

// Test NS::Error on nil, including the chained localizedDescription()->utf8String().
TEST(NilTest, Error) { messageNilError(); }

// Test NS::Array, NS::Dictionary, NS::Set and NS::Enumerator on nil.
TEST(NilTest, Collections) { messageNilCollections(); }

// Test NS::Value and NS::Number on nil.
TEST(NilTest, Numbers) { messageNilNumbers(); }

// Test NS::Data and NS::URL on nil.
TEST(NilTest, DataAndUrl) { messageNilDataAndUrl(); }

// Test NS::Bundle on nil.
TEST(NilTest, Bundle) { messageNilBundle(); }

// Test NS::ProcessInfo on nil.
TEST(NilTest, ProcessInfo) { messageNilProcessInfo(); }

// Test NS::Condition, NS::Notification and NS::NotificationCenter on nil.
TEST(NilTest, LocksAndNotifications) { messageNilLocksAndNotifications(); }

// Test that the class constructors given nil arguments return nil (or an empty object).
TEST(NilTest, NilArgumentsToClassConstructors) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    EXPECT_EQ(NS::String::string(static_cast<const NS::String*>(nullptr)), nullptr);
    EXPECT_EQ(NS::URL::fileURLWithPath(nullptr), nullptr);
    EXPECT_EQ(NS::Bundle::bundle(static_cast<const NS::String*>(nullptr)), nullptr);
    EXPECT_EQ(NS::Array::array(nullptr, 0)->count(), 0u);
    pool->drain();
}

} // namespace
} // namespace metalcpu::ns
