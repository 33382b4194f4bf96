// The object core: reference counts, identity, descriptions and pointer validation.
#include "foundation/object.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

namespace metalcpu::ns {
namespace {

using testing::LogCapture;
using testing::Probe;

// Test that a new object has one reference, and retain/release move the count.
TEST(ObjectTest, RetainAndReleaseCount) {
    NS::String* string = NS::String::alloc()->init("text", NS::UTF8StringEncoding);
    EXPECT_EQ(string->retainCount(), 1u);
    EXPECT_EQ(string->retain(), string);
    EXPECT_EQ(string->retainCount(), 2u);
    string->release();
    EXPECT_EQ(string->retainCount(), 1u);
    string->release();
}

// Test that the last release frees the object and the live-object count follows.
TEST(ObjectTest, LastReleaseFrees) {
    std::size_t before = ObjectBase::liveObjectCount();
    bool destroyed = false;
    NS::Object* probe = make<Probe>(&destroyed);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before + 1);
    probe->retain();
    probe->release();
    EXPECT_FALSE(destroyed);
    probe->release();
    EXPECT_TRUE(destroyed);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test that the default description has Cocoa's "<ClassName: 0x…>" form.
TEST(ObjectTest, DefaultDescription) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    NS::Object* probe = make<Probe>();
    std::string text = probe->description()->utf8String();
    char expected[64];
    std::snprintf(expected, sizeof expected, "<Probe: %p>", static_cast<void*>(probe));
    EXPECT_EQ(text, expected);
    EXPECT_EQ(std::string(probe->debugDescription()->utf8String()), expected);
    probe->release();
    pool->drain();
}

// Test that hash and isEqual default to identity.
TEST(ObjectTest, IdentityEquality) {
    NS::Object* a = make<Probe>();
    NS::Object* b = make<Probe>();
    EXPECT_TRUE(a->isEqual(a));
    EXPECT_FALSE(a->isEqual(b));
    EXPECT_FALSE(a->isEqual(nullptr));
    EXPECT_NE(a->hash(), b->hash());
    a->release();
    b->release();
}

// Test that copying an immutable object returns the object itself, retained.
TEST(ObjectTest, CopyOfImmutableRetains) {
    NS::String* string = NS::String::alloc()->init("abc", NS::UTF8StringEncoding);
    NS::String* copy = string->copy();
    EXPECT_EQ(copy, string);
    EXPECT_EQ(string->retainCount(), 2u);
    copy->release();
    string->release();
}

// Test that a C string passed where an NS::String* belongs is rejected with an error
// naming the method, without crashing, and that the call returns zero.
TEST(ObjectTest, CStringPassedAsObjectIsRejected) {
    LogCapture log;
    alignas(16) static const char text[] = "definitely not an object";
    auto* fake = reinterpret_cast<const NS::String*>(text);
    EXPECT_EQ(ObjectBase::from(fake), nullptr);
    EXPECT_EQ(fake->length(), 0u);
    EXPECT_EQ(fake->utf8String(), nullptr);
    EXPECT_NE(log.text().find("C string \"definitely not an object\""), std::string::npos) << log.text();
    EXPECT_NE(log.text().find("NS::String::length"), std::string::npos) << log.text();

    // A misaligned one (most literals are) is rejected without even being read as an object.
    auto* odd = reinterpret_cast<const NS::String*>(text + 1);
    EXPECT_EQ(odd->length(), 0u);
}

// Test that a C string given as an argument (not as the receiver) is rejected too.
TEST(ObjectTest, CStringPassedAsArgumentIsRejected) {
    LogCapture log;
    NS::String* string = NS::String::alloc()->init("abc", NS::UTF8StringEncoding);
    auto* fake = reinterpret_cast<const NS::String*>("abc");
    EXPECT_FALSE(string->isEqualToString(fake));
    EXPECT_FALSE(log.text().empty());
    string->release();
}

// Test that each kind of mistake is logged once per place, not on every call.
TEST(ObjectTest, MistakesAreLoggedOncePerSite) {
    LogCapture log;
    alignas(16) static const char text[] = "repeated mistake";
    auto* fake = reinterpret_cast<const NS::String*>(text);
    // A method no other test sends to a bad pointer: sites are remembered process-wide.
    for (int i = 0; i < 3; ++i) EXPECT_EQ(fake->maximumLengthOfBytes(NS::UTF8StringEncoding), 0u);
    std::string all = log.text();
    std::size_t first = all.find("repeated mistake");
    ASSERT_NE(first, std::string::npos);
    EXPECT_EQ(all.find("repeated mistake", first + 1), std::string::npos) << all;
}

// Test that an object of the wrong class is refused by the method and logged.
TEST(ObjectTest, WrongClassIsRejected) {
    LogCapture log;
    NS::Object* probe = make<Probe>();
    auto* notAString = reinterpret_cast<NS::String*>(probe);
    EXPECT_EQ(notAString->length(), 0u);
    EXPECT_NE(log.text().find("expected an object of class String"), std::string::npos) << log.text();
    probe->release();
}

// Test that immortal objects ignore retain and release.
TEST(ObjectTest, ImmortalObjectsIgnoreReleases) {
    static NS::Object* const probe = make<Probe>(); // immortal: kept reachable, never freed
    coreOf(probe)->makeImmortal();
    probe->release();
    probe->release();
    EXPECT_EQ(probe->retainCount(), NS::UIntegerMax);
    EXPECT_EQ(probe->retain(), probe);
}

} // namespace
} // namespace metalcpu::ns
