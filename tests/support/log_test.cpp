#include "support/log.h"

#include <gtest/gtest.h>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace metalcpu::support {
namespace {

// Test that a host program's own spdlog logger named "metalcpu" does not make the library's
// log throw (spdlog refuses to register a name twice). ctest runs each test in a process of
// its own, so this is the first use of log() here.
TEST(Log, CoexistsWithTheHostsLoggerOfTheSameName) {
    auto hosts = spdlog::stderr_color_mt("metalcpu");
    EXPECT_NO_THROW(log().debug("logged beside the host's logger"));
    EXPECT_EQ(log().name(), "metalcpu");
    EXPECT_NE(&log(), hosts.get());
    spdlog::drop("metalcpu");
}

} // namespace
} // namespace metalcpu::support
