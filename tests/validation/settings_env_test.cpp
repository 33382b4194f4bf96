// Shader validation switched by Apple's variables (and metalcpu's), read from the environment
// when the device is created. ctest runs this program once per environment, each time with a
// --gtest_filter for the suite written for it (tests/validation/CMakeLists.txt); the suites
// here are named after those runs.
#include "validation_fixture.h"

#include "validation/settings.h"

#include <gmock/gmock.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace metalcpu::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using validation::AddressSpace;
using validation::ShaderValidationReport;

// Line numbers matter: the tests assert them.
const char* const kKernels = R"(#include <metal_stdlib>
using namespace metal;

kernel void store_at(device float* out [[buffer(0)]], constant int& offset [[buffer(1)]], uint i [[thread_position_in_grid]]) {
    out[int(i) + offset] = 1.0f;
}
kernel void tg_argument(device float* out [[buffer(0)]], threadgroup float* scratch [[threadgroup(0)]], constant uint& offset [[buffer(1)]], uint l [[thread_index_in_threadgroup]], uint i [[thread_position_in_grid]]) {
    scratch[l + offset] = 2.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = scratch[l];
}
)";

constexpr unsigned kStoreLine = 5, kScratchLine = 8;

/// The device made from the environment ctest set. What the process printed on stderr while
/// the first device was created is kept: that is when Metal reads the variables.
class Environment : public ValidationFixture {
protected:
    void SetUp() override {
        static bool first = true;
        if (first) ::testing::internal::CaptureStderr();
        ValidationFixture::SetUp();
        if (first) startup() = ::testing::internal::GetCapturedStderr();
        first = false;
    }
    static std::string& startup() {
        static std::string printed;
        return printed;
    }

    MTL::ComputePipelineState* kernel(const char* name, const char* label = nullptr) {
        if (!library_) library_ = compile(kKernels);
        return pipeline(library_, name, label);
    }
    void TearDown() override {
        if (library_) library_->release();
        library_ = nullptr;
        ValidationFixture::TearDown();
    }

    /// store_at over 4 threads into a 5-float buffer bound from its second float: offset 0
    /// stores in range, 1 one float past the buffer's end, at offset 20 (only where such a
    /// store is contained).
    MTL::CommandBuffer* storeAt(int offset, MTL::ComputePipelineState* pipeline = nullptr) {
        target_ = buffer(5 * sizeof(float), "target");
        return dispatch(pipeline ? pipeline : kernel("store_at"), 4, 4, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(target_, sizeof(float), 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
    }
    /// store_at over one thread that stores past its buffer (`target_`) into another live
    /// buffer's first float (`neighbour_`, which holds 42): invalid, yet harmless unchecked,
    /// as on a GPU. The report's offset is neighbourOffset().
    MTL::CommandBuffer* storeIntoNeighbour(MTL::ComputePipelineState* pipeline = nullptr) {
        Neighbours n = neighbours(4);
        target_ = n.low;
        neighbour_ = n.high;
        floats(neighbour_)[0] = 42.0f;
        int offset = n.index;
        return dispatch(pipeline ? pipeline : kernel("store_at"), 1, 1, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(target_, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
        });
    }
    std::uint64_t neighbourOffset() const {
        return reinterpret_cast<std::uintptr_t>(neighbour_->contents()) -
               reinterpret_cast<std::uintptr_t>(target_->contents());
    }
    /// tg_argument over one group of 16 with 16 floats of threadgroup memory: offset 16
    /// stores past them (still inside the group's threadgroup memory).
    void scratch(std::uint32_t offset) {
        MTL::Buffer* out = buffer(16 * sizeof(float));
        dispatch(kernel("tg_argument"), 16, 16, [&](MTL::ComputeCommandEncoder* e) {
            e->setBuffer(out, 0, 0);
            e->setBytes(&offset, sizeof offset, 1);
            e->setThreadgroupMemoryLength(16 * sizeof(float), 0);
        });
    }

    MTL::Library* library_ = nullptr;
    MTL::Buffer* target_ = nullptr;
    MTL::Buffer* neighbour_ = nullptr;
};

// ---- MTL_SHADER_VALIDATION=1 alone --------------------------------------------------------------

using Defaults = Environment;

// Test that the device announced validation once, complained about nothing, and read Apple's
// defaults.
TEST_F(Defaults, ReadWhenTheDeviceIsCreated) {
    EXPECT_EQ(startup(), "Metal GPU Validation Enabled\n");
    val::ShaderValidationSettings s = val::shaderValidationSettings();
    EXPECT_TRUE(s.enabled);
    EXPECT_TRUE(s.defaultOn);
    EXPECT_EQ(s.failMode, val::FailMode::ZeroFill);
    EXPECT_FALSE(s.abortOnFault);
    EXPECT_FALSE(s.reportToStderr);
    EXPECT_TRUE(s.errorReporting);
    EXPECT_TRUE(s.globalMemory);
    EXPECT_TRUE(s.threadgroupMemory);
    EXPECT_EQ(s.jsonPath, "");
    EXPECT_FALSE(s.failCommandBuffer);
    EXPECT_EQ(s.waitLimit, std::chrono::seconds(60));
}

// Test that variables changed after the device was created change nothing, as in Metal.
TEST_F(Defaults, LaterChangesAreIgnored) {
    ASSERT_EQ(setenv("MTL_SHADER_VALIDATION", "0", 1), 0);
    ASSERT_EQ(setenv("MTL_SHADER_VALIDATION_FAIL_MODE", "allow", 1), 0);
    ASSERT_EQ(setenv("MTL_SHADER_VALIDATION_GLOBAL_MEMORY", "0", 1), 0);
    MTL::Device* again = MTL::CreateSystemDefaultDevice();
    again->release();
    val::ShaderValidationSettings s = val::shaderValidationSettings();
    EXPECT_TRUE(s.enabled);
    EXPECT_EQ(s.failMode, val::FailMode::ZeroFill);
    EXPECT_TRUE(s.globalMemory);
    MTL::ComputePipelineState* store = kernel("store_at");
    ASSERT_NE(store, nullptr);
    EXPECT_EQ(store->shaderValidation(), MTL::ShaderValidationEnabled);
    storeAt(0, store);
    EXPECT_THAT(reports(), IsEmpty());
    storeIntoNeighbour(store);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("store_at", 0), AtLine(kStoreLine), AtOffset(neighbourOffset())));
    EXPECT_EQ(floats(neighbour_)[0], 42.0f) << "still zerofill, not allow: the store was dropped";
    unsetenv("MTL_SHADER_VALIDATION_FAIL_MODE");
    unsetenv("MTL_SHADER_VALIDATION_GLOBAL_MEMORY");
    setenv("MTL_SHADER_VALIDATION", "1", 1);
}

// ---- MTL_SHADER_VALIDATION_FAIL_MODE ----------------------------------------------------------------

using FailModeZerofill = Environment;

// Test that zerofill, spelled out, is accepted silently and drops a bad store.
TEST_F(FailModeZerofill, DropsTheStore) {
    EXPECT_EQ(startup(), "Metal GPU Validation Enabled\n");
    EXPECT_EQ(val::shaderValidationSettings().failMode, val::FailMode::ZeroFill);
    storeIntoNeighbour();
    EXPECT_EQ(reports().size(), 1u);
    EXPECT_EQ(floats(neighbour_)[0], 42.0f);
}

using FailModeAllow = Environment;

// Test that allow lets a bad store inside the buffer happen, still reporting it, and that an
// in-bounds store stays silent.
TEST_F(FailModeAllow, LetsTheStoreHappen) {
    EXPECT_EQ(startup(), "Metal GPU Validation Enabled\n");
    EXPECT_EQ(val::shaderValidationSettings().failMode, val::FailMode::Allow);
    storeAt(0);
    EXPECT_THAT(reports(), IsEmpty());
    MTL::CommandBuffer* commands = storeIntoNeighbour();
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("store_at", 0), AtOffset(neighbourOffset())));
    EXPECT_EQ(floats(neighbour_)[0], 1.0f) << "allowed: the store past the buffer landed in the next one";
}

using FailModeInvalid = Environment;

// Test that values Metal does not know print Apple's complaint, one valid option per
// tab-indented line, and leave the defaults.
TEST_F(FailModeInvalid, PrintsTheValidOptions) {
    EXPECT_THAT(startup(), HasSubstr("Invalid option for MTL_SHADER_VALIDATION_FAIL_MODE, valid options are:\n"
                                     "\tzerofill\n\tallow\n"));
    EXPECT_THAT(startup(), HasSubstr("Invalid option for MTL_SHADER_VALIDATION_DEFAULT_STATE, valid options are:\n"
                                     "\tall\n\tnone\n"));
    EXPECT_THAT(startup(), HasSubstr("Metal GPU Validation Enabled\n"));
    EXPECT_EQ(val::shaderValidationSettings().failMode, val::FailMode::ZeroFill);
    EXPECT_TRUE(val::shaderValidationSettings().defaultOn);
    storeIntoNeighbour();
    EXPECT_EQ(reports().size(), 1u);
    EXPECT_EQ(floats(neighbour_)[0], 42.0f) << "zerofill";
}

// ---- METALCPU_SHADER_VALIDATION_WAIT_LIMIT -------------------------------------------------------------

using WaitLimit = Environment;

// Test that the limit is read in seconds, fractions allowed.
TEST_F(WaitLimit, ReadInSeconds) {
    EXPECT_EQ(startup(), "Metal GPU Validation Enabled\n");
    EXPECT_EQ(val::shaderValidationSettings().waitLimit, std::chrono::milliseconds(250));
}

using WaitLimitInvalid = Environment;

// Test that a limit that is not a number of seconds is named in a warning and gives the default.
TEST_F(WaitLimitInvalid, WarnsAndKeepsTheDefault) {
    EXPECT_THAT(startup(), HasSubstr("METALCPU_SHADER_VALIDATION_WAIT_LIMIT=soon is not a number of seconds (0 to "
                                     "86400); waiting at most 60 s"));
    EXPECT_EQ(val::shaderValidationSettings().waitLimit, std::chrono::seconds(60));
}

// ---- METALCPU_SHADER_VALIDATION_CHECKS -----------------------------------------------------------------

using ExtraChecks = Environment;

// Test that the list turns on the checks it names, spaces around names allowed, and no others.
TEST_F(ExtraChecks, TurnsOnTheNamedChecks) {
    EXPECT_EQ(startup(), "Metal GPU Validation Enabled\n");
    const val::ExtraChecks checks = val::shaderValidationSettings().extraChecks;
    EXPECT_TRUE(checks.races);
    EXPECT_TRUE(checks.barriers);
    EXPECT_FALSE(checks.uninitialized);
    EXPECT_FALSE(checks.hazards);
}

using ExtraChecksUnknown = Environment;

// Test that a name the list does not know is named in a warning, and `all` turns on every check.
TEST_F(ExtraChecksUnknown, WarnsAndKeepsTheKnownOnes) {
    EXPECT_THAT(startup(), HasSubstr("unknown check 'race' ignored"));
    const val::ExtraChecks checks = val::shaderValidationSettings().extraChecks;
    EXPECT_TRUE(checks.races && checks.uninitialized && checks.barriers && checks.hazards);
}

// ---- MTL_SHADER_VALIDATION_ABORT_ON_FAULT=1 ----------------------------------------------------------

using AbortOnFault = Environment;

// Test that a clean kernel runs to completion and a bad store prints its report and aborts.
TEST_F(AbortOnFault, AbortsWithTheReport) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_TRUE(val::shaderValidationSettings().abortOnFault);
    EXPECT_EQ(storeAt(0)->status(), MTL::CommandBufferStatusCompleted);
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_DEATH(storeAt(1), "Invalid device store at offset 20, executing kernel function: \"store_at\"\n"
                             "buffer: target, length:20, resident:Read Write\n");
}

// ---- Which pipelines -------------------------------------------------------------------------------

using DefaultStateNone = Environment;

// Test MTL_SHADER_VALIDATION_DEFAULT_STATE=none with ENABLE_PIPELINES="mine,also mine":
// only the listed labels (spaces included) are instrumented.
TEST_F(DefaultStateNone, OnlyListedPipelines) {
    val::ShaderValidationSettings s = val::shaderValidationSettings();
    EXPECT_FALSE(s.defaultOn);
    EXPECT_THAT(s.enabledPipelines, ::testing::ElementsAre("mine", "also mine"));
    EXPECT_EQ(kernel("store_at", "mine")->shaderValidation(), MTL::ShaderValidationEnabled);
    EXPECT_EQ(kernel("store_at", "also mine")->shaderValidation(), MTL::ShaderValidationEnabled);
    EXPECT_EQ(kernel("store_at", "other")->shaderValidation(), MTL::ShaderValidationDisabled);
    EXPECT_EQ(kernel("store_at")->shaderValidation(), MTL::ShaderValidationDisabled);
    storeAt(1, kernel("store_at", "also mine"));
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].pipelineLabel, "also mine");
}

using DisablePipelines = Environment;

// Test MTL_SHADER_VALIDATION_DISABLE_PIPELINES="skip me": that pipeline is left alone, the
// others are instrumented.
TEST_F(DisablePipelines, ListedPipelinesAreLeftAlone) {
    EXPECT_THAT(val::shaderValidationSettings().disabledPipelines, ::testing::ElementsAre("skip me"));
    MTL::ComputePipelineState* skipped = kernel("store_at", "skip me");
    EXPECT_EQ(skipped->shaderValidation(), MTL::ShaderValidationDisabled);
    EXPECT_EQ(kernel("store_at", "skip")->shaderValidation(), MTL::ShaderValidationEnabled);
    EXPECT_EQ(kernel("store_at")->shaderValidation(), MTL::ShaderValidationEnabled);
    storeIntoNeighbour(skipped); // invalid, and harmless unchecked
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_EQ(floats(neighbour_)[0], 1.0f) << "not instrumented: the store happened";
}

// ---- What is checked and reported --------------------------------------------------------------------

using ErrorReportingOff = Environment;

// Test MTL_SHADER_VALIDATION_ENABLE_ERROR_REPORTING=0 (with REPORT_TO_STDERR=1): a bad store
// is contained, and reported nowhere.
TEST_F(ErrorReportingOff, ContainsButReportsNothing) {
    EXPECT_FALSE(val::shaderValidationSettings().errorReporting);
    EXPECT_TRUE(val::shaderValidationSettings().reportToStderr);
    ::testing::internal::CaptureStderr();
    storeIntoNeighbour();
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_EQ(floats(neighbour_)[0], 42.0f) << "still dropped";
}

using GlobalMemoryOff = Environment;

// Test MTL_SHADER_VALIDATION_GLOBAL_MEMORY=0: device accesses are not checked, threadgroup
// ones still are.
TEST_F(GlobalMemoryOff, ThreadgroupStillChecked) {
    EXPECT_FALSE(val::shaderValidationSettings().globalMemory);
    storeIntoNeighbour();
    EXPECT_THAT(reports(), IsEmpty());
    EXPECT_EQ(floats(neighbour_)[0], 1.0f) << "unchecked: the store past the buffer happened";
    scratch(0);
    EXPECT_THAT(reports(), IsEmpty());
    scratch(16);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("tg_argument", 0), AtLine(kScratchLine),
                                         InAddressSpace(AddressSpace::Threadgroup)));
}

using ThreadgroupMemoryOff = Environment;

// Test MTL_SHADER_VALIDATION_THREADGROUP_MEMORY=0: threadgroup accesses are not checked,
// device ones still are.
TEST_F(ThreadgroupMemoryOff, DeviceStillChecked) {
    EXPECT_FALSE(val::shaderValidationSettings().threadgroupMemory);
    scratch(16);
    EXPECT_THAT(reports(), IsEmpty());
    storeAt(0);
    EXPECT_THAT(reports(), IsEmpty());
    storeAt(1);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_THAT(got[0], ::testing::AllOf(InvalidStore("store_at", 0), AtOffset(20), InAddressSpace(AddressSpace::Device)));
}

// ---- metalcpu's variables ------------------------------------------------------------------------------

using JsonFile = Environment;

// Test METALCPU_SHADER_VALIDATION_JSON: a report is appended to the file as one line, a clean
// dispatch appends nothing.
TEST_F(JsonFile, AppendsOneLinePerReport) {
    const char* path = std::getenv("METALCPU_SHADER_VALIDATION_JSON");
    ASSERT_NE(path, nullptr);
    EXPECT_EQ(val::shaderValidationSettings().jsonPath, path);
    std::remove(path);
    storeAt(0);
    EXPECT_FALSE(std::ifstream(path).good()) << "a clean kernel writes nothing";
    storeAt(1);
    std::vector<ShaderValidationReport> got = reports();
    ASSERT_EQ(got.size(), 1u);
    std::ifstream in(path);
    std::string line, extra;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_FALSE(std::getline(in, extra));
    EXPECT_EQ(line, got[0].json());
    std::remove(path);
}

using FailsCommandBuffer = Environment;

// Test METALCPU_SHADER_VALIDATION_FAILS_COMMAND_BUFFER=1: a clean command buffer completes, one
// with a report ends in an error that carries it.
TEST_F(FailsCommandBuffer, ErrorCarriesTheReport) {
    EXPECT_TRUE(val::shaderValidationSettings().failCommandBuffer);
    EXPECT_EQ(storeAt(0)->status(), MTL::CommandBufferStatusCompleted);
    MTL::CommandBuffer* commands = storeAt(1);
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusError);
    ASSERT_NE(commands->error(), nullptr);
    EXPECT_THAT(text(commands->error()->localizedDescription()), HasSubstr("Invalid device store at offset 20"));
    EXPECT_EQ(reports().size(), 1u);
}

// ---- Validation off ----------------------------------------------------------------------------------

using NothingValidated = Environment;

// Test that a guard around dispatches that had no shader validation says so, once per process,
// without failing the test.
TEST_F(NothingValidated, GuardSaysSoOnce) {
    EXPECT_FALSE(val::shaderValidationSettings().enabled);
    ::testing::internal::CaptureStdout();
    {
        FailOnValidationReports guard;
        storeIntoNeighbour(); // invalid, and unchecked: it lands in the next buffer
    }
    {
        FailOnValidationReports guard;
        storeAt(0);
    }
    const std::string printed = ::testing::internal::GetCapturedStdout();
    EXPECT_THAT(printed, HasSubstr("[   NOTE   ] NothingValidated.GuardSaysSoOnce ran 1 kernel dispatch(es) and none "
                                   "had shader validation, so invalid memory accesses were not checked."));
    EXPECT_EQ(printed.find("NOTE"), printed.rfind("NOTE")) << printed;
}

} // namespace
} // namespace metalcpu::testing
