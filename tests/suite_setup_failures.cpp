// Every test program of ours installs metalcpu::testing::SuiteSetUpFailureListener
// (<metalcpu/ValidationTesting.hpp> says why): a suite whose SetUpTestSuite fails, as when its
// kernels do not compile, fails under ctest instead of counting as skipped.
#include <metalcpu/ValidationTesting.hpp>

#include <gtest/gtest.h>

namespace {

// Registered before main(): GoogleTest's own main keeps listeners added earlier.
const bool registered = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new metalcpu::testing::SuiteSetUpFailureListener);
    return true;
}();

} // namespace
