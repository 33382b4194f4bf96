// MTL::Library, MTL::Function and MTL::CompileOptions.
#include "api/function_constants.h"
#include "foundation/factories.h"
#include "runtime/compile_options.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/library.h"

#include <Foundation/NSString.hpp>
#include <Metal/MTLLibrary.hpp>

using metalcpu::ns::implOf;
using Lib = metalcpu::rt::Library;
using Fn = metalcpu::rt::Function;
using Options = metalcpu::rt::CompileOptions;

NS::String* MTL::Library::label() const {
    auto* self = implOf<Lib>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::Library::setLabel(const NS::String* label) {
    if (auto* self = implOf<Lib>(this)) self->label().set(label);
}
MTL::Device* MTL::Library::device() const {
    auto* self = implOf<Lib>(this);
    return self ? self->device() : nullptr;
}
NS::Array* MTL::Library::functionNames() const {
    auto* self = implOf<Lib>(this);
    return self ? self->functionNames() : nullptr;
}
MTL::LibraryType MTL::Library::type() const { return LibraryTypeExecutable; }
NS::String* MTL::Library::installName() const { return nullptr; }
MTL::Function* MTL::Library::newFunction(const NS::String* functionName) {
    auto* self = implOf<Lib>(this);
    return self ? self->newFunction(metalcpu::ns::stringOf(functionName)) : nullptr;
}
MTL::Function* MTL::Library::newFunction(const NS::String* name, const FunctionConstantValues* constantValues,
                                         NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Lib>(this);
    if (!self) return nullptr;
    if (const metalcpu::jit::ConstantValues* values = metalcpu::api::constantValuesOf(constantValues))
        return self->newFunction(metalcpu::ns::stringOf(name), *values, error);
    MTL::Function* function = self->newFunction(metalcpu::ns::stringOf(name));
    if (function || !error) return function;
    const std::string render = self->renderFunctionRefusal(metalcpu::ns::stringOf(name));
    *error = metalcpu::ns::autoreleased(metalcpu::ns::makeError(
        "MTLLibraryErrorDomain", render.empty() ? LibraryErrorFunctionNotFound : LibraryErrorUnsupported,
        render.empty() ? "Function " + metalcpu::ns::stringOf(name) + " was not found in the library" : render));
    return function;
}

NS::String* MTL::Function::label() const {
    auto* self = implOf<Fn>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::Function::setLabel(const NS::String* label) {
    if (auto* self = implOf<Fn>(this)) self->label().set(label);
}
MTL::Device* MTL::Function::device() const {
    auto* self = implOf<Fn>(this);
    return self ? self->device() : nullptr;
}
NS::String* MTL::Function::name() const {
    auto* self = implOf<Fn>(this);
    return self ? self->name() : nullptr;
}
MTL::FunctionType MTL::Function::functionType() const {
    return implOf<Fn>(this) ? FunctionTypeKernel : FunctionType(0);
}
MTL::FunctionOptions MTL::Function::options() const { return 0; }

MTL::CompileOptions* MTL::CompileOptions::alloc() { return metalcpu::ns::make<Options>(); }
MTL::CompileOptions* MTL::CompileOptions::init() { return implOf<Options>(this) ? this : nullptr; }

#define METALCPU_OPTION(getter, setter, Type, field)                        \
    Type MTL::CompileOptions::getter() const {                              \
        auto* self = implOf<Options>(this);                                 \
        return self ? self->field : Type{};                                 \
    }                                                                       \
    void MTL::CompileOptions::setter(Type value) {                          \
        if (auto* self = implOf<Options>(this)) self->field = value;        \
    }
MTL::LanguageVersion MTL::CompileOptions::languageVersion() const {
    auto* self = implOf<Options>(this);
    return self ? self->languageVersion : LanguageVersion{};
}
void MTL::CompileOptions::setLanguageVersion(LanguageVersion value) {
    if (auto* self = implOf<Options>(this)) {
        self->languageVersion = value;
        self->languageVersionSet = true;
    }
}
METALCPU_OPTION(mathMode, setMathMode, MTL::MathMode, mathMode)
METALCPU_OPTION(mathFloatingPointFunctions, setMathFloatingPointFunctions, MTL::MathFloatingPointFunctions,
                mathFloatingPointFunctions)
METALCPU_OPTION(floatingPointConversionRoundingMode, setFloatingPointConversionRoundingMode,
                MTL::FloatingPointConversionRoundingMode, conversionRoundingMode)
METALCPU_OPTION(preserveInvariance, setPreserveInvariance, bool, preserveInvariance)
METALCPU_OPTION(optimizationLevel, setOptimizationLevel, MTL::LibraryOptimizationLevel, optimizationLevel)
METALCPU_OPTION(enableLogging, setEnableLogging, bool, enableLogging)
METALCPU_OPTION(maxTotalThreadsPerThreadgroup, setMaxTotalThreadsPerThreadgroup, NS::UInteger,
                maxTotalThreadsPerThreadgroup)
METALCPU_OPTION(requiredThreadsPerThreadgroup, setRequiredThreadsPerThreadgroup, MTL::Size,
                requiredThreadsPerThreadgroup)
METALCPU_OPTION(libraryType, setLibraryType, MTL::LibraryType, libraryType)
METALCPU_OPTION(compileSymbolVisibility, setCompileSymbolVisibility, MTL::CompileSymbolVisibility, symbolVisibility)
METALCPU_OPTION(allowReferencingUndefinedSymbols, setAllowReferencingUndefinedSymbols, bool,
                allowReferencingUndefinedSymbols)
#undef METALCPU_OPTION

bool MTL::CompileOptions::fastMathEnabled() const {
    auto* self = implOf<Options>(this);
    return self && self->mathMode == MathModeFast;
}
void MTL::CompileOptions::setFastMathEnabled(bool fastMathEnabled) {
    if (auto* self = implOf<Options>(this)) self->setFastMathEnabled(fastMathEnabled);
}
NS::Dictionary* MTL::CompileOptions::preprocessorMacros() const {
    auto* self = implOf<Options>(this);
    return self ? self->preprocessorMacros() : nullptr;
}
void MTL::CompileOptions::setPreprocessorMacros(const NS::Dictionary* preprocessorMacros) {
    if (auto* self = implOf<Options>(this)) self->setPreprocessorMacros(preprocessorMacros);
}
NS::String* MTL::CompileOptions::installName() const {
    auto* self = implOf<Options>(this);
    return self ? self->installName() : nullptr;
}
void MTL::CompileOptions::setInstallName(const NS::String* installName) {
    if (auto* self = implOf<Options>(this)) self->setInstallName(installName);
}
NS::Array* MTL::CompileOptions::libraries() const {
    auto* self = implOf<Options>(this);
    return self ? self->libraries() : nullptr;
}
void MTL::CompileOptions::setLibraries(const NS::Array* libraries) {
    if (auto* self = implOf<Options>(this)) self->setLibraries(libraries);
}
