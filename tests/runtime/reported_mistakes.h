#pragma once

// The fixture of tests of API misuse that the debug layer reports: the layer on in-process
// (NSLog mode) with its reports kept, and one library compiled from `*Source` per test.

#include "metal_test.h"

#include "runtime/debug_layer.h"

#include <string>
#include <vector>

namespace metalcpu::testing {

template <const char* const* Source>
class ReportedMistakes : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog,
                                      [this](const std::string& r) { reports_.push_back(r); });
        library_ = compile(*Source);
        ASSERT_NE(library_, nullptr);
    }
    void TearDown() override {
        rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
        if (library_) library_->release();
        MetalTest::TearDown();
    }
    /// Whether a report so far holds `words`.
    bool reported(const std::string& words) const {
        for (const std::string& r : reports_)
            if (r.find(words) != std::string::npos) return true;
        return false;
    }
    /// The reports so far, for a failed expectation's message.
    std::string reports() const { return ::testing::PrintToString(reports_); }

    MTL::Library* library_ = nullptr;
    std::vector<std::string> reports_;
};

} // namespace metalcpu::testing
