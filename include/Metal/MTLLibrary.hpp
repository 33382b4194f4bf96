// metalcpu: Library, Function and CompileOptions.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDataType.hpp"
#include "MTLDefines.hpp"
#include "MTLFunctionDescriptor.hpp"
#include "MTLTypes.hpp"

#include <functional>

namespace MTL {

class Argument;
class ArgumentEncoder;
class Device;
class Function;
class FunctionConstantValues;

enum PatchType : NS::UInteger {
    PatchTypeNone = 0,
    PatchTypeTriangle = 1,
    PatchTypeQuad = 2,
};

enum FunctionType : NS::UInteger {
    FunctionTypeVertex = 1,
    FunctionTypeFragment = 2,
    FunctionTypeKernel = 3,
    FunctionTypeVisible = 5,
    FunctionTypeIntersection = 6,
    FunctionTypeMesh = 7,
    FunctionTypeObject = 8,
};

// The Metal Shading Language version: major << 16 | minor.
enum LanguageVersion : NS::UInteger {
    LanguageVersion1_0 = 65536,
    LanguageVersion1_1 = 65537,
    LanguageVersion1_2 = 65538,
    LanguageVersion2_0 = 131072,
    LanguageVersion2_1 = 131073,
    LanguageVersion2_2 = 131074,
    LanguageVersion2_3 = 131075,
    LanguageVersion2_4 = 131076,
    LanguageVersion3_0 = 196608,
    LanguageVersion3_1 = 196609,
    LanguageVersion3_2 = 196610,
    LanguageVersion4_0 = 262144,
    LanguageVersion4_1 = 262145,
};

enum LibraryType : NS::Integer {
    LibraryTypeExecutable = 0,
    LibraryTypeDynamic = 1,
};

enum LibraryOptimizationLevel : NS::Integer {
    LibraryOptimizationLevelDefault = 0,
    LibraryOptimizationLevelSize = 1,
};

enum CompileSymbolVisibility : NS::Integer {
    CompileSymbolVisibilityDefault = 0,
    CompileSymbolVisibilityHidden = 1,
};

enum MathMode : NS::Integer {
    MathModeSafe = 0,
    MathModeRelaxed = 1,
    MathModeFast = 2,
};

enum MathFloatingPointFunctions : NS::Integer {
    MathFloatingPointFunctionsFast = 0,
    MathFloatingPointFunctionsPrecise = 1,
};

enum FloatingPointConversionRoundingMode : NS::Integer {
    FloatingPointConversionRoundingModeToNearestEven = 0,
    FloatingPointConversionRoundingModeTowardZero = 1,
};

// The codes of library errors (compile failures, missing functions and files).
enum LibraryError : NS::UInteger {
    LibraryErrorUnsupported = 1,
    LibraryErrorInternal = 2,
    LibraryErrorCompileFailure = 3,
    LibraryErrorCompileWarning = 4,
    LibraryErrorFunctionNotFound = 5,
    LibraryErrorFileNotFound = 6,
};

using AutoreleasedArgument = Argument*;
using FunctionCompletionHandlerFunction = std::function<void(Function* pFunction, NS::Error* pError)>;

// A vertex-function input (render pipelines; reported for completeness).
class VertexAttribute : public NS::Referencing<VertexAttribute> {
public:
    static VertexAttribute* alloc();
    VertexAttribute* init();

    NS::String* name() const;
    NS::UInteger attributeIndex() const;
    DataType attributeType() const;
    bool isActive() const;
    [[deprecated("please use isActive instead")]] bool active() const;
    bool isPatchData() const;
    [[deprecated("please use isPatchData instead")]] bool patchData() const;
    bool isPatchControlPointData() const;
    [[deprecated("please use isPatchControlPointData instead")]] bool patchControlPointData() const;
};

// A [[stage_in]] attribute of a function.
class Attribute : public NS::Referencing<Attribute> {
public:
    static Attribute* alloc();
    Attribute* init();

    NS::String* name() const;
    NS::UInteger attributeIndex() const;
    DataType attributeType() const;
    bool isActive() const;
    [[deprecated("please use isActive instead")]] bool active() const;
    bool isPatchData() const;
    [[deprecated("please use isPatchData instead")]] bool patchData() const;
    bool isPatchControlPointData() const;
    [[deprecated("please use isPatchControlPointData instead")]] bool patchControlPointData() const;
};

// A [[function_constant]] declared by a function.
class FunctionConstant : public NS::Referencing<FunctionConstant> {
public:
    static FunctionConstant* alloc();
    FunctionConstant* init();

    NS::String* name() const;
    DataType type() const;
    NS::UInteger index() const;
    bool required() const;
};

// One function of a library, e.g. a kernel to build a compute pipeline from.
class Function : public NS::Referencing<Function> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);

    Device* device() const;
    NS::String* name() const;
    FunctionType functionType() const;
    FunctionOptions options() const;
    NS::Dictionary* functionConstantsDictionary() const;
    NS::Array* stageInputAttributes() const;
    NS::Array* vertexAttributes() const;
    PatchType patchType() const;
    NS::Integer patchControlPointCount() const;

    ArgumentEncoder* newArgumentEncoder(NS::UInteger bufferIndex);
    ArgumentEncoder* newArgumentEncoder(NS::UInteger bufferIndex, const AutoreleasedArgument* reflection);
};

// Options for compiling Metal Shading Language source at run time.
class CompileOptions : public NS::Copying<CompileOptions> {
public:
    static CompileOptions* alloc();
    CompileOptions* init();

    NS::Dictionary* preprocessorMacros() const;
    void setPreprocessorMacros(const NS::Dictionary* preprocessorMacros);
    LanguageVersion languageVersion() const;
    void setLanguageVersion(LanguageVersion languageVersion);

    bool fastMathEnabled() const;
    void setFastMathEnabled(bool fastMathEnabled);
    MathMode mathMode() const;
    void setMathMode(MathMode mathMode);
    MathFloatingPointFunctions mathFloatingPointFunctions() const;
    void setMathFloatingPointFunctions(MathFloatingPointFunctions mathFloatingPointFunctions);
    FloatingPointConversionRoundingMode floatingPointConversionRoundingMode() const;
    void setFloatingPointConversionRoundingMode(FloatingPointConversionRoundingMode floatingPointConversionRoundingMode);
    bool preserveInvariance() const;
    void setPreserveInvariance(bool preserveInvariance);
    LibraryOptimizationLevel optimizationLevel() const;
    void setOptimizationLevel(LibraryOptimizationLevel optimizationLevel);
    bool enableLogging() const;
    void setEnableLogging(bool enableLogging);

    NS::UInteger maxTotalThreadsPerThreadgroup() const;
    void setMaxTotalThreadsPerThreadgroup(NS::UInteger maxTotalThreadsPerThreadgroup);
    Size requiredThreadsPerThreadgroup() const;
    void setRequiredThreadsPerThreadgroup(Size requiredThreadsPerThreadgroup);

    LibraryType libraryType() const;
    void setLibraryType(LibraryType libraryType);
    NS::String* installName() const;
    void setInstallName(const NS::String* installName);
    NS::Array* libraries() const;
    void setLibraries(const NS::Array* libraries);
    CompileSymbolVisibility compileSymbolVisibility() const;
    void setCompileSymbolVisibility(CompileSymbolVisibility compileSymbolVisibility);
    bool allowReferencingUndefinedSymbols() const;
    void setAllowReferencingUndefinedSymbols(bool allowReferencingUndefinedSymbols);
};

// Reflection of a function's bindings without building a pipeline.
class FunctionReflection : public NS::Referencing<FunctionReflection> {
public:
    static FunctionReflection* alloc();
    FunctionReflection* init();

    NS::Array* bindings() const;
    NS::String* userAnnotation() const;
};

// A compiled library: a set of functions loaded from a metallib or compiled from source.
class Library : public NS::Referencing<Library> {
public:
    NS::String* label() const;
    void setLabel(const NS::String* label);

    Device* device() const;
    NS::Array* functionNames() const;
    LibraryType type() const;
    NS::String* installName() const;

    Function* newFunction(const NS::String* functionName);
    Function* newFunction(const NS::String* name, const FunctionConstantValues* constantValues, NS::Error** error);
    Function* newFunction(const FunctionDescriptor* descriptor, NS::Error** error);
    void newFunction(const NS::String* pFunctionName, const FunctionConstantValues* pConstantValues,
                     const FunctionCompletionHandlerFunction& completionHandler);
    void newFunction(const FunctionDescriptor* pDescriptor, const FunctionCompletionHandlerFunction& completionHandler);
#if defined(__BLOCKS__)
    void newFunction(const NS::String* name, const FunctionConstantValues* constantValues,
                     void (^completionHandler)(Function*, NS::Error*));
    void newFunction(const FunctionDescriptor* descriptor, void (^completionHandler)(Function*, NS::Error*));
#endif

    Function* newIntersectionFunction(const IntersectionFunctionDescriptor* descriptor, NS::Error** error);
    void newIntersectionFunction(const IntersectionFunctionDescriptor* pDescriptor,
                                 const FunctionCompletionHandlerFunction& completionHandler);
#if defined(__BLOCKS__)
    void newIntersectionFunction(const IntersectionFunctionDescriptor* descriptor,
                                 void (^completionHandler)(Function*, NS::Error*));
#endif

    FunctionReflection* reflectionForFunction(const NS::String* functionName);
};

} // namespace MTL
