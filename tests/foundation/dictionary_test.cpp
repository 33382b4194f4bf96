// NS::Dictionary.
#include "foundation/factories.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::ns {
namespace {

using testing::Probe;

class DictionaryTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test that a dictionary retains its values and keys, and releases them when it goes.
TEST_F(DictionaryTest, OwnsEntries) {
    bool destroyed = false;
    NS::Object* value = make<Probe>(&destroyed);
    NS::String* key = NS::String::alloc()->init("key", NS::UTF8StringEncoding);
    NS::Dictionary* dictionary = NS::Dictionary::alloc()->init(&value, reinterpret_cast<NS::Object**>(&key), 1);
    EXPECT_EQ(value->retainCount(), 2u);
    EXPECT_EQ(key->retainCount(), 2u); // the copy of an immutable key is the key
    value->release();
    key->release();
    EXPECT_FALSE(destroyed);
    dictionary->release();
    EXPECT_TRUE(destroyed);
}

// Test lookups by equal (not identical) keys, count and the typed accessor.
TEST_F(DictionaryTest, Lookup) {
    NS::Dictionary* dictionary = NS::Dictionary::dictionary(NS::Number::number(42), MTLSTR("WIDTH"));
    EXPECT_EQ(dictionary->count(), 1u);
    NS::String* key = NS::String::string("WIDTH", NS::UTF8StringEncoding);
    NS::Number* value = dictionary->object<NS::Number>(key);
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(value->intValue(), 42);
    EXPECT_EQ(dictionary->object(MTLSTR("HEIGHT")), nullptr);
    EXPECT_EQ(dictionary->object(nullptr), nullptr);
    EXPECT_EQ(NS::Dictionary::dictionary()->count(), 0u);
}

// Test that a repeated key keeps the last value.
TEST_F(DictionaryTest, RepeatedKeyKeepsLast) {
    const NS::Object* values[] = {MTLSTR("1"), MTLSTR("2")};
    const NS::Object* keys[] = {MTLSTR("k"), MTLSTR("k")};
    NS::Dictionary* dictionary = NS::Dictionary::dictionary(values, keys, 2);
    EXPECT_EQ(dictionary->count(), 1u);
    EXPECT_EQ(dictionary->object(MTLSTR("k")), values[1]);
}

// Test the key enumerator, typed as the program asks.
TEST_F(DictionaryTest, KeyEnumerator) {
    const NS::Object* values[] = {MTLSTR("1"), MTLSTR("2")};
    const NS::Object* keys[] = {MTLSTR("a"), MTLSTR("b")};
    NS::Dictionary* dictionary = NS::Dictionary::dictionary(values, keys, 2);
    NS::Enumerator<NS::String>* enumerator = dictionary->keyEnumerator<NS::String>();
    std::vector<std::string> seen;
    while (NS::String* key = enumerator->nextObject()) seen.push_back(key->utf8String());
    EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}

// Test the description format and init(Coder*).
TEST_F(DictionaryTest, DescriptionAndCoder) {
    NS::Dictionary* dictionary = NS::Dictionary::dictionary(MTLSTR("v"), MTLSTR("k"));
    EXPECT_STREQ(dictionary->description()->utf8String(), "{\n    k = v;\n}");
    EXPECT_EQ(NS::Dictionary::alloc()->init(static_cast<const NS::Coder*>(nullptr)), nullptr);
    NS::Dictionary* empty = NS::Dictionary::alloc()->init();
    EXPECT_EQ(empty->count(), 0u);
    empty->release();
}

// Test the runtime's dictionary factory and reader (e.g. preprocessor macros).
TEST_F(DictionaryTest, Factories) {
    NS::Dictionary* macros = makeDictionary({{MTLSTR("N"), NS::Number::number(8)}, {MTLSTR("T"), MTLSTR("float")}});
    auto entries = dictionaryEntries(macros);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(textOfObject(entries[0].first), "N");
    EXPECT_EQ(textOfObject(entries[0].second), "8");
    EXPECT_EQ(textOfObject(entries[1].second), "float");
    EXPECT_TRUE(dictionaryEntries(nullptr).empty());
    EXPECT_EQ(textOfObject(nullptr), "");
    macros->release();
}

} // namespace
} // namespace metalcpu::ns
