// <Metal/Metal.hpp> brings the C++ headers Apple's libc++ reaches from the <functional> that
// Apple's metal-cpp includes, so that programs timing with std::chrono or naming shaders with
// std::string without including <chrono> or <string> compile unchanged (docs/foundation.md,
// "Headers that come with Foundation").
//
// Everything above the GoogleTest include sees only Metal.hpp: each function uses one header's
// names, and fails to compile if Metal.hpp stops bringing that header.

#include <Metal/Metal.hpp>

namespace foundation_cxx_headers {

// <chrono>: the timing loop of the surveyed benchmarks
long long elapsedMicroseconds() {
    const auto start = std::chrono::high_resolution_clock::now();
    const auto steady = std::chrono::steady_clock::now();
    const auto stop = std::chrono::high_resolution_clock::now();
    (void)steady;
    return std::chrono::duration_cast<std::chrono::microseconds>(stop - start).count();
}
long long millisecondsIn(std::chrono::seconds seconds) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(seconds).count();
}

// <string>, <string_view>
std::string shaderName(int variant) { return "mat_mul_opt" + std::to_string(variant); }
bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// <vector>, <array>, <unordered_map>, <algorithm>
std::vector<float> sortedDescending(std::vector<float> values) {
    std::sort(values.begin(), values.end(), [](float a, float b) { return a > b; });
    return values;
}
int largest(const std::array<int, 3>& values) { return std::max(values[0], std::max(values[1], values[2])); }
int countWords(const std::vector<std::string>& words) {
    std::unordered_map<std::string, int> counts;
    for (const auto& word : words) ++counts[word];
    return static_cast<int>(counts.size());
}

// <memory>, <tuple>, <utility>, <atomic>
int sharedValue() {
    auto owned = std::make_unique<int>(20);
    auto shared = std::make_shared<int>(22);
    std::atomic<int> sum{0};
    sum.fetch_add(*owned + *shared);
    return sum.load();
}
std::tuple<int, float> pairUp(std::pair<int, float> values) { return std::make_tuple(values.first, values.second); }

// <stdexcept>, <exception>, <typeinfo>
const char* errorText() {
    try {
        throw std::runtime_error("no default library");
    } catch (const std::exception& error) {
        return typeid(error) == typeid(std::runtime_error) ? "runtime_error" : "other";
    }
}

// <cmath>, <cstdlib>, <cstring>, <climits>, <limits>
bool closeEnough(float a, float b) {
    return std::fabs(a - b) <= std::numeric_limits<float>::epsilon() * std::max(1.0f, std::max(a, b));
}
int absoluteSum(int a, int b) { return std::abs(a) + std::abs(b) + (INT_MAX > 0 ? 0 : 1); }
std::size_t copiedLength(const char* text) {
    char buffer[32];
    std::memcpy(buffer, text, std::strlen(text) + 1);
    return std::strlen(buffer);
}

// <cstdio>, <cstddef>, <iterator>
int formatted(char* out, std::size_t size, int value) { return std::snprintf(out, size, "<%d>", value); }
std::ptrdiff_t distanceToLast(const std::vector<int>& values) {
    return std::distance(values.begin(), std::prev(values.end()));
}

} // namespace foundation_cxx_headers

#include <gtest/gtest.h>

namespace foundation_cxx_headers {
namespace {

TEST(FoundationCxxHeaders, ChronoClocksAndDurations) {
    EXPECT_GE(elapsedMicroseconds(), 0);
    EXPECT_EQ(millisecondsIn(std::chrono::seconds(3)), 3000);
}

TEST(FoundationCxxHeaders, StringsAndContainers) {
    EXPECT_EQ(shaderName(2), "mat_mul_opt2");
    EXPECT_TRUE(startsWith("mat_mul_simple1", "mat_mul"));
    EXPECT_EQ(sortedDescending({1.0f, 3.0f, 2.0f}), (std::vector<float>{3.0f, 2.0f, 1.0f}));
    EXPECT_EQ(largest({4, 9, 2}), 9);
    EXPECT_EQ(countWords({"a", "b", "a"}), 2);
}

TEST(FoundationCxxHeaders, MemoryTuplesAtomicsAndExceptions) {
    EXPECT_EQ(sharedValue(), 42);
    EXPECT_EQ(pairUp({1, 2.5f}), std::make_tuple(1, 2.5f));
    EXPECT_STREQ(errorText(), "runtime_error");
}

TEST(FoundationCxxHeaders, NumericsAndCStrings) {
    EXPECT_TRUE(closeEnough(1.0f, 1.0f));
    EXPECT_FALSE(closeEnough(1.0f, 1.01f));
    EXPECT_EQ(absoluteSum(-2, 3), 5);
    EXPECT_EQ(copiedLength("metal"), 5u);
    char text[8];
    EXPECT_EQ(formatted(text, sizeof text, 42), 4);
    EXPECT_STREQ(text, "<42>");
    EXPECT_EQ(distanceToLast({1, 2, 3}), 2);
}

} // namespace
} // namespace foundation_cxx_headers
