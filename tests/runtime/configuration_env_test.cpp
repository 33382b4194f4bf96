// What the first device says about the environment metalcpu reads: a misspelt METALCPU_
// variable and a value it cannot use are each warned about once, at METALCPU_LOG_LEVEL's
// level read in any case. ctest runs this program once per environment, each time with a
// --gtest_filter for the suite written for it (CMakeLists.txt).
#include "metal_test.h"

#include <cstdlib>
#include <string>

namespace metalcpu::testing {
namespace {

/// Makes the device twice in a fresh copy of this program and expects its stderr to match
/// `said` whole: what the environment made it say, and not again for the second device.
void expectDevicesSay(const std::string& said) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            MTL::CreateSystemDefaultDevice()->release();
            MTL::CreateSystemDefaultDevice()->release();
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "^" + said + "$");
}

const std::string kMisspelt = "[metalcpu] warning: METALCPU_THRADS is not a variable metalcpu reads (did you mean "
                              "METALCPU_THREADS?); it is ignored (docs/configuration.md lists them)\n";

// METALCPU_LOG_LEVEL=WARN METALCPU_THRADS=2 METALCPU_SIMD_WIDTH=12
TEST(MisspeltVariable, WarnedOnceAtUpperCaseWarn) {
    expectDevicesSay(regexLiteral(kMisspelt) +
                     regexLiteral("[metalcpu] warning: METALCPU_SIMD_WIDTH=12 is not a power of two from 4 to 64; "
                                  "using 32\n"));
}

// METALCPU_LOG_LEVEL=loud METALCPU_THREADS=many
TEST(UnusableValues, WarnedOnceAtTheDefaultLevel) {
    expectDevicesSay(
        regexLiteral("[metalcpu] warning: METALCPU_THREADS=many is not a whole number; using 0\n") +
        regexLiteral("[metalcpu] warning: METALCPU_LOG_LEVEL=loud is not a log level (trace, debug, info, warn, "
                     "error, critical, off); using warn\n"));
}

// METALCPU_LOG_LEVEL=Error METALCPU_THRADS=2: a level above warnings, in another case.
TEST(QuietLevel, WarnsNothing) {
    expectDevicesSay("");
}

// METALCPU_LOG_LEVEL=warning METALCPU_THREADS=2 METALCPU_SIMD_WIDTH=16: nothing to say.
TEST(CleanEnvironment, WarnsNothing) {
    expectDevicesSay("");
}

} // namespace
} // namespace metalcpu::testing
