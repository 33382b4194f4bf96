#pragma once

// What the library logs during a test, for tests that check a message is (or is not) given.

#include "support/log.h"

#include <spdlog/sinks/base_sink.h>

#include <memory>
#include <mutex>
#include <string>

namespace metalcpu::testing {

/// Collects what the library logs while it lives, one line per message in spdlog's default
/// pattern ("[time] [metalcpu] [warning] text"). Safe to read while other threads log.
class LogCapture {
public:
    // Through support::addLogSink(): the logger's own list of sinks may not change while
    // another thread (a worker, a compile) logs.
    LogCapture() : sink_(std::make_shared<Sink>()) { support::addLogSink(sink_); }
    ~LogCapture() { support::removeLogSink(sink_); }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::string text() const { return sink_->text(); }

    /// How many messages contain `part`.
    std::size_t count(const std::string& part) const {
        const std::string all = text();
        std::size_t found = 0;
        for (std::size_t at = all.find(part); at != std::string::npos; at = all.find(part, at + part.size())) ++found;
        return found;
    }

private:
    /// Reads under the mutex spdlog holds while a thread logs into it.
    class Sink : public spdlog::sinks::base_sink<std::mutex> {
    public:
        std::string text() {
            std::lock_guard lock(mutex_);
            return text_;
        }

    protected:
        void sink_it_(const spdlog::details::log_msg& message) override {
            spdlog::memory_buf_t formatted;
            formatter_->format(message, formatted);
            text_.append(formatted.data(), formatted.size());
        }
        void flush_() override {}

    private:
        std::string text_;
    };
    std::shared_ptr<Sink> sink_;
};

/// Sets the library's log to `level` while it lives (messages below the logger's level reach
/// no sink, a capture's neither), then back to what it was.
class ScopedLogLevel {
public:
    explicit ScopedLogLevel(spdlog::level::level_enum level) : previous_(support::log().level()) {
        support::log().set_level(level);
    }
    ~ScopedLogLevel() { support::log().set_level(previous_); }
    ScopedLogLevel(const ScopedLogLevel&) = delete;
    ScopedLogLevel& operator=(const ScopedLogLevel&) = delete;

private:
    spdlog::level::level_enum previous_;
};

} // namespace metalcpu::testing
