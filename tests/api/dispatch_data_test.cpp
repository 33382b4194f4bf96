// Dispatch data (include/dispatch/dispatch.h), the stand-in for libdispatch's that
// Device::newLibrary(dispatch_data_t) takes: who owns the bytes, and when they are given back.
#include <dispatch/dispatch.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace {

int destroyed = 0;
void countDestruction() { ++destroyed; }

// Test that the default destructor copies the bytes: the caller may change or free its buffer.
TEST(DispatchData, DefaultDestructorCopiesTheBytes) {
    char buffer[] = "metallib";
    dispatch_data_t data = dispatch_data_create(buffer, sizeof buffer, nullptr, DISPATCH_DATA_DESTRUCTOR_DEFAULT);
    ASSERT_NE(data, nullptr);
    std::memset(buffer, 'x', sizeof buffer);
    const void* bytes = nullptr;
    size_t size = 0;
    dispatch_data_t map = dispatch_data_create_map(data, &bytes, &size);
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(size, sizeof buffer);
    EXPECT_EQ(dispatch_data_get_size(data), sizeof buffer);
    EXPECT_NE(bytes, static_cast<const void*>(buffer));
    EXPECT_STREQ(static_cast<const char*>(bytes), "metallib");
    dispatch_release(map);
    dispatch_release(data);
}

// Test that a destructor of the caller's runs once, when the last reference goes, and that
// until then the data is the caller's own bytes.
TEST(DispatchData, CallersDestructorRunsAtTheLastRelease) {
    static const char buffer[] = "embedded";
    destroyed = 0;
    dispatch_data_t data = dispatch_data_create(buffer, sizeof buffer, nullptr, countDestruction);
    const void* bytes = nullptr;
    dispatch_data_t map = dispatch_data_create_map(data, &bytes, nullptr);
    EXPECT_EQ(bytes, static_cast<const void*>(buffer));
    dispatch_retain(data);
    dispatch_release(data);
    dispatch_release(map);
    EXPECT_EQ(destroyed, 0);
    dispatch_release(data);
    EXPECT_EQ(destroyed, 1);
}

// Test that DISPATCH_DATA_DESTRUCTOR_FREE takes a malloc'd buffer without copying it (the
// sanitizer build checks that it is freed, once).
TEST(DispatchData, FreeDestructorTakesTheBuffer) {
    char* buffer = static_cast<char*>(std::malloc(16));
    ASSERT_NE(buffer, nullptr);
    std::strcpy(buffer, "taken");
    dispatch_data_t data = dispatch_data_create(buffer, 16, nullptr, DISPATCH_DATA_DESTRUCTOR_FREE);
    const void* bytes = nullptr;
    dispatch_data_t map = dispatch_data_create_map(data, &bytes, nullptr);
    EXPECT_EQ(bytes, static_cast<const void*>(buffer));
    dispatch_release(map);
    dispatch_release(data);
}

// Test that nil data is empty and that releasing or retaining it does nothing.
TEST(DispatchData, NilIsEmpty) {
    EXPECT_EQ(dispatch_data_get_size(nullptr), 0u);
    const void* bytes = &bytes;
    size_t size = 1;
    EXPECT_EQ(dispatch_data_create_map(nullptr, &bytes, &size), nullptr);
    EXPECT_EQ(bytes, nullptr);
    EXPECT_EQ(size, 0u);
    dispatch_retain(nullptr);
    dispatch_release(nullptr);
}

} // namespace
