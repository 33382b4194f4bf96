// GoogleTest and GoogleMock helpers over shader-validation reports (<metalcpu/Validation.hpp>).
// Header-only; include it from tests that link GTest::gmock.
//
//   TEST(MyKernels, StaysInBounds) {
//       metalcpu::testing::FailOnValidationReports guard; // fails the test on any report
//       runMyKernel();                                     // dispatch, commit, wait
//   }
//
//   TEST(MyKernels, CatchesTheOffByOne) {
//       metalcpu::testing::ValidationReportCollector reports;
//       runBuggyKernel();
//       EXPECT_THAT(reports.take(), ::testing::ElementsAre(metalcpu::testing::InvalidStore(
//                                       "sum_sincos", 1 /* [[buffer(1)]] */)));
//   }
//
// The pipeline must be validated: MTL_SHADER_VALIDATION=1 in the environment, or a
// MTL::ComputePipelineDescriptor with setShaderValidation(MTL::ShaderValidationEnabled).
// Reports arrive when a dispatch finishes, so wait for the command buffer before the guard
// or collector goes out of scope. docs/validation.md has the details.
#pragma once

#include <metalcpu/Validation.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::testing {

/// Collects every report delivered while it lives.
class ValidationReportCollector : public validation::ReportSink {
public:
    ValidationReportCollector() { validation::addReportSink(this); }
    ~ValidationReportCollector() override { validation::removeReportSink(this); }
    ValidationReportCollector(const ValidationReportCollector&) = delete;
    ValidationReportCollector& operator=(const ValidationReportCollector&) = delete;

    void report(const validation::ShaderValidationReport& report) override {
        std::lock_guard<std::mutex> lock(mutex_);
        reports_.push_back(report);
    }
    /// The reports so far, and forgets them.
    std::vector<validation::ShaderValidationReport> take() {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::exchange(reports_, {});
    }

private:
    std::mutex mutex_;
    std::vector<validation::ShaderValidationReport> reports_;
};

/// Fails the current test, with the report's text, for every report delivered while it lives.
class FailOnValidationReports : public validation::ReportSink {
public:
    FailOnValidationReports() { validation::addReportSink(this); }
    ~FailOnValidationReports() override { validation::removeReportSink(this); }
    FailOnValidationReports(const FailOnValidationReports&) = delete;
    FailOnValidationReports& operator=(const FailOnValidationReports&) = delete;

    void report(const validation::ShaderValidationReport& report) override {
        ADD_FAILURE() << "shader validation reported an invalid access:\n" << report.text();
    }
};

// ---- Matchers -------------------------------------------------------------------------------

/// An invalid store in `kernel` through [[buffer(bindingIndex)]] (any index when negative).
MATCHER_P2(InvalidStore, kernel, bindingIndex, "is an invalid store in " + ::testing::PrintToString(kernel)) {
    return arg.access == validation::Access::Store && arg.kernel == kernel &&
           (bindingIndex < 0 || arg.bindingIndex == bindingIndex);
}

/// An invalid load in `kernel` through [[buffer(bindingIndex)]] (any index when negative).
MATCHER_P2(InvalidLoad, kernel, bindingIndex, "is an invalid load in " + ::testing::PrintToString(kernel)) {
    return arg.access == validation::Access::Load && arg.kernel == kernel &&
           (bindingIndex < 0 || arg.bindingIndex == bindingIndex);
}

/// The access is at `line` of the kernel source.
MATCHER_P(AtLine, line, "is at line " + ::testing::PrintToString(line)) { return arg.location.line == unsigned(line); }

/// The access is `offset` bytes into its buffer.
MATCHER_P(AtOffset, offset, "is at offset " + ::testing::PrintToString(offset)) {
    return arg.offset == std::uint64_t(offset);
}

/// The report is about this address space (validation::AddressSpace::Device, Constant or
/// Threadgroup).
MATCHER_P(InAddressSpace, space,
          std::string(negation ? "is not" : "is") + " in the " +
              validation::name(static_cast<validation::AddressSpace>(space)) + " address space") {
    return arg.addressSpace == space;
}

/// The report's kind (validation::ReportKind::OutOfBounds, NullBuffer, WildPointer).
MATCHER_P(OfKind, kind,
          std::string(negation ? "is not" : "is") + " a " + validation::name(static_cast<validation::ReportKind>(kind)) +
              " report") {
    return arg.kind == kind;
}

} // namespace metalcpu::testing

namespace metalcpu::validation {
/// Lets GoogleTest print reports and their fields in failure messages.
inline void PrintTo(const ShaderValidationReport& report, std::ostream* out) { *out << "\n" << report.text(); }
inline void PrintTo(ReportKind kind, std::ostream* out) { *out << name(kind); }
inline void PrintTo(AddressSpace space, std::ostream* out) { *out << name(space); }
inline void PrintTo(Access access, std::ostream* out) { *out << name(access); }
} // namespace metalcpu::validation
