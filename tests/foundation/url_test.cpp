// NS::URL and NS::Data.
#include "foundation/factories.h"
#include "test_support.h"

#include <Foundation/Foundation.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace metalcpu::ns {
namespace {

class UrlTest : public ::testing::Test {
protected:
    void SetUp() override { pool_ = NS::AutoreleasePool::alloc()->init(); }
    void TearDown() override { pool_->drain(); }

private:
    NS::AutoreleasePool* pool_ = nullptr;
};

// Test file URLs: absolute paths stay, relative ones are made absolute, escapes round-trip.
TEST_F(UrlTest, FileUrls) {
    NS::URL* absolute = NS::URL::fileURLWithPath(MTLSTR("/tmp/a b.metallib"));
    EXPECT_STREQ(absolute->fileSystemRepresentation(), "/tmp/a b.metallib");
    EXPECT_STREQ(absolute->description()->utf8String(), "file:///tmp/a%20b.metallib");
    NS::URL* relative = NS::URL::alloc()->initFileURLWithPath(MTLSTR("default.metallib"));
    EXPECT_EQ(std::string(relative->fileSystemRepresentation()),
              (std::filesystem::current_path() / "default.metallib").string());
    relative->release();
}

// Test URLs made from strings.
TEST_F(UrlTest, FromString) {
    NS::URL* file = NS::URL::alloc()->init(MTLSTR("file:///tmp/a%20b"));
    EXPECT_STREQ(file->fileSystemRepresentation(), "/tmp/a b");
    file->release();
    NS::URL* web = NS::URL::alloc()->init(MTLSTR("https://example.com/x"));
    EXPECT_EQ(web->fileSystemRepresentation(), nullptr);
    web->release();
    NS::URL* empty = NS::URL::alloc()->init();
    EXPECT_EQ(empty->fileSystemRepresentation(), nullptr);
    empty->release();
    EXPECT_EQ(NS::URL::alloc()->init(static_cast<const NS::String*>(nullptr)), nullptr);
}

// Test NS::Data from the library's factory.
TEST_F(UrlTest, Data) {
    NS::Data* data = makeData("abc", 3);
    EXPECT_EQ(data->length(), 3u);
    EXPECT_EQ(std::memcmp(data->bytes(), "abc", 3), 0);
    EXPECT_STREQ(data->description()->utf8String(), "{length = 3, bytes = 0x616263}");
    data->release();
    NS::URL* url = makeFileURL("/x");
    EXPECT_STREQ(url->fileSystemRepresentation(), "/x");
    url->release();
}

} // namespace
} // namespace metalcpu::ns
