// The os_log message store and formatter: printf's conversions from packed arguments, with a
// format and arguments that come from kernel code and so are not trusted.
#include "exec/shader_log.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <thread>
#include <vector>

namespace metalcpu::exec {
namespace {

mc_log_argument signedArg(long long v) { return {MC_LOG_SIGNED, static_cast<mc_u64>(v)}; }
mc_log_argument unsignedArg(unsigned long long v) { return {MC_LOG_UNSIGNED, v}; }
mc_log_argument floatArg(double v) { return {MC_LOG_FLOAT, std::bit_cast<mc_u64>(v)}; }
mc_log_argument stringArg(const char* s) { return {MC_LOG_STRING, reinterpret_cast<mc_u64>(s)}; }

std::string format(const char* f, std::vector<mc_log_argument> args) {
    return formatShaderLogMessage(f, args.data(), static_cast<std::uint32_t>(args.size()));
}

// Test that each conversion prints as printf prints it.
TEST(ShaderLogFormat, ConversionsAsPrintf) {
    EXPECT_EQ(format("%d %i %u %x %X %o", {signedArg(-7), signedArg(3), unsignedArg(4000000000u), unsignedArg(255),
                                           unsignedArg(255), unsignedArg(8)}),
              "-7 3 4000000000 ff FF 10");
    EXPECT_EQ(format("%5.2f|%-4d|%04u|%e|%g", {floatArg(3.14159), signedArg(7), unsignedArg(42), floatArg(1.5),
                                               floatArg(0.25)}),
              " 3.14|7   |0042|1.500000e+00|0.25");
    EXPECT_EQ(format("%s=%c 100%%", {stringArg("x"), unsignedArg('y')}), "x=y 100%");
    EXPECT_EQ(format("%lu %hhd %lld", {unsignedArg(5), signedArg(6), signedArg(-8)}), "5 6 -8");
    EXPECT_EQ(format("%*d|%.*f", {signedArg(4), signedArg(1), signedArg(2), floatArg(1.0)}), "   1|1.00");
    EXPECT_EQ(format("plain text", {}), "plain text");
}

// Test that a format the arguments do not match prints something harmless, never crashes.
TEST(ShaderLogFormat, UntrustedFormatsAreHarmless) {
    EXPECT_EQ(format("%d and %s", {signedArg(1)}), "1 and <missing>");
    EXPECT_EQ(format("%n%q", {signedArg(1)}), "%n%q");
    EXPECT_EQ(format("%s", {signedArg(1)}), "<not a string>");
    EXPECT_EQ(format("%d", {floatArg(2.75)}), "2");
    EXPECT_EQ(format("%f", {signedArg(-2)}), "-2.000000");
    EXPECT_EQ(format("trailing %", {}), "trailing %");
    EXPECT_EQ(format("%99999999d", {signedArg(1)}).size(), 999u); // width capped
    const std::string padded = format("%*d", {signedArg(1 << 30), signedArg(1)});
    EXPECT_EQ(padded.size(), 1000u);
}

// Test that the store keeps messages at or above its level, drops what does not fit, and
// takes messages from many threads at once without losing any.
TEST(ShaderLogStore, LevelsCapacityAndThreads) {
    ShaderLog log(/*minimumLevel=*/2, /*capacity=*/30);
    log.record(1, "s", "c", "dropped by level", nullptr, 0);
    log.record(2, "s", "c", "0123456789", nullptr, 0); // 12 bytes
    log.record(4, "s", "c", "0123456789", nullptr, 0); // 24 bytes
    log.record(4, "s", "c", "0123456789", nullptr, 0); // would be 36: dropped
    log.record(4, "", "", "abcdef", nullptr, 0);        // 30: fits exactly
    std::vector<ShaderLogMessage> messages = log.take();
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[0].level, 2u);
    EXPECT_EQ(messages[2].text, "abcdef");
    EXPECT_EQ(log.dropped(), 1u);

    ShaderLog shared(1, 1 << 20);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&shared, t] {
            for (int i = 0; i < 250; ++i) {
                const mc_log_argument args[2] = {signedArg(t), signedArg(i)};
                shared.record(3, "s", "c", "%d:%d", args, 2);
            }
        });
    for (std::thread& thread : threads) thread.join();
    messages = shared.take();
    ASSERT_EQ(messages.size(), 1000u);
    int next[4] = {};
    for (const ShaderLogMessage& m : messages) {
        const int t = m.text[0] - '0';
        EXPECT_EQ(m.text, std::to_string(t) + ":" + std::to_string(next[t]++)) << "order within a thread";
    }
}

} // namespace
} // namespace metalcpu::exec
