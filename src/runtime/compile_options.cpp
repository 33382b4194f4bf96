#include "runtime/compile_options.h"

#include "foundation/factories.h"
#include "runtime/descriptors.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSDictionary.hpp>
#include <Foundation/NSNumber.hpp>
#include <Foundation/NSString.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace metalcpu::rt {
namespace {

/// Metal's language versions are major << 16 | minor; __METAL_VERSION__ is major*100+minor*10.
int metalVersionMacro(MTL::LanguageVersion version) {
    return static_cast<int>((version >> 16) * 100 + (version & 0xffff) * 10);
}

/// The text of a macro value: strings as written, numbers in their usual spelling.
std::string macroValue(NS::Object* value) {
    ns::ObjectBase* base = ns::ObjectBase::from(value);
    if (!base) return {};
    if (std::string(base->className()) == "NSString") return ns::stringOf(static_cast<NS::String*>(value));
    return ns::stringOf(static_cast<NS::Number*>(value)->stringValue());
}

} // namespace

CompileOptions::~CompileOptions() {
    if (preprocessorMacros_) preprocessorMacros_->release();
    if (installName_) installName_->release();
    if (libraries_) libraries_->release();
}

ns::ObjectBase* CompileOptions::copy() const {
    auto* made = ns::implOf<CompileOptions>(ns::make<CompileOptions>());
    made->mathMode = mathMode;
    made->mathFloatingPointFunctions = mathFloatingPointFunctions;
    made->conversionRoundingMode = conversionRoundingMode;
    made->languageVersion = languageVersion;
    made->languageVersionSet = languageVersionSet;
    made->libraryType = libraryType;
    made->optimizationLevel = optimizationLevel;
    made->symbolVisibility = symbolVisibility;
    made->preserveInvariance = preserveInvariance;
    made->enableLogging = enableLogging;
    made->allowReferencingUndefinedSymbols = allowReferencingUndefinedSymbols;
    made->maxTotalThreadsPerThreadgroup = maxTotalThreadsPerThreadgroup;
    made->requiredThreadsPerThreadgroup = requiredThreadsPerThreadgroup;
    made->setPreprocessorMacros(preprocessorMacros_);
    made->setInstallName(installName_);
    made->setLibraries(libraries_);
    return made;
}

void CompileOptions::setFastMathEnabled(bool enabled) {
    mathMode = enabled ? MTL::MathModeFast : MTL::MathModeSafe;
    mathFloatingPointFunctions = enabled ? MTL::MathFloatingPointFunctionsFast : MTL::MathFloatingPointFunctionsPrecise;
}

void CompileOptions::setPreprocessorMacros(const NS::Dictionary* macros) { assignRetained(preprocessorMacros_, macros); }
void CompileOptions::setInstallName(const NS::String* name) { assignRetained(installName_, name); }
void CompileOptions::setLibraries(const NS::Array* libraries) { assignRetained(libraries_, libraries); }

jit::KernelCompileSettings compileSettingsOf(const MTL::CompileOptions* options, MTL::LanguageVersion defaultVersion) {
    jit::KernelCompileSettings settings;
    settings.languageVersion = metalVersionMacro(defaultVersion);
    const CompileOptions* chosen = ns::implOf<CompileOptions>(options);
    if (!chosen) return settings;
    switch (chosen->mathMode) {
    case MTL::MathModeSafe:
        settings.mathMode = jit::MathMode::Safe;
        break;
    case MTL::MathModeRelaxed:
        settings.mathMode = jit::MathMode::Relaxed;
        break;
    default:
        settings.mathMode = jit::MathMode::Fast;
        break;
    }
    settings.mathFunctions = chosen->mathFloatingPointFunctions == MTL::MathFloatingPointFunctionsPrecise
                                 ? jit::MathFunctions::Precise
                                 : jit::MathFunctions::Fast;
    if (chosen->languageVersionSet) settings.languageVersion = metalVersionMacro(chosen->languageVersion);
    if (chosen->enableLogging) settings.macros.push_back(jit::kEnableLoggingMacro);
    if (NS::Dictionary* macros = chosen->preprocessorMacros()) {
        // In order of name: a dictionary has no order (an NSDictionary enumerates its keys in
        // an order of its own, not the one they were added in), so neither the -D list nor
        // the cache key may take one from it. A dictionary holds one value per key, so no
        // name is defined twice; the value orders only keys of the same text (keys that are
        // not strings, whose text is empty).
        std::vector<std::pair<std::string, std::string>> definitions;
        NS::Enumerator<NS::String>* keys = macros->keyEnumerator<NS::String>();
        while (NS::String* key = keys->nextObject())
            definitions.emplace_back(ns::stringOf(key), macroValue(macros->object(key)));
        std::sort(definitions.begin(), definitions.end());
        for (const auto& [name, value] : definitions)
            settings.macros.push_back(name + (value.empty() ? "" : "=" + value));
    }
    return settings;
}

} // namespace metalcpu::rt
