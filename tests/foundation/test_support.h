#pragma once

// Helpers shared by the Foundation tests.

#include "foundation/object.h"
#include "log_capture.h"

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

using metalcpu::testing::LogCapture;

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
