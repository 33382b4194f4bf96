// Tests of the report text (Apple's wording, then metalcpu's lines) and its JSON form.
#include <metalcpu/Validation.hpp>

#include <gtest/gtest.h>

namespace metalcpu::validation {
namespace {

ShaderValidationReport deviceStore() {
    ShaderValidationReport r;
    r.addressSpace = AddressSpace::Device;
    r.access = Access::Store;
    r.offset = 4000;
    r.size = 4;
    r.hasBuffer = true;
    r.bufferLabel = "<unnamed>";
    r.bufferLength = 4000;
    r.bindingIndex = 1;
    r.argumentName = "out";
    r.kernel = "sum_sincos_float";
    r.encoderLabel = "0";
    r.location = {"program_source", "sum_sincos", 9, 20};
    r.threadPositionInGrid = {999, 0, 0};
    r.threadPositionInThreadgroup = {39, 0, 0};
    r.threadgroupPositionInGrid = {15, 0, 0};
    return r;
}

// Test that a device store reads as Apple's report, line by line, then ours.
TEST(ShaderValidationReport, DeviceStoreText) {
    EXPECT_EQ(deviceStore().text(),
              "Invalid device store at offset 4000, executing kernel function: \"sum_sincos_float\"\n"
              "buffer: <unnamed>, length:4000, resident:Read Write\n"
              "pipeline: (null), UID: sum_sincos_float encoder: \"0\", dispatch: 0\n"
              "\t* frame #0: sum_sincos() - /program_source:9:20\n"
              "\tthread_position_in_grid: (999, 0, 0), thread_position_in_threadgroup: (39, 0, 0), "
              "threadgroup_position_in_grid: (15, 0, 0)\n"
              "\targument: out [[buffer(1)]], 4-byte store\n");
}

// Test that threadgroup reports have no buffer line, constant loads say "device", and a
// repeated site says how often.
TEST(ShaderValidationReport, ThreadgroupConstantAndCount) {
    ShaderValidationReport tg = deviceStore();
    tg.addressSpace = AddressSpace::Threadgroup;
    tg.access = Access::Load;
    tg.hasBuffer = false;
    tg.bindingIndex = -1;
    tg.count = 7;
    tg.location.file = "kernels/blur.metal";
    const std::string text = tg.text();
    EXPECT_EQ(text.rfind("Invalid threadgroup load at offset 4000, executing kernel function: \"sum_sincos_float\"\n"
                         "pipeline: (null)",
                         0),
              0u)
        << text;
    EXPECT_NE(text.find(" - kernels/blur.metal:9:20\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("argument:"), std::string::npos) << text;
    EXPECT_NE(text.find("this site made 7 such accesses"), std::string::npos) << text;

    ShaderValidationReport constant = deviceStore();
    constant.addressSpace = AddressSpace::Constant;
    constant.access = Access::Load;
    constant.pipelineLabel = "my pipeline";
    EXPECT_EQ(constant.text().rfind("Invalid device load at offset 4000", 0), 0u);
    EXPECT_NE(constant.text().find("pipeline: my pipeline, UID: sum_sincos_float encoder: \"0\", dispatch: 0\n"),
              std::string::npos);
}

// Test that the JSON line carries the fields and escapes the text.
TEST(ShaderValidationReport, Json) {
    const std::string json = deviceStore().json();
    EXPECT_EQ(json.front(), '{');
    EXPECT_EQ(json.back(), '}');
    EXPECT_EQ(json.find('\n'), std::string::npos);
    for (const char* field : {"\"access\":\"store\"", "\"addressSpace\":\"device\"", "\"offset\":4000",
                              "\"buffer\":\"<unnamed>\"", "\"bindingIndex\":1", "\"kernel\":\"sum_sincos_float\"",
                              "\"line\":9", "\"column\":20", "\"file\":\"/program_source\"",
                              "\"threadPositionInGrid\":[999,0,0]", "\\\"sum_sincos_float\\\"\\nbuffer"})
        EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
}

} // namespace
} // namespace metalcpu::validation
