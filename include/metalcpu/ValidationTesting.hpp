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
// Their waits for pending work are bounded (METALCPU_SHADER_VALIDATION_WAIT_LIMIT); with
// --gtest_throw_on_failure their failures are recorded, never thrown out of a listener or a
// destructor. docs/testing.md has a CI recipe, docs/validation.md the details.
#pragma once

#include <metalcpu/Validation.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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

/// Fails the current test (or suite, or program, outside a test) on the calling thread, at
/// `file`:`line`, with `message`. With --gtest_throw_on_failure GoogleTest throws once it has
/// recorded the failure; thrown out of a listener's event or a destructor that would end the
/// program (or skip the other reports and the printer), so the helpers keep the recorded
/// failure and drop the exception.
inline void addFailureAt(const char* file, int line, const std::string& message) {
#if GTEST_HAS_EXCEPTIONS
    try {
        ADD_FAILURE_AT(file, line) << message;
    } catch (const ::testing::internal::GoogleTestFailureException&) {
    }
#else
    ADD_FAILURE_AT(file, line) << message;
#endif
}

/// Fails the current test (or suite, or program, outside a test) on the calling thread, at the
/// kernel source line of the report — `fallbackFile`:`fallbackLine` when it names none — with
/// Apple's report text. `context` says when it happened, if that is not during the test.
inline void failOnReport(const validation::ShaderValidationReport& report, const char* fallbackFile,
                         int fallbackLine, const char* context = "") {
    const bool located = report.location.line != 0 && !report.location.file.empty();
    const char* file = located ? report.location.file.c_str() : fallbackFile;
    const int line = located ? static_cast<int>(report.location.line) : fallbackLine;
    addFailureAt(file, line,
                 std::string("shader validation reported an invalid access") + context +
                     (located ? "" : " (the report names no source line)") + ":\n" + report.text());
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
                "memory accesses were not checked. %s (metalcpu docs/testing.md).\n",
                who.c_str(), static_cast<unsigned long long>(now.total - before.total),
                validation::whyDispatchesWereNotValidated().c_str());
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
    addFailureAt(test ? test->file() : nullptr, test ? test->line() : -1, who + " " + gaveUp);
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
        committedBefore_ = validation::commandBuffersCommitted();
        apiReportsBefore_ = validation::apiValidationReportCount();
    }
    void OnTestEnd(const ::testing::TestInfo& test) override {
        const std::string gaveUp =
            validation::waitForPendingWorkOrGiveUp(std::string(test.test_suite_name()) + "." + test.name());
        if (!gaveUp.empty()) detail::addFailureAt(test.file(), test.line(), "the listener " + gaveUp);
        for (const validation::ShaderValidationReport& report : reports_.takeAll())
            // A report of work committed before the test (that an earlier wait gave up on, or
            // a thread committed late) is charged to it all the same, saying so.
            detail::failOnReport(report, test.file(), test.line(),
                                 report.commandBufferIndex != 0 && report.commandBufferIndex <= committedBefore_
                                     ? " (its command buffer was committed before this test started)"
                                     : "");
        for (const std::string& report : takeApiReports())
            detail::addFailureAt(test.file(), test.line(), kApiReport + report);
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
        for (std::string& report : takeApiReports()) outsideApi_.push_back(std::move(report));
    }
    /// The debug layer's reports since the last call. In nslog mode the call a report names
    /// was dropped, so shader validation never saw the kernel run: without this the test
    /// would pass.
    std::vector<std::string> takeApiReports() {
        return validation::apiValidationReportsSince(apiReportsBefore_, &apiReportsBefore_);
    }
    /// Fails the suite (in OnTestSuiteEnd) or the program on what arrived outside a test.
    void failOutsideTests() {
        static constexpr const char* kOutside =
            " while no test was running (SetUpTestSuite, TearDownTestSuite or an environment)";
        settle();
        for (const std::string& gaveUp : std::exchange(outsideGaveUp_, {}))
            detail::addFailureAt(nullptr, -1, std::string("command buffers committed") + kOutside + ": " + gaveUp);
        for (const validation::ShaderValidationReport& report : std::exchange(outside_, {}))
            detail::failOnReport(report, nullptr, -1, kOutside);
        for (const std::string& report : std::exchange(outsideApi_, {}))
            detail::addFailureAt(nullptr, -1, std::string(kApiReport) + report + kOutside);
    }

    static constexpr const char* kApiReport =
        "the Metal debug layer reported a mistake (MTL_DEBUG_LAYER_ERROR_MODE=nslog goes on after it; a command "
        "it names was not run):\n";

    Sink reports_;
    // Touched on the main thread only.
    std::vector<validation::ShaderValidationReport> outside_;
    std::vector<std::string> outsideGaveUp_;
    std::vector<std::string> outsideApi_;
    std::uint64_t apiReportsBefore_ = 0; ///< the debug layer's reports counted so far
    validation::DispatchCounts before_;
    std::uint64_t committedBefore_ = 0; ///< command buffers committed when the test started
};

/// Makes a failed SetUpTestSuite fail under ctest. GoogleTest runs none of that suite's tests
/// and prints "[  SKIPPED ]" for each; gtest_discover_tests gives every test a skip pattern
/// that matches the line, and ctest lets it win over the program's failing exit code, so a
/// suite whose kernels did not compile in SetUpTestSuite would count as skipped. When the
/// program runs a single test (a --gtest_filter naming one, as gtest_discover_tests runs
/// each) and it starts in such a suite, this says why and exits with 1 before GoogleTest
/// prints the skip. Under any other filter GoogleTest goes on and fails the suite itself.
/// metalcpu::gtest_main installs it; a suite with its own main() appends it as above.
class SuiteSetUpFailureListener : public ::testing::EmptyTestEventListener {
public:
    void OnTestStart(const ::testing::TestInfo& test) override {
        const ::testing::TestSuite* suite = ::testing::UnitTest::GetInstance()->current_test_suite();
        if (!suite || !suite->ad_hoc_test_result().Failed() || !runsOneTest()) return;
        std::printf("[  FAILED  ] %s.%s: SetUpTestSuite of %s failed (above), so the test cannot run\n",
                    test.test_suite_name(), test.name(), test.test_suite_name());
        std::fflush(stdout);
        std::exit(1);
    }

private:
    static bool runsOneTest() {
#ifdef GTEST_FLAG_GET
        const std::string filter = GTEST_FLAG_GET(filter);
#else
        const std::string filter = ::testing::GTEST_FLAG(filter);
#endif
        return filter.find_first_of("*?:-") == std::string::npos;
    }
};

// ---- Matchers -------------------------------------------------------------------------------
// Each matches one field of a ShaderValidationReport (or a few, for InvalidStore and
// InvalidLoad) and, when it does not match, says which field differed and its value. Every
// value they take may also be a matcher: InKernel(::testing::StartsWith("mat_mul")),
// AtLine(::testing::Ge(3u)), ThroughBuffer(::testing::Lt(2)), AtThread(::testing::_, 1),
// WithCount(::testing::Ge(2u)).

namespace detail {

/// Whether `Expected`, given for a field of type T, is a plain value (else it is a matcher).
template <class T, class Expected>
inline constexpr bool isValue = std::is_convertible_v<const Expected&, T>;

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

/// `expected` in a description: a value as `valueText` gives it, a matcher as it describes
/// itself, after `matcherIntro` ("a report whose line" + " is >= 3").
template <class T, class Expected, class ValueText>
std::string describeExpected(const Expected& expected, ValueText valueText, const std::string& matcherIntro) {
    if constexpr (isValue<T, Expected>) return valueText(static_cast<T>(expected));
    else return matcherIntro + " " + ::testing::DescribeMatcher<const T&>(expected);
}

/// "is " or "is not " + what the matcher describes.
inline std::string isOrIsNot(bool negation, const std::string& text) { return (negation ? "is not " : "is ") + text; }

/// "[[buffer(1)]]", "[[threadgroup(0)]]", or the reasons a report has no binding.
inline std::string bindingText(const validation::ShaderValidationReport& report) {
    if (report.bindingIndex < 0)
        return "no binding (a threadgroup variable of the kernel, a program-scope constant or an address read from "
               "memory)";
    return std::string("[[") + (report.addressSpace == validation::AddressSpace::Threadgroup ? "threadgroup" : "buffer") +
           "(" + std::to_string(report.bindingIndex) + ")]]";
}

/// ThroughBuffer and ThroughThreadgroupArgument: a binding of that kind whose index matches.
template <class Index>
bool bindingMatches(const validation::ShaderValidationReport& report, bool threadgroup, const Index& index,
                    ::testing::MatchResultListener* listener) {
    *listener << "whose binding is " << bindingText(report);
    if (report.bindingIndex < 0 || (report.addressSpace == validation::AddressSpace::Threadgroup) != threadgroup)
        return false;
    return ::testing::MatcherCast<const std::int32_t&>(index).Matches(report.bindingIndex);
}

template <class Index>
std::string bindingDescription(bool negation, const char* kind, const Index& index) {
    return isOrIsNot(negation, "made through " + describeExpected<std::int32_t>(
                                                     index,
                                                     [&](std::int32_t n) {
                                                         return std::string("[[") + kind + "(" + std::to_string(n) +
                                                                ")]]";
                                                     },
                                                     std::string("a [[") + kind + "(n)]] whose n"));
}

/// Whether InvalidStore/InvalidLoad's binding index asks for any binding: a negative value.
template <class Binding>
bool anyBinding(const Binding& binding) {
    if constexpr (isValue<std::int32_t, Binding>) return static_cast<std::int32_t>(binding) < 0;
    else return false;
}

/// InvalidStore and InvalidLoad: the access, the kernel, then the binding index unless it is
/// a negative value; explains the first field that differs.
template <class Kernel, class Binding>
bool invalidAccess(const validation::ShaderValidationReport& report, validation::Access access, const Kernel& kernel,
                   const Binding& binding, ::testing::MatchResultListener* listener) {
    ::testing::StringMatchResultListener accessWhy, kernelWhy, bindingWhy;
    const ::testing::StringMatchResultListener* why = nullptr; // about the first field that differs
    if (!fieldMatches("access", report.access, access, &accessWhy)) why = &accessWhy;
    else if (!fieldMatches("kernel", report.kernel, kernel, &kernelWhy)) why = &kernelWhy;
    else if (!anyBinding(binding) && !fieldMatches("bindingIndex", report.bindingIndex, binding, &bindingWhy))
        why = &bindingWhy;
    if (why) *listener << why->str();
    return why == nullptr;
}

template <class Kernel, class Binding>
std::string invalidAccessDescription(bool negation, const char* access, const Kernel& kernel, const Binding& binding) {
    std::string text = std::string("an invalid ") + access + " in " +
                       describeExpected<std::string>(
                           kernel, [](const std::string& name) { return ::testing::PrintToString(name); },
                           "a kernel whose name");
    if (!anyBinding(binding))
        text += " through " + describeExpected<std::int32_t>(
                                  binding, [](std::int32_t n) { return "binding index " + std::to_string(n); },
                                  "a binding index that");
    return isOrIsNot(negation, text);
}

/// One coordinate of a position in a description: "3", or "is >= 3" for a matcher.
template <class Expected>
std::string coordinateText(const Expected& expected) {
    if constexpr (isValue<std::uint32_t, Expected>) return std::to_string(static_cast<std::uint32_t>(expected));
    else return ::testing::DescribeMatcher<const std::uint32_t&>(expected);
}

/// A position's coordinates, each a value or a matcher: "(1, 2, 3)", "(is >= 3, 0, 0)".
template <class X, class Y, class Z>
std::string positionText(const X& x, const Y& y, const Z& z) {
    return "(" + coordinateText(x) + ", " + coordinateText(y) + ", " + coordinateText(z) + ")";
}

template <class X, class Y, class Z>
bool positionMatches(const char* field, const validation::Position& actual, const X& x, const Y& y, const Z& z,
                     ::testing::MatchResultListener* listener) {
    *listener << "whose " << field << " is " << ::testing::PrintToString(actual);
    return ::testing::MatcherCast<const std::uint32_t&>(x).Matches(actual.x) &&
           ::testing::MatcherCast<const std::uint32_t&>(y).Matches(actual.y) &&
           ::testing::MatcherCast<const std::uint32_t&>(z).Matches(actual.z);
}

MATCHER_P3(AtThreadPositionInGrid, x, y, z,
           isOrIsNot(negation, "made by the thread at " + positionText(x, y, z) + " in the grid")) {
    return positionMatches("threadPositionInGrid", arg.threadPositionInGrid, x, y, z, result_listener);
}

MATCHER_P3(InThreadgroupAt, x, y, z,
           isOrIsNot(negation, "made in the threadgroup at " + positionText(x, y, z) + " in the grid")) {
    return positionMatches("threadgroupPositionInGrid", arg.threadgroupPositionInGrid, x, y, z, result_listener);
}

} // namespace detail

/// An invalid store in `kernel` (its host name, or a string matcher) through binding
/// `bindingIndex`: [[buffer(n)]] or [[threadgroup(n)]] — any binding, or none, when it is
/// negative; it may be a matcher too.
MATCHER_P2(InvalidStore, kernel, bindingIndex,
           detail::invalidAccessDescription(negation, "store", kernel, bindingIndex)) {
    return detail::invalidAccess(arg, validation::Access::Store, kernel, bindingIndex, result_listener);
}

/// An invalid load in `kernel` through binding `bindingIndex`, as InvalidStore.
MATCHER_P2(InvalidLoad, kernel, bindingIndex, detail::invalidAccessDescription(negation, "load", kernel, bindingIndex)) {
    return detail::invalidAccess(arg, validation::Access::Load, kernel, bindingIndex, result_listener);
}

/// The access is in this kernel (its host name; a string or a string matcher).
MATCHER_P(InKernel, kernel,
          detail::isOrIsNot(negation, "a report whose kernel " + ::testing::DescribeMatcher<const std::string&>(kernel))) {
    return detail::fieldMatches("kernel", arg.kernel, kernel, result_listener);
}

/// The pointer came from this kernel parameter (a string or a string matcher).
MATCHER_P(ThroughArgument, argumentName,
          detail::isOrIsNot(negation,
                            "a report whose argument " + ::testing::DescribeMatcher<const std::string&>(argumentName))) {
    return detail::fieldMatches("argumentName", arg.argumentName, argumentName, result_listener);
}

/// The pointer came from the [[buffer(index)]] argument (a number or a matcher).
MATCHER_P(ThroughBuffer, index, detail::bindingDescription(negation, "buffer", index)) {
    return detail::bindingMatches(arg, false, index, result_listener);
}

/// The pointer came from the [[threadgroup(index)]] argument (a number or a matcher).
MATCHER_P(ThroughThreadgroupArgument, index, detail::bindingDescription(negation, "threadgroup", index)) {
    return detail::bindingMatches(arg, true, index, result_listener);
}

/// The pointer came from no binding: a `threadgroup` variable declared in the kernel (its
/// threadgroup reports have no binding index), a program-scope constant, or an address read
/// from memory.
MATCHER(WithoutBinding, std::string(negation ? "is" : "is not") + " made through a binding") {
    *result_listener << "whose binding is " << detail::bindingText(arg);
    return arg.bindingIndex < 0;
}

/// Made by the thread at (x, y, z) of the grid ([[thread_position_in_grid]]); each coordinate a
/// number or a matcher.
template <class X, class Y = std::uint32_t, class Z = std::uint32_t>
auto AtThread(const X& x, const Y& y = 0, const Z& z = 0) {
    return detail::AtThreadPositionInGrid(x, y, z);
}

/// Made by a thread of the threadgroup at (x, y, z) of the grid ([[threadgroup_position_in_grid]]);
/// each coordinate a number or a matcher.
template <class X, class Y = std::uint32_t, class Z = std::uint32_t>
auto InThreadgroup(const X& x, const Y& y = 0, const Z& z = 0) {
    return detail::InThreadgroupAt(x, y, z);
}

/// The site made this many such accesses in its dispatch (a number or a matcher).
MATCHER_P(WithCount, count,
          detail::isOrIsNot(negation, "a report whose count " + ::testing::DescribeMatcher<const std::uint64_t&>(count))) {
    return detail::fieldMatches("count", arg.count, count, result_listener);
}

/// The access is at `line` of the kernel source (a number or a matcher).
MATCHER_P(AtLine, line,
          detail::isOrIsNot(negation, detail::describeExpected<std::uint32_t>(
                                          line, [](std::uint32_t n) { return "at line " + std::to_string(n); },
                                          "a report whose line"))) {
    return detail::fieldMatches("line", arg.location.line, line, result_listener);
}

/// The access is `offset` bytes into its buffer (a number or a matcher).
MATCHER_P(AtOffset, offset,
          detail::isOrIsNot(negation, detail::describeExpected<std::uint64_t>(
                                          offset, [](std::uint64_t n) { return "at offset " + std::to_string(n); },
                                          "a report whose offset"))) {
    return detail::fieldMatches("offset", arg.offset, offset, result_listener);
}

/// The report is about this address space (validation::AddressSpace::Device, Constant or
/// Threadgroup; or a matcher).
MATCHER_P(InAddressSpace, space,
          detail::isOrIsNot(negation, detail::describeExpected<validation::AddressSpace>(
                                          space,
                                          [](validation::AddressSpace value) {
                                              return std::string("in the ") + validation::name(value) +
                                                     " address space";
                                          },
                                          "a report whose addressSpace"))) {
    return detail::fieldMatches("addressSpace", arg.addressSpace, space, result_listener);
}

/// The report's kind (validation::ReportKind::OutOfBounds, NullBuffer, WildPointer; or a
/// matcher).
MATCHER_P(OfKind, kind,
          detail::isOrIsNot(negation, detail::describeExpected<validation::ReportKind>(
                                          kind,
                                          [](validation::ReportKind value) {
                                              return std::string("a ") + validation::name(value) + " report";
                                          },
                                          "a report whose kind"))) {
    return detail::fieldMatches("kind", arg.kind, kind, result_listener);
}

} // namespace metalcpu::testing
