#pragma once

#include "foundation/object.h"
#include "jit/kernel_compiler.h"

#include <Metal/MTLLibrary.hpp>

namespace metalcpu::rt {

/// MTL::CompileOptions: how newLibrary(source) compiles. Defaults are Metal's: fast math
/// and the newest language version. The fields are the properties, one to one.
class CompileOptions final : public ns::Implements<MTL::CompileOptions> {
public:
    CompileOptions() = default;
    ~CompileOptions() override;
    const char* className() const override { return "MTLCompileOptions"; }
    ns::ObjectBase* copy() const override;

    MTL::MathMode mathMode = MTL::MathModeFast;
    MTL::MathFloatingPointFunctions mathFloatingPointFunctions = MTL::MathFloatingPointFunctionsFast;
    MTL::FloatingPointConversionRoundingMode conversionRoundingMode =
        MTL::FloatingPointConversionRoundingModeToNearestEven;
    MTL::LanguageVersion languageVersion = MTL::LanguageVersion3_2;
    /// Whether the program set languageVersion: where it did not, MTL4::Compiler compiles at
    /// the newest version, as Metal does (the classic newLibrary keeps 3.2: docs/msl-support.md).
    bool languageVersionSet = false;
    MTL::LibraryType libraryType = MTL::LibraryTypeExecutable;
    MTL::LibraryOptimizationLevel optimizationLevel = MTL::LibraryOptimizationLevelDefault;
    MTL::CompileSymbolVisibility symbolVisibility = MTL::CompileSymbolVisibilityDefault;
    bool preserveInvariance = false;
    bool enableLogging = false;
    bool allowReferencingUndefinedSymbols = false;
    NS::UInteger maxTotalThreadsPerThreadgroup = 0;
    MTL::Size requiredThreadsPerThreadgroup = MTL::Size(0, 0, 0);

    /// The deprecated fastMathEnabled property, as Apple defines it: true means mathMode fast
    /// and fast FP32 functions, false means mathMode safe and precise FP32 functions.
    void setFastMathEnabled(bool enabled);

    NS::Dictionary* preprocessorMacros() const { return preprocessorMacros_; }
    void setPreprocessorMacros(const NS::Dictionary* macros);
    NS::String* installName() const { return installName_; }
    void setInstallName(const NS::String* name);
    NS::Array* libraries() const { return libraries_; }
    void setLibraries(const NS::Array* libraries);

private:
    NS::Dictionary* preprocessorMacros_ = nullptr;
    NS::String* installName_ = nullptr;
    NS::Array* libraries_ = nullptr;
};

/// The compile settings `options` asks for (nullptr: Metal's defaults), at `defaultVersion`
/// unless the options set a language version.
jit::KernelCompileSettings compileSettingsOf(const MTL::CompileOptions* options,
                                             MTL::LanguageVersion defaultVersion = MTL::LanguageVersion3_2);

} // namespace metalcpu::rt
