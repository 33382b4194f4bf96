// <Foundation/Foundation.hpp> brings the C library headers Apple's brings through
// <CoreFoundation/CoreFoundation.h>, so that programs using assert, fabs, FLT_EPSILON, printf
// or memcpy without including their headers compile unchanged (docs/foundation.md, "Headers
// that come with Foundation").
//
// Everything above the GoogleTest include sees only Foundation.hpp: each function uses one C
// header's names, and fails to compile if Foundation.hpp stops bringing that header. The tests
// below then check that the names are the C library's.

#include <Foundation/Foundation.hpp>

namespace foundation_c_headers {

// assert.h
int checked(int value) {
    assert(value >= 0);
    return value;
}

// ctype.h
int upperCaseDigits(const char* text) {
    int count = 0;
    for (; *text; ++text) count += isdigit(static_cast<unsigned char>(*text)) ? 1 : 0;
    return count + (toupper('a') == 'A' ? 100 : 0);
}

// errno.h, stdlib.h
bool overflowSetsErrno() {
    errno = 0;
    (void)strtol("99999999999999999999999", nullptr, 10);
    return errno == ERANGE;
}

// float.h, math.h: the comparison the surveyed programs write to check GPU results
bool areEqual(float a, float b) {
    return fabs(a - b) <= FLT_EPSILON * fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b)));
}
double squareRootOfTwo() { return sqrt(2.0) + (DBL_MAX > 0.0 ? 0.0 : 1.0); }

// limits.h
long long intRange() { return static_cast<long long>(INT_MAX) - INT_MIN + CHAR_BIT - 8; }

// locale.h
const char* numericLocale() { return setlocale(LC_NUMERIC, nullptr); }

// setjmp.h
int jumpBack() {
    jmp_buf buffer;
    switch (setjmp(buffer)) {
    case 0: longjmp(buffer, 7);
    case 7: return 7;
    default: return -1;
    }
}

// signal.h
volatile sig_atomic_t signalsSeen = 0;
void countSignal(int) { signalsSeen = signalsSeen + 1; }
int raiseOnce() {
    signal(SIGUSR1, countSignal);
    raise(SIGUSR1);
    signal(SIGUSR1, SIG_DFL);
    return signalsSeen;
}

// stdarg.h
int sumOf(int count, ...) {
    va_list arguments;
    va_start(arguments, count);
    int sum = 0;
    for (int i = 0; i < count; ++i) sum += va_arg(arguments, int);
    va_end(arguments);
    return sum;
}

// stddef.h, stdint.h, sys/types.h
struct Record {
    uint8_t tag;
    int32_t value;
};
size_t valueOffset() { return offsetof(Record, value); }
ssize_t signedSize(ptrdiff_t difference) { return static_cast<ssize_t>(difference); }

// stdio.h
int format(char* out, size_t size, int value) { return snprintf(out, size, "%d-%s", value, "ok"); }

// stdlib.h, string.h
int* copyOf(const int* values, size_t count) {
    int* copy = static_cast<int*>(malloc(count * sizeof(int)));
    memcpy(copy, values, count * sizeof(int));
    return copy;
}
int compareInts(const void* a, const void* b) { return *static_cast<const int*>(a) - *static_cast<const int*>(b); }
void sortInts(int* values, size_t count) { qsort(values, count, sizeof(int), compareInts); }

// time.h
bool clockRuns() { return time(nullptr) > 0 && clock() >= 0; }

} // namespace foundation_c_headers

#include <gtest/gtest.h>

namespace foundation_c_headers {
namespace {

TEST(FoundationCHeaders, AssertCtypeErrnoAndLimits) {
    EXPECT_EQ(checked(5), 5);
    EXPECT_EQ(upperCaseDigits("a1b22"), 103);
    EXPECT_TRUE(overflowSetsErrno());
    EXPECT_EQ(intRange(), 4294967295LL);
}

TEST(FoundationCHeaders, MathAndFloatCompareResultsAsProgramsDo) {
    EXPECT_TRUE(areEqual(1.0f, 1.0f + FLT_EPSILON / 2));
    EXPECT_FALSE(areEqual(1.0f, 1.001f));
    EXPECT_DOUBLE_EQ(squareRootOfTwo(), 1.4142135623730951);
}

TEST(FoundationCHeaders, LocaleSetjmpSignalAndVarargs) {
    ASSERT_NE(numericLocale(), nullptr);
    EXPECT_STREQ(numericLocale(), "C");
    EXPECT_EQ(jumpBack(), 7);
    EXPECT_EQ(raiseOnce(), 1);
    EXPECT_EQ(sumOf(3, 1, 2, 39), 42);
}

TEST(FoundationCHeaders, StddefStdintStdioStdlibStringAndTime) {
    EXPECT_EQ(valueOffset(), 4u);
    EXPECT_EQ(signedSize(-3), -3);
    char text[16];
    EXPECT_EQ(format(text, sizeof text, 42), 5);
    EXPECT_STREQ(text, "42-ok");
    int values[] = {3, 1, 2};
    int* copy = copyOf(values, 3);
    sortInts(copy, 3);
    EXPECT_EQ(copy[0], 1);
    EXPECT_EQ(copy[2], 3);
    EXPECT_EQ(values[0], 3);
    free(copy);
    EXPECT_TRUE(clockRuns());
}

} // namespace
} // namespace foundation_c_headers
