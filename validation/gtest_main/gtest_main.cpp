// main() of metalcpu::gtest_main: GoogleTest's and GoogleMock's, plus the listeners that fail
// a test on the shader-validation reports its kernels made, and a test whose suite's
// SetUpTestSuite failed where ctest would count it as skipped (<metalcpu/ValidationTesting.hpp>).
#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
    ::testing::InitGoogleMock(&argc, argv); // initialises GoogleTest too
    // Appended after the default printer, so that it hears OnTestEnd before the printer does.
    ::testing::UnitTest::GetInstance()->listeners().Append(new metalcpu::testing::ValidationListener);
    ::testing::UnitTest::GetInstance()->listeners().Append(new metalcpu::testing::SuiteSetUpFailureListener);
    return RUN_ALL_TESTS();
}
