// Tests of validation/settings: which pipelines are instrumented.
#include "validation/settings.h"

#include "support/files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace metalcpu::val {
namespace {

constexpr int kDefault = 0, kEnabled = 1, kDisabled = 2;

PipelineIdentity unlabelled() { return {"", "0123456789abcdef"}; }
PipelineIdentity labelled(const char* label) { return {label, "fedcba9876543210"}; }

// Test that without MTL_SHADER_VALIDATION only an explicit descriptor request instruments,
// and the lists (which apply only with it on) change nothing.
TEST(PipelineIsValidated, OffUnlessTheDescriptorAsks) {
    ShaderValidationSettings off;
    off.disabledPipelines = {"skip me"};
    off.defaultOn = false;
    off.enabledPipelines = {"mine"};
    EXPECT_FALSE(pipelineIsValidated(off, kDefault, unlabelled()));
    EXPECT_FALSE(pipelineIsValidated(off, kDefault, labelled("mine")));
    EXPECT_FALSE(pipelineIsValidated(off, kDisabled, unlabelled()));
    EXPECT_TRUE(pipelineIsValidated(off, kEnabled, unlabelled()));
    EXPECT_TRUE(pipelineIsValidated(off, kEnabled, labelled("skip me")));
}

// Test that with the default state "all" every pipeline but the disabled ones is instrumented,
// and that the DISABLE list overrides a descriptor that asks, by label and by UID.
TEST(PipelineIsValidated, DefaultStateAll) {
    ShaderValidationSettings on;
    on.enabled = true;
    on.disabledPipelines = {"skip me", "0123456789abcdef"};
    on.enabledPipelines = {"other"}; // only relevant with the default state none
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, labelled("")));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, labelled("other")));
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, labelled("skip me")));
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, unlabelled())) << "listed by UID";
    EXPECT_FALSE(pipelineIsValidated(on, kEnabled, labelled("skip me"))) << "the list overrides the descriptor";
    EXPECT_FALSE(pipelineIsValidated(on, kDisabled, labelled("other")));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, labelled("skip"))) << "whole names only";
}

// Test that with the default state "none" only listed pipelines (by label or UID) and those
// whose descriptor asks are instrumented, and that the ENABLE list overrides a descriptor
// that disables.
TEST(PipelineIsValidated, DefaultStateNone) {
    ShaderValidationSettings on;
    on.enabled = true;
    on.defaultOn = false;
    on.enabledPipelines = {"mine", "0123456789abcdef"};
    on.disabledPipelines = {"other"}; // only relevant with the default state all
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, labelled("")));
    EXPECT_FALSE(pipelineIsValidated(on, kDefault, labelled("other")));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, labelled("mine")));
    EXPECT_TRUE(pipelineIsValidated(on, kDefault, unlabelled())) << "listed by UID";
    EXPECT_TRUE(pipelineIsValidated(on, kDisabled, labelled("mine"))) << "the list overrides the descriptor";
    EXPECT_TRUE(pipelineIsValidated(on, kEnabled, labelled("other")));
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

// ---- Apple's variables ---------------------------------------------------------------------------

/// Apple's validation variables metalcpu knows and ignores (docs/configuration.md lists them).
const char* const kUnimplemented[] = {
    "MTL_SHADER_VALIDATION_TEXTURE_USAGE",     "MTL_SHADER_VALIDATION_RESOURCE_USAGE",
    "MTL_SHADER_VALIDATION_STACK_OVERFLOW",    "MTL_SHADER_VALIDATION_REPORT_ALLOCATION_STACK_TRACE",
    "MTL_SHADER_VALIDATION_COMPILER_INLINING", "MTL_SHADER_VALIDATION_TENSOR_VALIDATION",
    "MTL_SHADER_VALIDATION_GENERIC_ADDRESS_SPACE", "MTL_SHADER_VALIDATION_NAN_INF",
    "MTL_SHADER_VALIDATION_DEVICE_MEMORY",     "MTL_SHADER_VALIDATION_MODE",
    "MTL_SHADER_VALIDATION_GPUOPT_ENABLE_RUNTIME_STACKTRACE", "MTL_DEBUG_LAYER_WARNING_MODE",
    "MTL_DEBUG_LAYER_VALIDATE_LOAD_ACTIONS",   "MTL_DEBUG_LAYER_VALIDATE_STORE_ACTIONS",
    "MTL_DEBUG_LAYER_VALIDATE_UNRETAINED_RESOURCES",
};

// Test that docs/configuration.md has a row for every Apple variable metalcpu implements and
// for every one it knows and ignores.
TEST(AppleVariables, EveryOneIsDocumented) {
    const std::string doc = support::readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    ASSERT_FALSE(doc.empty());
    EXPECT_THAT(implementedAppleVariables(), ::testing::Contains("MTL_SHADER_VALIDATION_DUMP_PIPELINES"));
    EXPECT_THAT(implementedAppleVariables(), ::testing::Contains("MTL_DEBUG_LAYER_ERROR_MODE"));
    for (const std::string& name : implementedAppleVariables())
        EXPECT_NE(doc.find("| `" + name + "` |"), std::string::npos) << name << " is missing from configuration.md";
    for (const char* name : kUnimplemented)
        EXPECT_NE(doc.find(std::string("| `") + name + "` |"), std::string::npos) << name << " is missing";
}

// Test that metalcpu's own validation variables read outside support/config.def have a row in
// docs/configuration.md too (config_test checks the ones in config.def).
TEST(MetalcpuVariables, ReadByValidationAreDocumented) {
    const std::string doc = support::readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    EXPECT_NE(doc.find("| `METALCPU_SHADER_VALIDATION_WAIT_LIMIT` | `60` |"), std::string::npos);
}

// Test that the variables set that metalcpu does not implement are found, in the environment's
// order, and that implemented and unrelated ones are not.
TEST(AppleVariables, UnimplementedOnesSetAreFound) {
    for (const char* name : kUnimplemented) unsetenv(name);
    EXPECT_THAT(unimplementedAppleVariables(), ::testing::IsEmpty());
    for (const char* name : kUnimplemented) setenv(name, "1", 1);
    setenv("MTL_SHADER_VALIDATION_FAIL_MODE", "zerofill", 1);
    setenv("MTL_DEBUG_LAYER_ERROR_MODE", "nslog", 1);
    setenv("MTL_HUD_ENABLED", "1", 1);
    setenv("MTL_SHADER_VALIDATION_TYPO", "1", 1);
    setenv("MTL_DEBUG_LAYER_EMPTY", "", 1); // empty counts as unset, as for every variable
    std::vector<std::string> found = unimplementedAppleVariables();
    for (const char* name : kUnimplemented) EXPECT_THAT(found, ::testing::Contains(name));
    EXPECT_THAT(found, ::testing::Contains("MTL_SHADER_VALIDATION_TYPO"));
    EXPECT_EQ(found.size(), std::size(kUnimplemented) + 1) << ::testing::PrintToString(found);
    for (const char* name : kUnimplemented) unsetenv(name);
    for (const char* name : {"MTL_SHADER_VALIDATION_FAIL_MODE", "MTL_DEBUG_LAYER_ERROR_MODE", "MTL_HUD_ENABLED",
                             "MTL_SHADER_VALIDATION_TYPO", "MTL_DEBUG_LAYER_EMPTY"})
        unsetenv(name);
}

} // namespace
} // namespace metalcpu::val
