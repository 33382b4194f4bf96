// A scratch directory the tools run in, for the tests of tests/tools.
#pragma once

#include "jit/kernel_library.h"
#include "support/files.h"
#include "support/process.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace metalcpu::tools {

class ToolsTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = support::makeTemporaryDirectory("metalcpu-tools-test-");
        write("a.metal", "kernel void from_a(device int* out [[buffer(0)]]) { out[0] = A; }\n");
        write("b.metal", "kernel void from_b(device int* out [[buffer(0)]]) { out[0] = 2; }\n");
    }
    void TearDown() override { support::removeTree(dir_); }

    void write(const std::string& name, const std::string& text) {
        ASSERT_TRUE(support::writeFileAtomically(dir_ + "/" + name, text)) << name;
    }
    std::string read(const std::string& name) const { return support::readFile(dir_ + "/" + name).value_or(""); }
    bool exists(const std::string& name) const { return support::fileExists(dir_ + "/" + name); }

    /// Runs `argv` in the scratch directory.
    support::ProcessResult run(const std::vector<std::string>& argv, const std::vector<std::string>& environment = {}) const {
        return support::runProcess(argv, dir_, {}, environment);
    }
    /// Runs a shell command line in the scratch directory (for pipes).
    support::ProcessResult shell(const std::string& command, const std::vector<std::string>& environment = {}) const {
        return run({"/bin/sh", "-c", command}, environment);
    }

    /// The kernels of the library `name`, or a failure.
    std::vector<std::string> kernelsOf(const std::string& name) const {
        std::string error;
        auto library = jit::KernelLibrary::open(dir_ + "/" + name, &error);
        EXPECT_NE(library, nullptr) << error;
        return library ? library->kernelNames() : std::vector<std::string>{};
    }

    std::string dir_;
};

} // namespace metalcpu::tools
