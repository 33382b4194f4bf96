// GoogleTest and GoogleMock helpers over shader-validation reports (<metalcpu/Validation.hpp>).
// Header-only; include it from tests that link GTest::gmock.
//
// The simplest way: link the suite with metalcpu::gtest_main (or append a ValidationListener
// in your own main) and run it with MTL_SHADER_VALIDATION=1. Every report nobody expected
// fails the test that was running, at the kernel's .metal line:
//
//   TEST(MyKernels, StaysInBounds) {
//       runMyKernel(); // dispatch and commit; the listener waits for it when the test ends
//   }
//
// A test that expects reports takes them with a collector (the listener leaves them alone):
//
//   TEST(MyKernels, CatchesTheOffByOne) {
//       metalcpu::testing::ValidationReportCollector reports;
//       runBuggyKernel();
//       EXPECT_THAT(reports.take(), ::testing::ElementsAre(metalcpu::testing::InvalidStore(
//                                       "sum_sincos", 1 /* [[buffer(1)]] */)));
//   }
//
// FailOnValidationReports is the same check scoped to a block, without the listener:
//
//   EXPECT_NONFATAL_FAILURE({ FailOnValidationReports guard; runBuggyKernel(); }, "Invalid device store");
//
// The pipeline must be validated: MTL_SHADER_VALIDATION=1 in the environment, or a
// MTL::ComputePipelineDescriptor with setShaderValidation(MTL::ShaderValidationEnabled). When a
// test ran kernels and none was validated, the listener and the guard say so once.
// docs/testing.md has a CI recipe, docs/validation.md the details.
#pragma once

#include <metalcpu/Validation.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::validation {
/// Lets GoogleTest print reports and their fields in failure messages.
inline void PrintTo(const ShaderValidationReport& report, std::ostream* out) { *out << "\n" << report.text(); }
inline void PrintTo(ReportKind kind, std::ostream* out) { *out << name(kind); }
inline void PrintTo(AddressSpace space, std::ostream* out) { *out << name(space); }
inline void PrintTo(Access access, std::ostream* out) { *out << name(access); }
inline void PrintTo(const Position& p, std::ostream* out) { *out << "(" << p.x << ", " << p.y << ", " << p.z << ")"; }
} // namespace metalcpu::validation

namespace metalcpu::testing {

namespace detail {

/// A sink that keeps the reports it receives, from any thread, until they are taken.
class ReportBuffer : public validation::ReportSink {
public:
    void report(const validation::ShaderValidationReport& report) override {
        std::lock_guard<std::mutex> lock(mutex_);
        reports_.push_back(report);
    }

protected:
    std::vector<validation::ShaderValidationReport> takeAll() {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::exchange(reports_, {});
    }

private:
    std::mutex mutex_;
    std::vector<validation::ShaderValidationReport> reports_;
};

/// Fails the current test (or suite, or program, outside a test) on the calling thread, at the
/// kernel source line of the report — `fallbackFile`:`fallbackLine` when it names none — with
/// Apple's report text. `context` says when it happened, if that is not during the test.
inline void failOnReport(const validation::ShaderValidationReport& report, const char* fallbackFile,
                         int fallbackLine, const char* context = "") {
    const bool located = report.location.line != 0 && !report.location.file.empty();
    const char* file = located ? report.location.file.c_str() : fallbackFile;
    const int line = located ? static_cast<int>(report.location.line) : fallbackLine;
    ADD_FAILURE_AT(file, line) << "shader validation reported an invalid access" << context
                               << (located ? "" : " (the report names no source line)") << ":\n"
                               << report.text();
}

/// Once per process: says that `who` ran kernels since `before` and none of them was
/// validated, so nothing it ran was checked. Not a failure: a suite may run plain pipelines
/// on purpose.
inline void noteIfNothingWasValidated(const validation::DispatchCounts& before, const std::string& who) {
    const validation::DispatchCounts now = validation::dispatchCounts();
    if (now.total == before.total || now.validated != before.validated) return;
    static std::atomic<bool> noted{false};
    if (noted.exchange(true)) return;
    std::printf("[   NOTE   ] %s ran %llu kernel dispatch(es) and none had shader validation, so invalid "
                "memory accesses were not checked. Run with MTL_SHADER_VALIDATION=1 (metalcpu "
                "docs/testing.md).\n",
                who.c_str(), static_cast<unsigned long long>(now.total - before.total));
    std::fflush(stdout);
}

/// The current test's "Suite.Name", or `fallback` outside a test.
inline std::string currentTestName(const char* fallback) {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    return test ? std::string(test->test_suite_name()) + "." + test->name() : fallback;
}

/// Waits for the process's pending work, bounded (validation::waitForPendingWorkOrGiveUp);
/// when it gave up, fails the current test at its declaration, saying why.
inline void waitForPendingWork(const std::string& who) {
    const std::string gaveUp = validation::waitForPendingWorkOrGiveUp(who);
    if (gaveUp.empty()) return;
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    ADD_FAILURE_AT(test ? test->file() : nullptr, test ? test->line() : -1) << who << " " << gaveUp;
}

} // namespace detail

/// Collects every report delivered while it lives. Reports it collects are expected: the
/// ValidationListener does not fail the test on them. Waits for the process's pending work
/// when it is made, before take() and when it goes out of scope, so the reports of every
/// dispatch committed while it lives are its own, waited for or not, and those of dispatches
/// committed before it are not. The waits are bounded: after
/// METALCPU_SHADER_VALIDATION_WAIT_LIMIT seconds they fail the test and go on.
class ValidationReportCollector : public detail::ReportBuffer {
public:
    ValidationReportCollector() {
        detail::waitForPendingWork("ValidationReportCollector in " + detail::currentTestName("no test"));
        validation::addReportSink(this, validation::SinkRole::Owner);
    }
    ~ValidationReportCollector() override {
        detail::waitForPendingWork("ValidationReportCollector in " + detail::currentTestName("no test"));
        validation::removeReportSink(this);
    }
    ValidationReportCollector(const ValidationReportCollector&) = delete;
    ValidationReportCollector& operator=(const ValidationReportCollector&) = delete;

    /// The reports so far (after the command buffers committed until now completed), and
    /// forgets them.
    std::vector<validation::ShaderValidationReport> take() {
        detail::waitForPendingWork("ValidationReportCollector in " + detail::currentTestName("no test"));
        return takeAll();
    }
};

/// Fails the current test, on the thread that destroys it (the test's), at the kernel's line,
/// for every report delivered while it lives — so EXPECT_NONFATAL_FAILURE sees the failures.
/// It waits for the process's pending work when it is made (what was committed before is not
/// its business) and before it checks, bounded as the collector's waits. Says once per process
/// when the dispatches run during its life had no shader validation.
class FailOnValidationReports : public detail::ReportBuffer {
public:
    FailOnValidationReports() {
        detail::waitForPendingWork("FailOnValidationReports in " + detail::currentTestName("no test"));
        before_ = validation::dispatchCounts();
        validation::addReportSink(this, validation::SinkRole::Owner);
    }
    ~FailOnValidationReports() override {
        detail::waitForPendingWork("FailOnValidationReports in " + detail::currentTestName("no test"));
        validation::removeReportSink(this);
        const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
        for (const validation::ShaderValidationReport& report : takeAll())
            detail::failOnReport(report, test ? test->file() : nullptr, test ? test->line() : -1);
        detail::noteIfNothingWasValidated(before_, detail::currentTestName("FailOnValidationReports"));
    }
    FailOnValidationReports(const FailOnValidationReports&) = delete;
    FailOnValidationReports& operator=(const FailOnValidationReports&) = delete;

private:
    validation::DispatchCounts before_;
};

/// Fails the running test on every report nobody expected (no ValidationReportCollector or
/// FailOnValidationReports took it), whichever thread it arrived on, at the kernel's .metal
/// line and on the test's own thread. When a test ends, the command buffers it committed are
/// waited for, so an unwaited dispatch's reports fail the test that made it, not the next one;
/// the wait is bounded (validation::waitForPendingWorkOrGiveUp): a test whose command buffers
/// do not complete in METALCPU_SHADER_VALIDATION_WAIT_LIMIT seconds fails, and the suite goes
/// on. Reports made outside any test (SetUpTestSuite, environments) fail the suite or the
/// program.
/// metalcpu::gtest_main installs it; a suite with its own main() appends it after
/// InitGoogleTest()/InitGoogleMock():
///
///   ::testing::UnitTest::GetInstance()->listeners().Append(new metalcpu::testing::ValidationListener);
///
/// Appended after GoogleTest's printer, it hears OnTestEnd first (GoogleTest calls OnTestEnd in
/// reverse order), while the test is still the current one: its failures count for the test
/// and the printer shows them, and the test's [  FAILED  ] line, after them.
class ValidationListener : public ::testing::EmptyTestEventListener {
public:
    ValidationListener() { validation::addReportSink(&reports_, validation::SinkRole::Fallback); }
    ~ValidationListener() override { validation::removeReportSink(&reports_); }
    ValidationListener(const ValidationListener&) = delete;
    ValidationListener& operator=(const ValidationListener&) = delete;

    void OnEnvironmentsSetUpEnd(const ::testing::UnitTest&) override { failOutsideTests(); }
    void OnTestStart(const ::testing::TestInfo&) override {
        // What arrived before the test (SetUpTestSuite's dispatches) is not the test's.
        settle();
        before_ = validation::dispatchCounts();
    }
    void OnTestEnd(const ::testing::TestInfo& test) override {
        const std::string gaveUp =
            validation::waitForPendingWorkOrGiveUp(std::string(test.test_suite_name()) + "." + test.name());
        if (!gaveUp.empty()) ADD_FAILURE_AT(test.file(), test.line()) << "the listener " << gaveUp;
        for (const validation::ShaderValidationReport& report : reports_.takeAll())
            detail::failOnReport(report, test.file(), test.line());
        detail::noteIfNothingWasValidated(before_, std::string(test.test_suite_name()) + "." + test.name());
    }
    void OnTestSuiteEnd(const ::testing::TestSuite&) override { failOutsideTests(); }
    void OnEnvironmentsTearDownEnd(const ::testing::UnitTest&) override { failOutsideTests(); }

private:
    struct Sink : detail::ReportBuffer {
        using ReportBuffer::takeAll;
    };

    /// Waits for pending work and sets aside what arrived outside a test.
    void settle() {
        const std::string gaveUp = validation::waitForPendingWorkOrGiveUp("ValidationListener, between tests,");
        if (!gaveUp.empty()) outsideGaveUp_.push_back(gaveUp);
        for (validation::ShaderValidationReport& report : reports_.takeAll()) outside_.push_back(std::move(report));
    }
    /// Fails the suite (in OnTestSuiteEnd) or the program on what arrived outside a test.
    void failOutsideTests() {
        static constexpr const char* kOutside =
            " while no test was running (SetUpTestSuite, TearDownTestSuite or an environment)";
        settle();
        for (const std::string& gaveUp : std::exchange(outsideGaveUp_, {}))
            ADD_FAILURE_AT(nullptr, -1) << "command buffers committed" << kOutside << ": " << gaveUp;
        for (const validation::ShaderValidationReport& report : std::exchange(outside_, {}))
            detail::failOnReport(report, nullptr, -1, kOutside);
    }

    Sink reports_;
    // Touched on the main thread only.
    std::vector<validation::ShaderValidationReport> outside_;
    std::vector<std::string> outsideGaveUp_;
    validation::DispatchCounts before_;
};

// ---- Matchers -------------------------------------------------------------------------------
// Each matches one field of a ShaderValidationReport (or a few, for InvalidStore and
// InvalidLoad) and, when it does not match, says which field differed and its value. Those
// taking a value also take a matcher: InKernel(::testing::StartsWith("mat_mul")),
// WithCount(::testing::Ge(2u)).

namespace detail {

/// Matches `actual` (the report's `field`) against `expected`, a value or a matcher, and
/// explains with the field's name and actual value.
template <class T, class Expected>
bool fieldMatches(const char* field, const T& actual, const Expected& expected, ::testing::MatchResultListener* listener) {
    ::testing::StringMatchResultListener inner;
    const bool matched = ::testing::MatcherCast<const T&>(expected).MatchAndExplain(actual, &inner);
    *listener << "whose " << field << " is " << ::testing::PrintToString(actual);
    if (!inner.str().empty()) *listener << " (" << inner.str() << ")";
    return matched;
}

/// "[[buffer(1)]]", "[[threadgroup(0)]]", or the reasons a report has no binding.
inline std::string bindingText(const validation::ShaderValidationReport& report) {
    if (report.bindingIndex < 0)
        return "no binding (a threadgroup variable of the kernel, a program-scope constant or an address read from "
               "memory)";
    return std::string("[[") + (report.addressSpace == validation::AddressSpace::Threadgroup ? "threadgroup" : "buffer") +
           "(" + std::to_string(report.bindingIndex) + ")]]";
}

inline bool bindingMatches(const validation::ShaderValidationReport& report, bool threadgroup, int index,
                           ::testing::MatchResultListener* listener) {
    *listener << "whose binding is " << bindingText(report);
    return report.bindingIndex == index && (report.addressSpace == validation::AddressSpace::Threadgroup) == threadgroup;
}

/// InvalidStore and InvalidLoad: the access, the kernel, then the binding index unless it is
/// negative; explains the first field that differs.
template <class Kernel>
bool invalidAccess(const validation::ShaderValidationReport& report, validation::Access access, const Kernel& kernel,
                   int bindingIndex, ::testing::MatchResultListener* listener) {
    ::testing::StringMatchResultListener accessWhy, kernelWhy, bindingWhy;
    bool matched = true;
    if (!fieldMatches("access", report.access, access, &accessWhy)) {
        *listener << accessWhy.str();
        matched = false;
    } else if (!fieldMatches("kernel", report.kernel, kernel, &kernelWhy)) {
        *listener << kernelWhy.str();
        matched = false;
    } else if (bindingIndex >= 0 && !fieldMatches("bindingIndex", report.bindingIndex,
                                                  static_cast<std::int32_t>(bindingIndex), &bindingWhy)) {
        *listener << bindingWhy.str();
        matched = false;
    }
    return matched;
}

inline std::string invalidAccessText(bool negation, const char* access, const std::string& kernel, int bindingIndex) {
    return std::string(negation ? "is not" : "is") + " an invalid " + access + " in " + kernel +
           (bindingIndex < 0 ? "" : " through binding index " + std::to_string(bindingIndex));
}

MATCHER_P(AtThreadPositionInGrid, position,
          std::string(negation ? "is not" : "is") + " made by the thread at " + ::testing::PrintToString(position) +
              " in the grid") {
    return fieldMatches("threadPositionInGrid", arg.threadPositionInGrid, position, result_listener);
}

MATCHER_P(InThreadgroupAt, position,
          std::string(negation ? "is not" : "is") + " made in the threadgroup at " + ::testing::PrintToString(position) +
              " in the grid") {
    return fieldMatches("threadgroupPositionInGrid", arg.threadgroupPositionInGrid, position, result_listener);
}

} // namespace detail

/// An invalid store in `kernel` through binding `bindingIndex` ([[buffer(n)]] or
/// [[threadgroup(n)]]; any binding, or none, when negative).
MATCHER_P2(InvalidStore, kernel, bindingIndex,
           detail::invalidAccessText(negation, "store", ::testing::PrintToString(kernel), bindingIndex)) {
    return detail::invalidAccess(arg, validation::Access::Store, kernel, bindingIndex, result_listener);
}

/// An invalid load in `kernel` through binding `bindingIndex` (any, or none, when negative).
MATCHER_P2(InvalidLoad, kernel, bindingIndex,
           detail::invalidAccessText(negation, "load", ::testing::PrintToString(kernel), bindingIndex)) {
    return detail::invalidAccess(arg, validation::Access::Load, kernel, bindingIndex, result_listener);
}

/// The access is in this kernel (its host name; a string or a string matcher).
MATCHER_P(InKernel, kernel,
          std::string(negation ? "is not" : "is") + " a report whose kernel " +
              ::testing::DescribeMatcher<const std::string&>(kernel)) {
    return detail::fieldMatches("kernel", arg.kernel, kernel, result_listener);
}

/// The pointer came from this kernel parameter (a string or a string matcher).
MATCHER_P(ThroughArgument, argumentName,
          std::string(negation ? "is not" : "is") + " a report whose argument " +
              ::testing::DescribeMatcher<const std::string&>(argumentName)) {
    return detail::fieldMatches("argumentName", arg.argumentName, argumentName, result_listener);
}

/// The pointer came from the [[buffer(index)]] argument.
MATCHER_P(ThroughBuffer, index,
          std::string(negation ? "is not" : "is") + " made through [[buffer(" + std::to_string(index) + ")]]") {
    return detail::bindingMatches(arg, false, static_cast<int>(index), result_listener);
}

/// The pointer came from the [[threadgroup(index)]] argument.
MATCHER_P(ThroughThreadgroupArgument, index,
          std::string(negation ? "is not" : "is") + " made through [[threadgroup(" + std::to_string(index) + ")]]") {
    return detail::bindingMatches(arg, true, static_cast<int>(index), result_listener);
}

/// The pointer came from no binding: a `threadgroup` variable declared in the kernel (its
/// threadgroup reports have no binding index), a program-scope constant, or an address read
/// from memory.
MATCHER(WithoutBinding, std::string(negation ? "is" : "is not") + " made through a binding") {
    *result_listener << "whose binding is " << detail::bindingText(arg);
    return arg.bindingIndex < 0;
}

/// Made by the thread at (x, y, z) of the grid ([[thread_position_in_grid]]).
inline auto AtThread(std::uint32_t x, std::uint32_t y = 0, std::uint32_t z = 0) {
    return detail::AtThreadPositionInGrid(validation::Position{x, y, z});
}

/// Made by a thread of the threadgroup at (x, y, z) of the grid ([[threadgroup_position_in_grid]]).
inline auto InThreadgroup(std::uint32_t x, std::uint32_t y = 0, std::uint32_t z = 0) {
    return detail::InThreadgroupAt(validation::Position{x, y, z});
}

/// The site made this many such accesses in its dispatch (a number or a matcher).
MATCHER_P(WithCount, count,
          std::string(negation ? "is not" : "is") + " a report whose count " +
              ::testing::DescribeMatcher<const std::uint64_t&>(count)) {
    return detail::fieldMatches("count", arg.count, count, result_listener);
}

/// The access is at `line` of the kernel source.
MATCHER_P(AtLine, line, std::string(negation ? "is not" : "is") + " at line " + ::testing::PrintToString(line)) {
    return detail::fieldMatches("line", arg.location.line, static_cast<std::uint32_t>(line), result_listener);
}

/// The access is `offset` bytes into its buffer.
MATCHER_P(AtOffset, offset, std::string(negation ? "is not" : "is") + " at offset " + ::testing::PrintToString(offset)) {
    return detail::fieldMatches("offset", arg.offset, static_cast<std::uint64_t>(offset), result_listener);
}

/// The report is about this address space (validation::AddressSpace::Device, Constant or
/// Threadgroup).
MATCHER_P(InAddressSpace, space,
          std::string(negation ? "is not" : "is") + " in the " +
              validation::name(static_cast<validation::AddressSpace>(space)) + " address space") {
    return detail::fieldMatches("addressSpace", arg.addressSpace, static_cast<validation::AddressSpace>(space),
                                result_listener);
}

/// The report's kind (validation::ReportKind::OutOfBounds, NullBuffer, WildPointer).
MATCHER_P(OfKind, kind,
          std::string(negation ? "is not" : "is") + " a " + validation::name(static_cast<validation::ReportKind>(kind)) +
              " report") {
    return detail::fieldMatches("kind", arg.kind, static_cast<validation::ReportKind>(kind), result_listener);
}

} // namespace metalcpu::testing
