// Tests of validation/settings: which pipelines are instrumented.
#include "validation/settings.h"

#include "support/config.h"
#include "support/files.h"

#include "scoped_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

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

/// The text of docs/configuration.md from `heading` to the next heading.
std::string docSection(const std::string& heading) {
    const std::string doc = support::readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    const std::size_t begin = doc.find("\n## " + heading + "\n");
    if (begin == std::string::npos) return "";
    return doc.substr(begin, doc.find("\n## ", begin + 1) - begin);
}

/// docs/configuration.md's row for an ignored variable, as apple_variables.def makes it.
std::string ignoredRow(const AppleVariable& variable) {
    const std::string harmless = *variable.harmless ? std::string("`") + variable.harmless + "`" : "(none)";
    return std::string("| `") + variable.name + "` | " + harmless + " | " + variable.whyNot + " |";
}

// Test that docs/configuration.md has a row for every variable of apple_variables.def in the
// table of its status — the ignored ones exactly as the list has them — and no row for an
// Apple variable the list lacks.
TEST(AppleVariables, EveryOneIsDocumentedInItsTable) {
    const std::string implemented =
        docSection("Apple's shader-validation variables") + docSection("Apple's API-validation variables");
    const std::string ignored = docSection("Apple's variables metalcpu does not implement");
    ASSERT_FALSE(implemented.empty());
    ASSERT_FALSE(ignored.empty());
    for (const AppleVariable& variable : appleVariables()) {
        const std::string cell = std::string("| `") + variable.name + "` |";
        if (variable.status == AppleVariableStatus::Implemented) {
            EXPECT_NE(implemented.find(cell), std::string::npos) << variable.name << " is missing";
            EXPECT_EQ(ignored.find(cell), std::string::npos) << variable.name << " is implemented";
        } else {
            EXPECT_NE(ignored.find(ignoredRow(variable) + "\n"), std::string::npos) << ignoredRow(variable);
            EXPECT_EQ(implemented.find(cell), std::string::npos) << variable.name << " is not implemented";
        }
    }
    const std::regex row("\n\\| `((MTL|METAL)_[A-Z_]+)` \\|");
    const std::string tables = implemented + ignored;
    for (auto match = std::sregex_iterator(tables.begin(), tables.end(), row); match != std::sregex_iterator(); ++match)
        EXPECT_THAT(appleVariables(), ::testing::Contains(::testing::Field(&AppleVariable::name, ::testing::StrEq((*match)[1].str()))))
            << (*match)[1] << " is documented but not in validation/apple_variables.def";
}

// Test that the Apple variables support/config.def reads (the debug layer's) are the
// implemented ones of apple_variables.def that settings.cpp does not read itself.
TEST(AppleVariables, ConfigDefReadsTheImplementedDebugLayerOnes) {
    int count = 0;
    const support::ConfigEntry* entries = support::configEntries(&count);
    std::vector<std::string> fromConfig;
    for (int i = 0; i < count; ++i) {
        const std::string name = entries[i].variable;
        if ((name.rfind("MTL_", 0) == 0 || name.rfind("METAL_", 0) == 0) && name.rfind("MTL_LOG_", 0) != 0)
            fromConfig.push_back(name); // MTL_LOG_* are shader logging's, not validation's
    }
    std::vector<std::string> implementedDebugLayer;
    for (const AppleVariable& variable : appleVariables())
        if (variable.status == AppleVariableStatus::Implemented &&
            std::string(variable.name).rfind("MTL_SHADER_VALIDATION", 0) != 0)
            implementedDebugLayer.push_back(variable.name);
    EXPECT_THAT(fromConfig, ::testing::UnorderedElementsAreArray(implementedDebugLayer));
}

// Test that metalcpu's own validation variables read outside support/config.def have a row in
// docs/configuration.md too (config_test checks the ones in config.def).
TEST(MetalcpuVariables, ReadByValidationAreDocumented) {
    const std::string doc = support::readFile(std::string(METALCPU_SOURCE_DIR) + "/docs/configuration.md").value_or("");
    EXPECT_NE(doc.find("| `METALCPU_SHADER_VALIDATION_WAIT_LIMIT` | `60` |"), std::string::npos);
}

/// Sets `changes` (name, value; nullopt unsets) for the scope, after unsetting every
/// MTL_SHADER_VALIDATION* and MTL_DEBUG_LAYER* variable, and puts everything back after.
class AppleEnvironment {
public:
    explicit AppleEnvironment(const std::vector<std::pair<std::string, std::optional<std::string>>>& changes) {
        std::vector<std::string> present;
        for (char** entry = environ; entry && *entry; ++entry) {
            const std::string name = std::string(*entry).substr(0, std::string(*entry).find('='));
            if (name.rfind("MTL_SHADER_VALIDATION", 0) == 0 || name.rfind("MTL_DEBUG_LAYER", 0) == 0)
                present.push_back(name);
        }
        for (const std::string& name : present)
            scoped_.push_back(std::make_unique<metalcpu::testing::ScopedEnvironmentVariable>(name.c_str(), std::nullopt));
        for (const auto& [name, value] : changes)
            scoped_.push_back(std::make_unique<metalcpu::testing::ScopedEnvironmentVariable>(name.c_str(), value));
    }
    ~AppleEnvironment() {
        while (!scoped_.empty()) scoped_.pop_back(); // in reverse, so each restores what it found
    }

private:
    std::vector<std::unique_ptr<metalcpu::testing::ScopedEnvironmentVariable>> scoped_;
};

/// A value that asks for something of an ignored variable: anything but its harmless value.
std::string askingValue(const AppleVariable& variable) { return std::string(variable.harmless) == "1" ? "0" : "1"; }

// Test that, with both layers on, the ignored variables set to a value that asks for
// something are found in the environment's order, with unknown names of the two families,
// and that implemented, unrelated and empty ones are not.
TEST(AppleVariables, IgnoredOnesAskingForSomethingAreFound) {
    std::vector<std::pair<std::string, std::optional<std::string>>> changes;
    std::vector<std::string> ignored;
    for (const AppleVariable& variable : appleVariables())
        if (variable.status == AppleVariableStatus::Ignored) {
            changes.emplace_back(variable.name, askingValue(variable));
            ignored.push_back(variable.name);
        }
    changes.emplace_back("MTL_SHADER_VALIDATION_FAIL_MODE", "zerofill");
    changes.emplace_back("MTL_DEBUG_LAYER_ERROR_MODE", "nslog");
    changes.emplace_back("MTL_HUD_ENABLED", "1");
    changes.emplace_back("MTL_SHADER_VALIDATION_TYPO", "0");
    changes.emplace_back("MTL_DEBUG_LAYER_EMPTY", ""); // empty counts as unset, as for every variable
    AppleEnvironment environment(changes);
    ignored.push_back("MTL_SHADER_VALIDATION_TYPO");
    EXPECT_THAT(ignoredAppleVariablesSet(true, true), ::testing::UnorderedElementsAreArray(ignored));
}

// Test that an ignored variable is not found when set to its harmless value, or when its layer
// is off, and that the layers are told apart.
TEST(AppleVariables, HarmlessValuesAndLayersOffAreQuiet) {
    AppleEnvironment environment({{"MTL_SHADER_VALIDATION_TEXTURE_USAGE", "0"},
                                  {"MTL_SHADER_VALIDATION_DEVICE_MEMORY", "1"},
                                  {"MTL_SHADER_VALIDATION_COMPILER_INLINING", "default"},
                                  {"MTL_DEBUG_LAYER_WARNING_MODE", "ignore"},
                                  {"MTL_SHADER_VALIDATION_RESOURCE_USAGE", "1"},
                                  {"MTL_DEBUG_LAYER_VALIDATE_LOAD_ACTIONS", "1"}});
    EXPECT_THAT(ignoredAppleVariablesSet(true, true),
                ::testing::UnorderedElementsAre("MTL_SHADER_VALIDATION_RESOURCE_USAGE", "MTL_DEBUG_LAYER_VALIDATE_LOAD_ACTIONS"));
    EXPECT_THAT(ignoredAppleVariablesSet(true, false), ::testing::ElementsAre("MTL_SHADER_VALIDATION_RESOURCE_USAGE"));
    EXPECT_THAT(ignoredAppleVariablesSet(false, true), ::testing::ElementsAre("MTL_DEBUG_LAYER_VALIDATE_LOAD_ACTIONS"));
    EXPECT_THAT(ignoredAppleVariablesSet(false, false), ::testing::IsEmpty());
}

} // namespace
} // namespace metalcpu::val
