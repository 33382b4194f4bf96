// Tests of the GoogleMock matchers of <metalcpu/ValidationTesting.hpp>: each matches its field,
// and a mismatch says which field differed and its actual value.
#include "sample_report.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

namespace metalcpu::testing {
namespace {

using ::testing::Not;
using validation::AddressSpace;
using validation::ReportKind;
using validation::ShaderValidationReport;
using validation::deviceStore;
using validation::threadgroupArrayLoad;

/// What `matcher` says about `report` when it does not match it (and fails the test when it
/// does).
template <class Matcher>
std::string mismatch(const Matcher& matcher, const ShaderValidationReport& report) {
    ::testing::StringMatchResultListener listener;
    EXPECT_FALSE(::testing::ExplainMatchResult(matcher, report, &listener));
    return listener.str();
}

template <class Matcher>
std::string describe(const Matcher& matcher, bool negation = false) {
    return ::testing::DescribeMatcher<const ShaderValidationReport&>(matcher, negation);
}

// Test that InKernel takes a name or a string matcher and names the actual kernel on mismatch.
TEST(ValidationMatchers, InKernel) {
    EXPECT_THAT(deviceStore(), InKernel("sum_sincos_float"));
    EXPECT_THAT(deviceStore(), InKernel(::testing::StartsWith("sum_")));
    EXPECT_EQ(mismatch(InKernel("copy"), deviceStore()), "whose kernel is \"sum_sincos_float\"");
    EXPECT_EQ(describe(InKernel("copy")), "is a report whose kernel is equal to \"copy\"");
    EXPECT_EQ(describe(InKernel("copy"), true), "is not a report whose kernel is equal to \"copy\"");
}

// Test that ThroughArgument matches the parameter's name.
TEST(ValidationMatchers, ThroughArgument) {
    EXPECT_THAT(deviceStore(), ThroughArgument("out"));
    EXPECT_EQ(mismatch(ThroughArgument("in"), deviceStore()), "whose argumentName is \"out\"");
    EXPECT_EQ(mismatch(ThroughArgument("out"), threadgroupArrayLoad()), "whose argumentName is \"\"");
}

// Test that ThroughBuffer and ThroughThreadgroupArgument tell [[buffer(n)]] from
// [[threadgroup(n)]], and that WithoutBinding matches reports reached through no binding.
TEST(ValidationMatchers, Bindings) {
    EXPECT_THAT(deviceStore(), ThroughBuffer(1));
    EXPECT_EQ(mismatch(ThroughBuffer(2), deviceStore()), "whose binding is [[buffer(1)]]");
    EXPECT_EQ(mismatch(ThroughThreadgroupArgument(1), deviceStore()), "whose binding is [[buffer(1)]]");
    EXPECT_EQ(describe(ThroughBuffer(2)), "is made through [[buffer(2)]]");

    ShaderValidationReport argument = threadgroupArrayLoad();
    argument.bindingIndex = 0;
    EXPECT_THAT(argument, ThroughThreadgroupArgument(0));
    EXPECT_EQ(mismatch(ThroughBuffer(0), argument), "whose binding is [[threadgroup(0)]]");
    EXPECT_EQ(mismatch(WithoutBinding(), argument), "whose binding is [[threadgroup(0)]]");

    EXPECT_THAT(threadgroupArrayLoad(), WithoutBinding());
    EXPECT_THAT(deviceStore(), Not(WithoutBinding()));
    EXPECT_EQ(mismatch(ThroughThreadgroupArgument(0), threadgroupArrayLoad()),
              "whose binding is no binding (a threadgroup variable of the kernel, a program-scope constant or an "
              "address read from memory)");
    EXPECT_EQ(describe(WithoutBinding()), "is not made through a binding");
}

// Test that AtThread and InThreadgroup match the grid positions, y and z defaulting to 0.
TEST(ValidationMatchers, Positions) {
    EXPECT_THAT(deviceStore(), AtThread(999));
    EXPECT_THAT(deviceStore(), AtThread(999, 0, 0));
    EXPECT_EQ(mismatch(AtThread(998), deviceStore()), "whose threadPositionInGrid is (999, 0, 0)");
    EXPECT_EQ(mismatch(AtThread(999, 1), deviceStore()), "whose threadPositionInGrid is (999, 0, 0)");
    EXPECT_THAT(deviceStore(), InThreadgroup(15));
    EXPECT_EQ(mismatch(InThreadgroup(14), deviceStore()), "whose threadgroupPositionInGrid is (15, 0, 0)");
    EXPECT_EQ(describe(AtThread(1, 2, 3)), "is made by the thread at (1, 2, 3) in the grid");
}

// Test that WithCount takes a number or a matcher.
TEST(ValidationMatchers, WithCount) {
    ShaderValidationReport repeated = deviceStore();
    repeated.count = 16;
    EXPECT_THAT(repeated, WithCount(16));
    EXPECT_THAT(repeated, WithCount(::testing::Ge(2u)));
    EXPECT_EQ(mismatch(WithCount(1), repeated), "whose count is 16");
    EXPECT_EQ(mismatch(WithCount(::testing::Ge(2u)), deviceStore()), "whose count is 1");
    EXPECT_EQ(describe(WithCount(::testing::Ge(2u))), "is a report whose count is >= 2");
}

// Test that the location, offset, space and kind matchers say which value they found.
TEST(ValidationMatchers, LineOffsetSpaceKind) {
    EXPECT_THAT(deviceStore(), ::testing::AllOf(AtLine(9), AtOffset(4000), InAddressSpace(AddressSpace::Device),
                                     OfKind(ReportKind::OutOfBounds)));
    EXPECT_EQ(mismatch(AtLine(8), deviceStore()), "whose line is 9");
    EXPECT_EQ(mismatch(AtOffset(4), deviceStore()), "whose offset is 4000");
    EXPECT_EQ(mismatch(InAddressSpace(AddressSpace::Constant), deviceStore()), "whose addressSpace is device");
    EXPECT_EQ(mismatch(OfKind(ReportKind::WildPointer), deviceStore()), "whose kind is out-of-bounds");
    EXPECT_EQ(describe(InAddressSpace(AddressSpace::Constant)), "is in the constant address space");
    EXPECT_EQ(describe(InAddressSpace(AddressSpace::Device), true), "is not in the device address space");
    EXPECT_EQ(describe(OfKind(ReportKind::WildPointer)), "is a wild-pointer report");
    EXPECT_EQ(describe(OfKind(ReportKind::NullBuffer), true), "is not a null-buffer report");
}

// Test that InvalidStore and InvalidLoad check the access, then the kernel, then the binding
// index (any when negative), and name the first field that differs.
TEST(ValidationMatchers, InvalidStoreAndLoad) {
    EXPECT_THAT(deviceStore(), InvalidStore("sum_sincos_float", 1));
    EXPECT_THAT(deviceStore(), InvalidStore("sum_sincos_float", -1));
    EXPECT_THAT(threadgroupArrayLoad(), InvalidLoad("sum_sincos_float", -1));
    EXPECT_EQ(mismatch(InvalidLoad("sum_sincos_float", 1), deviceStore()), "whose access is store");
    EXPECT_EQ(mismatch(InvalidStore("copy", 1), deviceStore()), "whose kernel is \"sum_sincos_float\"");
    EXPECT_EQ(mismatch(InvalidStore("sum_sincos_float", 2), deviceStore()), "whose bindingIndex is 1");
    EXPECT_EQ(describe(InvalidStore("copy", 2)), "is an invalid store in \"copy\" through binding index 2");
    EXPECT_EQ(describe(InvalidLoad("copy", -1), true), "is not an invalid load in \"copy\"");
}

// Test that InvalidStore and InvalidLoad describe a kernel matcher by what it matches, not by
// the matcher object's bytes, and take a matcher for the binding index.
TEST(ValidationMatchers, InvalidStoreWithMatchers) {
    EXPECT_THAT(deviceStore(), InvalidStore(::testing::StartsWith("sum_"), 1));
    EXPECT_THAT(deviceStore(), InvalidStore("sum_sincos_float", ::testing::Ge(1)));
    EXPECT_EQ(describe(InvalidStore(::testing::StartsWith("sum_"), 1)),
              "is an invalid store in a kernel whose name starts with \"sum_\" through binding index 1");
    EXPECT_EQ(describe(InvalidLoad(::testing::HasSubstr("cos"), ::testing::Lt(2)), true),
              "is not an invalid load in a kernel whose name has substring \"cos\" through a binding index that is < 2");
    EXPECT_EQ(mismatch(InvalidStore(::testing::StartsWith("copy"), 1), deviceStore()), "whose kernel is \"sum_sincos_float\"");
    EXPECT_EQ(mismatch(InvalidStore("sum_sincos_float", ::testing::Gt(1)), deviceStore()), "whose bindingIndex is 1");
}

// Test that every value matcher also takes a matcher, and describes it.
TEST(ValidationMatchers, ValuesMayBeMatchers) {
    using ::testing::_;
    using ::testing::Ge;
    using ::testing::Lt;
    EXPECT_THAT(deviceStore(), AtLine(Ge(3u)));
    EXPECT_EQ(mismatch(AtLine(Ge(10u)), deviceStore()), "whose line is 9");
    EXPECT_EQ(describe(AtLine(Ge(3u))), "is a report whose line is >= 3");
    EXPECT_EQ(describe(AtLine(9)), "is at line 9");

    EXPECT_THAT(deviceStore(), AtOffset(Ge(4000u)));
    EXPECT_EQ(mismatch(AtOffset(Lt(4000u)), deviceStore()), "whose offset is 4000");
    EXPECT_EQ(describe(AtOffset(Lt(8u))), "is a report whose offset is < 8");

    EXPECT_THAT(deviceStore(), ThroughBuffer(Lt(2)));
    EXPECT_EQ(mismatch(ThroughBuffer(Ge(2)), deviceStore()), "whose binding is [[buffer(1)]]");
    EXPECT_EQ(describe(ThroughBuffer(Ge(2))), "is made through a [[buffer(n)]] whose n is >= 2");
    ShaderValidationReport argument = threadgroupArrayLoad();
    argument.bindingIndex = 0;
    EXPECT_THAT(argument, ThroughThreadgroupArgument(_));
    EXPECT_THAT(threadgroupArrayLoad(), Not(ThroughThreadgroupArgument(_))) << "no binding at all";
    EXPECT_EQ(describe(ThroughThreadgroupArgument(_)), "is made through a [[threadgroup(n)]] whose n is anything");

    EXPECT_THAT(deviceStore(), AtThread(Ge(900u)));
    EXPECT_THAT(deviceStore(), AtThread(_, 0, _));
    EXPECT_EQ(mismatch(AtThread(_, Ge(1u)), deviceStore()), "whose threadPositionInGrid is (999, 0, 0)");
    EXPECT_EQ(describe(AtThread(Ge(900u), 0, _)), "is made by the thread at (is >= 900, 0, is anything) in the grid");
    EXPECT_THAT(deviceStore(), InThreadgroup(Lt(16u)));
    EXPECT_EQ(describe(InThreadgroup(Lt(16u))), "is made in the threadgroup at (is < 16, 0, 0) in the grid");

    EXPECT_THAT(deviceStore(), InAddressSpace(::testing::Ne(AddressSpace::Threadgroup)));
    EXPECT_EQ(describe(InAddressSpace(::testing::Ne(AddressSpace::Threadgroup))),
              "is a report whose addressSpace isn't equal to threadgroup");
    EXPECT_THAT(deviceStore(), OfKind(::testing::AnyOf(ReportKind::OutOfBounds, ReportKind::WildPointer)));
    EXPECT_EQ(mismatch(OfKind(::testing::Eq(ReportKind::NullBuffer)), deviceStore()), "whose kind is out-of-bounds");
}

// Test that the explanation reaches a failed EXPECT_THAT's message, next to the report's text.
TEST(ValidationMatchers, ExplanationInTheFailure) {
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(deviceStore(), InKernel("copy")), "whose kernel is \"sum_sincos_float\"");
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(deviceStore(), InvalidStore("sum_sincos_float", 0)), "whose bindingIndex is 1");
    EXPECT_NONFATAL_FAILURE(EXPECT_THAT(deviceStore(), ThroughBuffer(0)),
                            "Invalid device store at offset 4000, executing kernel function");
}

} // namespace
} // namespace metalcpu::testing
