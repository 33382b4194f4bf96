// NS::Array and NS::Enumerator.
#include "foundation/factories.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

using testing::Probe;

class ArrayTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that an array retains its elements and releases them when it goes.
TEST_F(ArrayTest, OwnsElements) {
    bool destroyed = false;
    NS::Object* probe = make<Probe>(&destroyed);
    NS::Array* array = NS::Array::alloc()->init(&probe, 1);
    EXPECT_EQ(probe->retainCount(), 2u);
    probe->release();
    EXPECT_FALSE(destroyed);
    array->release();
    EXPECT_TRUE(destroyed);
}

// Test the constructors, count and typed element access.
TEST_F(ArrayTest, ConstructorsAndAccess) {
    EXPECT_EQ(NS::Array::array()->count(), 0u);
    NS::Array* one = NS::Array::array(MTLSTR("one"));
    EXPECT_EQ(one->count(), 1u);
    NS::String* first = one->object<NS::String>(0);
    EXPECT_STREQ(first->utf8String(), "one");
    const NS::Object* items[] = {MTLSTR("a"), MTLSTR("b"), MTLSTR("c")};
    NS::Array* three = NS::Array::array(items, 3);
    EXPECT_EQ(three->count(), 3u);
    EXPECT_STREQ(three->object<NS::String>(2)->utf8String(), "c");
    EXPECT_EQ(three->object(0), items[0]);
    NS::Array* empty = NS::Array::alloc()->init();
    EXPECT_EQ(empty->count(), 0u);
    empty->release();
}

// Test that an index past the end returns nullptr and is logged.
TEST_F(ArrayTest, IndexOutOfRange) {
    testing::LogCapture log;
    EXPECT_EQ(NS::Array::array()->object(0), nullptr);
    EXPECT_NE(log.text().find("beyond the end"), std::string::npos);
}

// Test that null elements are left out with an error (Foundation raises).
TEST_F(ArrayTest, NullElementsAreLeftOut) {
    testing::LogCapture log;
    const NS::Object* items[] = {MTLSTR("a"), nullptr};
    EXPECT_EQ(NS::Array::array(items, 2)->count(), 1u);
    EXPECT_FALSE(log.text().empty());
}

// Test enumeration: nextObject, allObjects and fast enumeration.
TEST_F(ArrayTest, Enumerators) {
    const NS::Object* items[] = {MTLSTR("a"), MTLSTR("b"), MTLSTR("c")};
    NS::Array* array = NS::Array::array(items, 3);
    NS::Enumerator<NS::Object>* enumerator = array->objectEnumerator();
    EXPECT_EQ(enumerator->nextObject(), items[0]);
    NS::Array* rest = enumerator->allObjects();
    EXPECT_EQ(rest->count(), 2u);
    EXPECT_EQ(enumerator->nextObject(), nullptr);

    NS::FastEnumerationState state{};
    NS::Object* buffer[2];
    NS::Enumerator<NS::Object>* fast = array->objectEnumerator();
    EXPECT_EQ(fast->countByEnumerating(&state, buffer, 2), 2u);
    EXPECT_EQ(state.itemsPtr[1], items[1]);
    EXPECT_NE(state.mutationsPtr, nullptr);
    EXPECT_EQ(fast->countByEnumerating(&state, buffer, 2), 1u);
    EXPECT_EQ(fast->countByEnumerating(&state, buffer, 2), 0u);
}

// Test equality and the description format.
TEST_F(ArrayTest, EqualityAndDescription) {
    const NS::Object* items[] = {MTLSTR("a"), MTLSTR("b")};
    NS::Array* left = NS::Array::array(items, 2);
    NS::Array* right = NS::Array::array(items, 2);
    EXPECT_TRUE(left->isEqual(right));
    EXPECT_FALSE(left->isEqual(NS::Array::array(items, 1)));
    EXPECT_STREQ(left->description()->utf8String(), "(\n    a,\n    b\n)");
    EXPECT_EQ(left->copy(), left);
    left->release();
}

// Test that init(Coder*) fails: there is nothing to decode from on Linux.
TEST_F(ArrayTest, InitWithCoderFails) {
    std::size_t before = ObjectBase::liveObjectCount();
    EXPECT_EQ(NS::Array::alloc()->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test the runtime's array factories.
TEST_F(ArrayTest, Factories) {
    bool destroyed = false;
    NS::Object* probe = make<Probe>(&destroyed);
    NS::Array* array = makeArray({probe, nullptr});
    EXPECT_EQ(array->count(), 1u);
    EXPECT_EQ(arrayElements(array), std::vector<NS::Object*>{probe});
    probe->release();
    array->release();
    EXPECT_TRUE(destroyed);

    NS::Array* names = makeStringArray({"add", "mul"});
    EXPECT_EQ(names->count(), 2u);
    EXPECT_EQ(stringOf(names->object<NS::String>(1)), "mul");
    names->release();
    EXPECT_TRUE(arrayElements(nullptr).empty());
}

} // namespace
} // namespace metalcpu::ns
