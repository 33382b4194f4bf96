// NS::SharedPtr, NS::TransferPtr and NS::RetainPtr.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <unordered_set>
#include <utility>

namespace metalcpu::ns {
namespace {

NS::String* newString(const char* text) { return NS::String::alloc()->init(text, NS::UTF8StringEncoding); }

// Test that TransferPtr adopts a +1 object and releases it at the end of its scope.
TEST(SharedPtrTest, TransferAdopts) {
    std::size_t before = ObjectBase::liveObjectCount();
    {
        NS::SharedPtr<NS::String> string = NS::TransferPtr(newString("x"));
        EXPECT_EQ(string->retainCount(), 1u);
        EXPECT_TRUE(string);
    }
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test that RetainPtr retains, and copies share the object.
TEST(SharedPtrTest, RetainAndCopy) {
    NS::String* raw = newString("x");
    {
        NS::SharedPtr<NS::String> retained = NS::RetainPtr(raw);
        EXPECT_EQ(raw->retainCount(), 2u);
        NS::SharedPtr<NS::String> copy = retained;
        EXPECT_EQ(raw->retainCount(), 3u);
        EXPECT_TRUE(copy == retained);
        EXPECT_FALSE(copy != retained);
        NS::SharedPtr<NS::Object> base = copy; // converting copy
        EXPECT_EQ(raw->retainCount(), 4u);
        EXPECT_EQ(base.get(), raw);
    }
    EXPECT_EQ(raw->retainCount(), 1u);
    raw->release();
}

// Test that moves transfer without touching the count and leave the source null.
TEST(SharedPtrTest, Moves) {
    NS::SharedPtr<NS::String> a = NS::TransferPtr(newString("x"));
    NS::String* raw = a.get();
    NS::SharedPtr<NS::String> b = std::move(a);
    EXPECT_FALSE(a);
    EXPECT_EQ(b.get(), raw);
    EXPECT_EQ(raw->retainCount(), 1u);
    NS::SharedPtr<NS::Object> c = std::move(b); // converting move
    EXPECT_FALSE(b);
    EXPECT_EQ(raw->retainCount(), 1u);
    NS::SharedPtr<NS::Object> d;
    d = std::move(c);
    EXPECT_EQ(raw->retainCount(), 1u);
    NS::SharedPtr<NS::String> e = NS::TransferPtr(newString("y"));
    d = std::move(e); // converting move assignment releases the old object
    EXPECT_FALSE(e);
}

// Test copy assignment, including self-assignment and the converting form.
TEST(SharedPtrTest, CopyAssignment) {
    NS::SharedPtr<NS::String> a = NS::TransferPtr(newString("a"));
    NS::SharedPtr<NS::String> b = NS::TransferPtr(newString("b"));
    NS::String* rawA = a.get();
    b = a;
    EXPECT_EQ(rawA->retainCount(), 2u);
    b = b;
    EXPECT_EQ(rawA->retainCount(), 2u);
    NS::SharedPtr<NS::Object> base;
    base = a;
    EXPECT_EQ(rawA->retainCount(), 3u);
    // Moving an object onto a pointer that already holds it keeps one reference.
    NS::SharedPtr<NS::String> again = a;
    EXPECT_EQ(rawA->retainCount(), 4u);
    again = std::move(b);
    EXPECT_EQ(rawA->retainCount(), 3u);
}

// Test reset, detach, null pointers and hashing.
TEST(SharedPtrTest, ResetDetachNull) {
    NS::SharedPtr<NS::String> empty;
    NS::SharedPtr<NS::String> null = nullptr;
    EXPECT_FALSE(empty);
    EXPECT_TRUE(empty == null);
    empty.reset();
    NS::SharedPtr<NS::String> copyOfNull = null;
    EXPECT_FALSE(copyOfNull);
    EXPECT_FALSE(NS::RetainPtr<NS::String>(nullptr));

    NS::SharedPtr<NS::String> string = NS::TransferPtr(newString("x"));
    NS::String* raw = string.get();
    raw->retain();
    string.reset();
    EXPECT_FALSE(string);
    EXPECT_EQ(raw->retainCount(), 1u);
    NS::SharedPtr<NS::String> owner = NS::TransferPtr(raw);
    owner.detach();
    EXPECT_EQ(raw->retainCount(), 1u);
    raw->release();

    std::unordered_set<NS::SharedPtr<NS::String>> set;
    set.insert(NS::TransferPtr(newString("h")));
    EXPECT_EQ(set.size(), 1u);
}

} // namespace
} // namespace metalcpu::ns
