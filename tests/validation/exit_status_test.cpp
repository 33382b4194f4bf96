// Tests of validation/exit_status: which values of METALCPU_SHADER_VALIDATION_EXIT_CODE are exit
// statuses. What the code does to a process is in process_level_test.cpp.
#include "validation/exit_status.h"

#include <gtest/gtest.h>

namespace metalcpu::val {
namespace {

// Test that 0 to 255 in decimal digits are taken, and that unset and empty mean 0.
TEST(ExitCodeSetting, StatusesAreTaken) {
    for (const auto& [text, code] : {std::pair{"1", 1}, {"86", 86}, {"255", 255}, {"0", 0}, {"007", 7}}) {
        const ExitCodeSetting setting = parseExitCode(text);
        EXPECT_EQ(setting.code, code) << text;
        EXPECT_FALSE(setting.invalid) << text;
    }
    EXPECT_EQ(parseExitCode(nullptr).code, 0);
    EXPECT_FALSE(parseExitCode(nullptr).invalid);
    EXPECT_FALSE(parseExitCode("").invalid);
}

// Test that anything else is invalid and means 0: words, trailing or leading characters,
// signs, hexadecimal, statuses out of range, numbers too long for an int.
TEST(ExitCodeSetting, OthersAreInvalid) {
    for (const char* text : {"yes", "86x", " 86", "+86", "-1", "0x56", "256", "1000", "99999999999999999999", "8 6"}) {
        const ExitCodeSetting setting = parseExitCode(text);
        EXPECT_TRUE(setting.invalid) << text;
        EXPECT_EQ(setting.code, 0) << text;
    }
}

} // namespace
} // namespace metalcpu::val
