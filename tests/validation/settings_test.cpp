// Tests of validation/settings: which pipelines are instrumented.
#include "validation/settings.h"

#include <gtest/gtest.h>

namespace metalcpu::val {
namespace {

constexpr int kDefault = 0, kEnabled = 1, kDisabled = 2;

// Test that without MTL_SHADER_VALIDATION only an explicit descriptor request instruments.
TEST(PipelineIsValidated, OffUnlessTheDescriptorAsks) {
    ShaderValidationSettings off;
    EXPECT_FALSE(pipelineIsValidated(off, kDefault, ""));
    EXPECT_FALSE(pipelineIsValidated(off, kDisabled, ""));
    EXPECT_TRUE(pipelineIsValidated(off, kEnabled, ""));
}

// Test that with the default state "all" every pipeline but the disabled ones is instrumented.
TEST(PipelineIsValidated, DefaultStateAll) {
    ShaderValidationSettings on;
    on.enabled = true;
    on.disabledPipelines = {"skip me"};
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, ""));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, "other"));
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, "skip me"));
    EXPECT_FALSE(pipelineIsValidated(on, kDisabled, "other"));
}

// Test that with the default state "none" only listed pipelines are instrumented.
TEST(PipelineIsValidated, DefaultStateNone) {
    ShaderValidationSettings on;
    on.enabled = true;
    on.defaultOn = false;
    on.enabledPipelines = {"mine"};
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, ""));
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, "other"));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, "mine"));
    EXPECT_TRUE(pipelineIsValidated(on, kEnabled, "other"));
}

// Test that an override replaces the environment's settings and can be removed.
TEST(ShaderValidationSettings, OverrideAndRestore) {
    const ShaderValidationSettings original = shaderValidationSettings();
    ShaderValidationSettings changed = original;
    changed.enabled = !original.enabled;
    changed.failMode = FailMode::Allow;
    overrideShaderValidationSettings(changed);
    EXPECT_EQ(shaderValidationSettings().enabled, changed.enabled);
    EXPECT_EQ(shaderValidationSettings().failMode, FailMode::Allow);
    overrideShaderValidationSettings(std::nullopt);
    EXPECT_EQ(shaderValidationSettings().enabled, original.enabled);
}

} // namespace
} // namespace metalcpu::val
