// NS::String and MTLSTR.
#include "foundation/object.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace metalcpu::ns {
namespace {

class StringTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

std::string text(const NS::String* string) { return string ? string->utf8String() : "<null>"; }

// Test that the class constructors make autoreleased strings with the given text.
TEST_F(StringTest, Constructors) {
    EXPECT_EQ(text(NS::String::string()), "");
    NS::String* hello = NS::String::string("hello", NS::UTF8StringEncoding);
    EXPECT_EQ(text(hello), "hello");
    EXPECT_EQ(hello->retainCount(), 1u); // owned by the pool
    NS::String* copy = NS::String::string(hello);
    EXPECT_NE(copy, hello);
    EXPECT_EQ(text(copy), "hello");
    EXPECT_EQ(NS::String::string(nullptr, NS::UTF8StringEncoding), nullptr);
}

// Test the alloc/init forms, including the buffer-adopting one.
TEST_F(StringTest, AllocInit) {
    NS::String* empty = NS::String::alloc()->init();
    EXPECT_EQ(empty->length(), 0u);
    empty->release();

    NS::String* source = NS::String::alloc()->init("source", NS::ASCIIStringEncoding);
    NS::String* same = NS::String::alloc()->init(source);
    EXPECT_TRUE(same->isEqualToString(source));
    same->release();
    source->release();

    char* buffer = static_cast<char*>(std::malloc(5));
    std::memcpy(buffer, "bytes", 5);
    NS::String* adopted = NS::String::alloc()->init(buffer, 5, NS::UTF8StringEncoding, true);
    EXPECT_EQ(text(adopted), "bytes"); // and the buffer was freed (checked by ASan builds)
    adopted->release();

    char stackBytes[] = {'a', 'b', 'c'};
    NS::String* copied = NS::String::alloc()->init(stackBytes, 3, NS::UTF8StringEncoding, false);
    EXPECT_EQ(text(copied), "abc");
    copied->release();
}

// Test that invalid input makes init fail (nil) without leaking the allocated string.
TEST_F(StringTest, InvalidInputFails) {
    std::size_t before = ObjectBase::liveObjectCount();
    EXPECT_EQ(NS::String::alloc()->init("\xff\xfe", NS::UTF8StringEncoding), nullptr);
    EXPECT_EQ(NS::String::alloc()->init("x", NS::ShiftJISStringEncoding), nullptr);
    EXPECT_EQ(NS::String::alloc()->init(static_cast<const NS::String*>(nullptr)), nullptr);
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
}

// Test that length and character count UTF-16 code units, as Foundation does.
TEST_F(StringTest, LengthCountsUtf16Units) {
    NS::String* string = NS::String::string("a\u00e9\u4e2d\U0001F600", NS::UTF8StringEncoding);
    EXPECT_EQ(string->length(), 5u); // a, é, 中, and a surrogate pair
    EXPECT_EQ(string->character(0), u'a');
    EXPECT_EQ(string->character(1), 0xE9);
    EXPECT_EQ(string->character(2), 0x4E2D);
    EXPECT_EQ(string->character(3), 0xD83D);
    EXPECT_EQ(string->character(4), 0xDE00);
    testing::LogCapture log;
    EXPECT_EQ(string->character(5), 0);
    EXPECT_NE(log.text().find("beyond the end"), std::string::npos);
}

// Test that strings made from other encodings give valid UTF-8 back.
TEST_F(StringTest, OtherEncodingsGiveUtf8) {
    EXPECT_EQ(text(NS::String::string("caf\xe9", NS::ISOLatin1StringEncoding)), "caf\u00e9");
    EXPECT_EQ(text(NS::String::string("\x80", NS::WindowsCP1252StringEncoding)), "\u20ac");
    const char utf16[] = {'h', 0, 'i', 0, 0, 0};
    EXPECT_EQ(text(NS::String::string(utf16, NS::UTF16LittleEndianStringEncoding)), "hi");
    NS::String* fromBytes = NS::String::alloc()->init(const_cast<char*>("\0h\0i"), 4,
                                                      NS::UTF16BigEndianStringEncoding, false);
    EXPECT_EQ(text(fromBytes), "hi");
    fromBytes->release();
}

// Test cString in several encodings, and that a character it cannot hold gives nullptr.
TEST_F(StringTest, CStringEncodings) {
    NS::String* string = NS::String::string("caf\u00e9", NS::UTF8StringEncoding);
    EXPECT_STREQ(string->cString(NS::UTF8StringEncoding), "caf\u00e9");
    EXPECT_STREQ(string->cString(NS::ISOLatin1StringEncoding), "caf\xe9");
    EXPECT_EQ(string->cString(NS::ASCIIStringEncoding), nullptr);
    const char* utf16 = string->cString(NS::UTF16LittleEndianStringEncoding);
    ASSERT_NE(utf16, nullptr);
    EXPECT_EQ(std::memcmp(utf16, "c\0a\0f\0\xe9\0\0\0", 10), 0);
    // The pointer stays the same (and valid) on a second call.
    EXPECT_EQ(string->cString(NS::ISOLatin1StringEncoding), string->cString(NS::ISOLatin1StringEncoding));
}

// Test lengthOfBytes and maximumLengthOfBytes.
TEST_F(StringTest, ByteLengths) {
    NS::String* string = NS::String::string("caf\u00e9", NS::UTF8StringEncoding);
    EXPECT_EQ(string->lengthOfBytes(NS::UTF8StringEncoding), 5u);
    EXPECT_EQ(string->lengthOfBytes(NS::ISOLatin1StringEncoding), 4u);
    EXPECT_EQ(string->lengthOfBytes(NS::UTF16StringEncoding), 8u);
    EXPECT_EQ(string->lengthOfBytes(NS::ASCIIStringEncoding), 0u);
    EXPECT_GE(string->maximumLengthOfBytes(NS::UTF8StringEncoding), 5u);
    EXPECT_EQ(string->maximumLengthOfBytes(NS::UTF16StringEncoding), 8u);
}

// Test equality, appending and the file-system representation.
TEST_F(StringTest, EqualityAndAppend) {
    NS::String* a = NS::String::string("kernel", NS::UTF8StringEncoding);
    NS::String* b = NS::String::string("kernel", NS::ASCIIStringEncoding);
    EXPECT_TRUE(a->isEqualToString(b));
    EXPECT_TRUE(a->isEqual(b));
    EXPECT_EQ(a->hash(), b->hash());
    EXPECT_FALSE(a->isEqualToString(nullptr));
    NS::String* joined = a->stringByAppendingString(MTLSTR("_main"));
    EXPECT_EQ(text(joined), "kernel_main");
    EXPECT_EQ(text(a), "kernel");
    EXPECT_STREQ(joined->fileSystemRepresentation(), "kernel_main");
    EXPECT_EQ(text(a->description()), "kernel");
}

// Test case-insensitive comparison.
TEST_F(StringTest, CaseInsensitiveCompare) {
    EXPECT_EQ(MTLSTR("Metal")->caseInsensitiveCompare(MTLSTR("mETAL")), NS::OrderedSame);
    EXPECT_EQ(MTLSTR("apple")->caseInsensitiveCompare(MTLSTR("Banana")), NS::OrderedAscending);
    EXPECT_EQ(MTLSTR("zeta")->caseInsensitiveCompare(MTLSTR("Alpha")), NS::OrderedDescending);
    EXPECT_EQ(MTLSTR("\u00c9T\u00c9")->caseInsensitiveCompare(MTLSTR("\u00e9t\u00e9")), NS::OrderedSame);
}

// Test rangeOfString with its options, in UTF-16 units.
TEST_F(StringTest, RangeOfString) {
    NS::String* hay = MTLSTR("\u00e9abcABCabc");
    NS::Range found = hay->rangeOfString(MTLSTR("abc"), 0);
    EXPECT_EQ(found.location, 1u);
    EXPECT_EQ(found.length, 3u);
    EXPECT_EQ(hay->rangeOfString(MTLSTR("abc"), NS::BackwardsSearch).location, 7u);
    EXPECT_EQ(hay->rangeOfString(MTLSTR("ABC"), 0).location, 4u);
    EXPECT_EQ(hay->rangeOfString(MTLSTR("Abc"), NS::CaseInsensitiveSearch).location, 1u);
    EXPECT_EQ(hay->rangeOfString(MTLSTR("abc"), NS::AnchoredSearch).location, NS::UInteger(NS::NotFound));
    EXPECT_EQ(hay->rangeOfString(MTLSTR("abc"), NS::AnchoredSearch | NS::BackwardsSearch).location, 7u);
    NS::Range missing = hay->rangeOfString(MTLSTR("xyz"), 0);
    EXPECT_EQ(missing.location, NS::UInteger(NS::NotFound));
    EXPECT_EQ(missing.length, 0u);
}

// Test that MTLSTR is one immortal object per text, in any expression, without leaks.
TEST_F(StringTest, ConstantStrings) {
    NS::String* first = MTLSTR("constant");
    EXPECT_EQ(text(first), "constant");
    std::size_t before = ObjectBase::liveObjectCount();
    for (int i = 0; i < 1000; ++i) EXPECT_EQ(MTLSTR("constant"), first); // another site, same object
    EXPECT_EQ(ObjectBase::liveObjectCount(), before);
    first->release();
    first->release();
    EXPECT_EQ(text(first), "constant");
    EXPECT_EQ(first->retainCount(), NS::UIntegerMax);
    first->autorelease();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    const NS::String* deprecated = NS::MakeConstantString("constant");
#pragma GCC diagnostic pop
    EXPECT_EQ(deprecated, first);
    static NS::String* const atNamespaceScopeStyle = MTLSTR("static");
    EXPECT_EQ(text(atNamespaceScopeStyle), "static");
}

// Test that the error-domain constants are strings with Foundation's texts.
TEST_F(StringTest, LibraryConstants) {
    EXPECT_EQ(text(NS::CocoaErrorDomain), "NSCocoaErrorDomain");
    EXPECT_EQ(text(NS::LocalizedDescriptionKey), "NSLocalizedDescription");
    EXPECT_TRUE(NS::CocoaErrorDomain->isEqualToString(MTLSTR("NSCocoaErrorDomain")));
    NS::CocoaErrorDomain->release();
    EXPECT_EQ(text(NS::CocoaErrorDomain), "NSCocoaErrorDomain");
}

} // namespace
} // namespace metalcpu::ns
