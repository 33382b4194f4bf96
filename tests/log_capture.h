#pragma once

// What the library logs during a test, for tests that check a message is (or is not) given.

#include "support/log.h"

#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

namespace metalcpu::testing {

/// Collects what the library logs while it lives, one line per message in spdlog's default
/// pattern ("[time] [metalcpu] [warning] text").
class LogCapture {
public:
    LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
        support::log().sinks().push_back(sink_);
    }
    ~LogCapture() {
        auto& sinks = support::log().sinks();
        sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::string text() const { return text_.str(); }

    /// How many messages contain `part`.
    std::size_t count(const std::string& part) const {
        const std::string all = text();
        std::size_t found = 0;
        for (std::size_t at = all.find(part); at != std::string::npos; at = all.find(part, at + part.size())) ++found;
        return found;
    }

private:
    std::ostringstream text_;
    std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

} // namespace metalcpu::testing
