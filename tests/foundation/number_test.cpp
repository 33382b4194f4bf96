// NS::Number and NS::Value.
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

namespace metalcpu::ns {
namespace {

class NumberTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test every number() overload: the value comes back and objCType names the type.
TEST_F(NumberTest, EveryOverload) {
    EXPECT_EQ(NS::Number::number(static_cast<char>(-3))->charValue(), -3);
    EXPECT_EQ(NS::Number::number(static_cast<unsigned char>(250))->unsignedCharValue(), 250);
    EXPECT_EQ(NS::Number::number(static_cast<short>(-300))->shortValue(), -300);
    EXPECT_EQ(NS::Number::number(static_cast<unsigned short>(60000))->unsignedShortValue(), 60000);
    EXPECT_EQ(NS::Number::number(-70000)->intValue(), -70000);
    EXPECT_EQ(NS::Number::number(4000000000u)->unsignedIntValue(), 4000000000u);
    EXPECT_EQ(NS::Number::number(-5000000000L)->longValue(), -5000000000L);
    EXPECT_EQ(NS::Number::number(9000000000UL)->unsignedLongValue(), 9000000000UL);
    EXPECT_EQ(NS::Number::number(-6000000000LL)->longLongValue(), -6000000000LL);
    EXPECT_EQ(NS::Number::number(18000000000000000000ULL)->unsignedLongLongValue(), 18000000000000000000ULL);
    EXPECT_FLOAT_EQ(NS::Number::number(1.5f)->floatValue(), 1.5f);
    EXPECT_DOUBLE_EQ(NS::Number::number(2.25)->doubleValue(), 2.25);
    EXPECT_TRUE(NS::Number::number(true)->boolValue());
    EXPECT_STREQ(NS::Number::number(1)->objCType(), "i");
    EXPECT_STREQ(NS::Number::number(1.0)->objCType(), "d");
    EXPECT_STREQ(NS::Number::number(1L)->objCType(), "q");
}

// Test the alloc()->init() overloads, as CompileOptions macro values are often made.
TEST_F(NumberTest, AllocInit) {
    NS::Number* numbers[] = {
        NS::Number::alloc()->init(static_cast<char>(1)),  NS::Number::alloc()->init(static_cast<unsigned char>(2)),
        NS::Number::alloc()->init(static_cast<short>(3)), NS::Number::alloc()->init(static_cast<unsigned short>(4)),
        NS::Number::alloc()->init(5),                     NS::Number::alloc()->init(6u),
        NS::Number::alloc()->init(7L),                    NS::Number::alloc()->init(8UL),
        NS::Number::alloc()->init(9LL),                   NS::Number::alloc()->init(10ULL),
        NS::Number::alloc()->init(11.0f),                 NS::Number::alloc()->init(12.0),
        NS::Number::alloc()->init(true),
    };
    long long expected = 1;
    for (NS::Number* number : numbers) {
        if (expected == 13) {
            EXPECT_EQ(number->integerValue(), 1);
        } else {
            EXPECT_EQ(number->integerValue(), expected);
            EXPECT_EQ(number->unsignedIntegerValue(), static_cast<NS::UInteger>(expected));
        }
        ++expected;
        number->release();
    }
    EXPECT_EQ(NS::Number::alloc()->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
}

// Test conversions between kinds, saturating for out-of-range floating-point values.
TEST_F(NumberTest, Conversions) {
    NS::Number* number = NS::Number::number(3.75);
    EXPECT_EQ(number->intValue(), 3);
    EXPECT_TRUE(number->boolValue());
    EXPECT_EQ(NS::Number::number(1e30)->intValue(), std::numeric_limits<int>::max());
    EXPECT_EQ(NS::Number::number(-1)->unsignedIntValue(), std::numeric_limits<unsigned>::max());
    EXPECT_FALSE(NS::Number::number(0)->boolValue());
}

// Test stringValue and description for each kind.
TEST_F(NumberTest, Text) {
    EXPECT_STREQ(NS::Number::number(42)->stringValue()->utf8String(), "42");
    EXPECT_STREQ(NS::Number::number(0.1)->stringValue()->utf8String(), "0.1");
    EXPECT_STREQ(NS::Number::number(0.1f)->stringValue()->utf8String(), "0.1");
    EXPECT_STREQ(NS::Number::number(true)->stringValue()->utf8String(), "1");
    EXPECT_STREQ(NS::Number::number(7u)->description()->utf8String(), "7");
    EXPECT_STREQ(NS::Number::number(7u)->descriptionWithLocale(nullptr)->utf8String(), "7");
}

// Test comparison across kinds, equality and hashes of equal numbers.
TEST_F(NumberTest, CompareAndEqual) {
    EXPECT_EQ(NS::Number::number(1)->compare(NS::Number::number(2.5)), NS::OrderedAscending);
    EXPECT_EQ(NS::Number::number(-1)->compare(NS::Number::number(1u)), NS::OrderedAscending);
    EXPECT_EQ(NS::Number::number(3.0)->compare(NS::Number::number(3)), NS::OrderedSame);
    EXPECT_TRUE(NS::Number::number(1.0f)->isEqualToNumber(NS::Number::number(1ULL)));
    EXPECT_FALSE(NS::Number::number(1)->isEqualToNumber(nullptr));
    EXPECT_TRUE(NS::Number::number(5)->isEqual(NS::Number::number(5.0)));
    EXPECT_EQ(NS::Number::number(5)->hash(), NS::Number::number(5.0)->hash());
}

// Test NS::Value: bytes of any encoded type, pointers and equality.
TEST_F(NumberTest, Value) {
    struct Pair {
        int a;
        double b;
    } pair{1, 2.0};
    NS::Value* value = NS::Value::value(&pair, "{Pair=id}");
    ASSERT_NE(value, nullptr);
    Pair out{};
    value->getValue(&out, sizeof out);
    EXPECT_EQ(out.a, 1);
    EXPECT_EQ(out.b, 2.0);
    EXPECT_STREQ(value->objCType(), "{Pair=id}");
    EXPECT_TRUE(value->isEqualToValue(NS::Value::value(&pair, "{Pair=id}")));

    int target = 0;
    NS::Value* pointer = NS::Value::value(&target);
    EXPECT_EQ(pointer->pointerValue(), &target);
    EXPECT_STREQ(pointer->objCType(), "^v");

    NS::Value* made = NS::Value::alloc()->init(&target, "i");
    EXPECT_EQ(made->pointerValue(), nullptr); // too small to hold a pointer
    made->release();
    EXPECT_EQ(NS::Value::alloc()->init(&target, "b3"), nullptr); // bit fields are not supported
    EXPECT_EQ(NS::Value::alloc()->init(static_cast<const NS::Coder*>(nullptr)), nullptr);

    // A number is a value too.
    NS::Number* number = NS::Number::number(7);
    int seven = 0;
    number->getValue(&seven, sizeof seven);
    EXPECT_EQ(seven, 7);
}

} // namespace
} // namespace metalcpu::ns
