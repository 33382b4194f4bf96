// Failures of run-time compilation that are not the kernel's fault reach the program as
// Metal's do: nullptr and an NS::Error, never a C++ exception.
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/config.h"
#include "support/files.h"

#include <string>

namespace metalcpu::jit {
namespace {

class CompileErrorsTest : public testing::MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        directory_ = support::makeTemporaryDirectory("metalcpu-compile-errors-");
    }
    void TearDown() override {
        support::removeTree(directory_);
        MetalTest::TearDown();
    }
    std::string directory_;
};

// Test that newLibrary(source) with a cache directory that is a file fails with an error
// that says why.
TEST_F(CompileErrorsTest, UnusableCacheDirectory) {
    ASSERT_TRUE(support::writeFileAtomically(directory_ + "/file", "not a directory\n"));
    testing::ScopedEnvironmentVariable unusable("METALCPU_CACHE_DIR", directory_ + "/file");
    NS::Error* error = nullptr;
    MTL::Library* library = nullptr;
    EXPECT_NO_THROW(library = device_->newLibrary(
                        NS::String::string("kernel void k(device int* out [[buffer(0)]]) { out[0] = 1; }\n",
                                           NS::UTF8StringEncoding),
                        nullptr, &error));
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    std::string message = error->localizedDescription()->utf8String();
    EXPECT_NE(message.find("cache directory"), std::string::npos) << message;
}

} // namespace
} // namespace metalcpu::jit
