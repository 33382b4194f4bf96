#pragma once

// Helpers shared by the Foundation tests.

#include "foundation/object.h"
#include "support/log.h"

#include <spdlog/sinks/ostream_sink.h>

#include <memory>
#include <sstream>
#include <string>

namespace metalcpu::ns::testing {

/// A null pointer the compiler cannot see through, as in a program that messages an
/// object which turned out to be nil at run time.
template <class T>
T* nil() {
    T* volatile pointer = nullptr;
    return pointer;
}

/// Marks a function that calls methods on nil on purpose: metal-cpp allows it, C++ calls it
/// undefined, so UBSan builds (METALCPU_SANITIZE) would stop there.
#define METALCPU_NIL_TEST_BODY __attribute__((no_sanitize("undefined")))

/// Collects what the library logs while it lives.
class LogCapture {
public:
    LogCapture() : sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(text_)) {
        support::log().sinks().push_back(sink_);
    }
    ~LogCapture() {
        auto& sinks = support::log().sinks();
        for (auto it = sinks.begin(); it != sinks.end(); ++it) {
            if (*it == sink_) {
                sinks.erase(it);
                break;
            }
        }
    }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    std::string text() const { return text_.str(); }

private:
    std::ostringstream text_;
    std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

/// A plain library object for ownership tests: it reports its destruction and can refuse
/// to leave the fallback pool.
class Probe final : public Implements<NS::Object> {
public:
    explicit Probe(bool* destroyed = nullptr) : destroyed_(destroyed) {}
    ~Probe() override {
        if (destroyed_) *destroyed_ = true;
    }
    const char* className() const override { return "Probe"; }
    bool mayDrainFromFallbackPool() const override { return mayDrain; }

    bool mayDrain = true;

private:
    bool* destroyed_;
};

} // namespace metalcpu::ns::testing
