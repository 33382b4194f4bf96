// The settings that describe Metal 4 pipelines and functions: MTL4::PipelineOptions,
// PipelineDescriptor and its subclass ComputePipelineDescriptor, FunctionDescriptor and its
// subclasses LibraryFunctionDescriptor and SpecializedFunctionDescriptor, LibraryDescriptor,
// StaticLinkingDescriptor and PipelineStageDynamicLinkingDescriptor. MTL4::Compiler builds
// libraries and compute pipelines from them (metal4_compiler.cpp); the linking descriptors are
// settings only.
#include "api/settings.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSDictionary.hpp>
#include <Foundation/NSString.hpp>
#include <Metal/MTL4ComputePipeline.hpp>
#include <Metal/MTL4FunctionDescriptor.hpp>
#include <Metal/MTL4LibraryDescriptor.hpp>
#include <Metal/MTL4LibraryFunctionDescriptor.hpp>
#include <Metal/MTL4LinkingDescriptor.hpp>
#include <Metal/MTL4PipelineState.hpp>
#include <Metal/MTL4SpecializedFunctionDescriptor.hpp>
#include <Metal/MTLFunctionConstantValues.hpp>
#include <Metal/MTLLibrary.hpp>

namespace metalcpu::api {
namespace {

class PipelineOptions final : public Settings<PipelineOptions, MTL4::PipelineOptions> {
public:
    const char* className() const override { return "MTL4PipelineOptions"; }
    struct State {
        MTL4::ShaderReflection shaderReflection = MTL4::ShaderReflectionNone;
        MTL::ShaderValidation shaderValidation = MTL::ShaderValidationDefault;
    } state;
};

/// What every pipeline descriptor has.
class PipelineDescriptorCore : public ns::ObjectBase {
public:
    struct Base {
        Property<NS::String> label;
        Property<MTL4::PipelineOptions, Keep::Retain> options;
    } base;
};

class PipelineDescriptor final : public Settings<PipelineDescriptor, MTL4::PipelineDescriptor, PipelineDescriptorCore> {
public:
    const char* className() const override { return "MTL4PipelineDescriptor"; }
};

class ComputePipelineDescriptor final
    : public Settings<ComputePipelineDescriptor, MTL4::ComputePipelineDescriptor, PipelineDescriptorCore> {
public:
    const char* className() const override { return "MTL4ComputePipelineDescriptor"; }
    struct State {
        Property<MTL4::FunctionDescriptor> computeFunctionDescriptor;
        NS::UInteger maxTotalThreadsPerThreadgroup = 0;
        MTL::Size requiredThreadsPerThreadgroup = MTL::Size(0, 0, 0);
        bool threadGroupSizeIsMultipleOfThreadExecutionWidth = false;
        Property<MTL4::StaticLinkingDescriptor> staticLinkingDescriptor;
        bool supportBinaryLinking = false;
        MTL4::IndirectCommandBufferSupportState supportIndirectCommandBuffers =
            MTL4::IndirectCommandBufferSupportStateDisabled;
    } state;
};

/// The base of the function descriptors; it has no settings of its own.
class FunctionDescriptorCore : public ns::ObjectBase {};

class FunctionDescriptor final : public Settings<FunctionDescriptor, MTL4::FunctionDescriptor, FunctionDescriptorCore> {
public:
    const char* className() const override { return "MTL4FunctionDescriptor"; }
};

class LibraryFunctionDescriptor final
    : public Settings<LibraryFunctionDescriptor, MTL4::LibraryFunctionDescriptor, FunctionDescriptorCore> {
public:
    const char* className() const override { return "MTL4LibraryFunctionDescriptor"; }
    struct State {
        Property<MTL::Library, Keep::Retain> library;
        Property<NS::String> name;
    } state;
};

class SpecializedFunctionDescriptor final
    : public Settings<SpecializedFunctionDescriptor, MTL4::SpecializedFunctionDescriptor, FunctionDescriptorCore> {
public:
    const char* className() const override { return "MTL4SpecializedFunctionDescriptor"; }
    struct State {
        Property<MTL4::FunctionDescriptor> functionDescriptor;
        Property<MTL::FunctionConstantValues> constantValues;
        Property<NS::String> specializedName;
    } state;
};

class LibraryDescriptor final : public Settings<LibraryDescriptor, MTL4::LibraryDescriptor> {
public:
    const char* className() const override { return "MTL4LibraryDescriptor"; }
    struct State {
        Property<NS::String> source;
        Property<MTL::CompileOptions> options;
        Property<NS::String> name;
    } state;
};

class StaticLinkingDescriptor final : public Settings<StaticLinkingDescriptor, MTL4::StaticLinkingDescriptor> {
public:
    const char* className() const override { return "MTL4StaticLinkingDescriptor"; }
    struct State {
        Property<NS::Array> functionDescriptors;
        Property<NS::Array> privateFunctionDescriptors;
        Property<NS::Dictionary> groups;
    } state;
};

class PipelineStageDynamicLinkingDescriptor final
    : public Settings<PipelineStageDynamicLinkingDescriptor, MTL4::PipelineStageDynamicLinkingDescriptor> {
public:
    const char* className() const override { return "MTL4PipelineStageDynamicLinkingDescriptor"; }
    struct State {
        Property<NS::Array> binaryLinkedFunctions;
        Property<NS::Array> preloadedLibraries;
        NS::UInteger maxCallStackDepth = 1;
    } state;
};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using metalcpu::ns::implOf;
using PipelineCore = api::PipelineDescriptorCore;
using FunctionCore = api::FunctionDescriptorCore;
using Compute = api::ComputePipelineDescriptor;

METALCPU_ALLOC_INIT(MTL4::PipelineOptions, api::PipelineOptions)
METALCPU_VALUE(MTL4::PipelineOptions, api::PipelineOptions, MTL4::ShaderReflection, shaderReflection,
               setShaderReflection, shaderReflection)
METALCPU_VALUE(MTL4::PipelineOptions, api::PipelineOptions, MTL::ShaderValidation, shaderValidation,
               setShaderValidation, shaderValidation)

MTL4::PipelineDescriptor* MTL4::PipelineDescriptor::alloc() { return metalcpu::ns::make<api::PipelineDescriptor>(); }
MTL4::PipelineDescriptor* MTL4::PipelineDescriptor::init() { return implOf<PipelineCore>(this) ? this : nullptr; }
METALCPU_OBJECT_IN(MTL4::PipelineDescriptor, PipelineCore, base, NS::String, label, setLabel, label)
METALCPU_OBJECT_IN(MTL4::PipelineDescriptor, PipelineCore, base, MTL4::PipelineOptions, options, setOptions, options)

METALCPU_ALLOC_INIT(MTL4::ComputePipelineDescriptor, Compute)
METALCPU_OBJECT(MTL4::ComputePipelineDescriptor, Compute, MTL4::FunctionDescriptor, computeFunctionDescriptor,
                setComputeFunctionDescriptor, computeFunctionDescriptor)
METALCPU_VALUE(MTL4::ComputePipelineDescriptor, Compute, NS::UInteger, maxTotalThreadsPerThreadgroup,
               setMaxTotalThreadsPerThreadgroup, maxTotalThreadsPerThreadgroup)
METALCPU_VALUE(MTL4::ComputePipelineDescriptor, Compute, MTL::Size, requiredThreadsPerThreadgroup,
               setRequiredThreadsPerThreadgroup, requiredThreadsPerThreadgroup)
METALCPU_VALUE(MTL4::ComputePipelineDescriptor, Compute, bool, threadGroupSizeIsMultipleOfThreadExecutionWidth,
               setThreadGroupSizeIsMultipleOfThreadExecutionWidth, threadGroupSizeIsMultipleOfThreadExecutionWidth)
METALCPU_OBJECT(MTL4::ComputePipelineDescriptor, Compute, MTL4::StaticLinkingDescriptor, staticLinkingDescriptor,
                setStaticLinkingDescriptor, staticLinkingDescriptor)
METALCPU_VALUE(MTL4::ComputePipelineDescriptor, Compute, bool, supportBinaryLinking, setSupportBinaryLinking,
               supportBinaryLinking)
METALCPU_VALUE(MTL4::ComputePipelineDescriptor, Compute, MTL4::IndirectCommandBufferSupportState,
               supportIndirectCommandBuffers, setSupportIndirectCommandBuffers, supportIndirectCommandBuffers)
// Everything back to the defaults, the label and options included.
void MTL4::ComputePipelineDescriptor::reset() {
    auto* self = implOf<Compute>(this);
    if (!self) return;
    self->state = {};
    self->base = {};
}

MTL4::FunctionDescriptor* MTL4::FunctionDescriptor::alloc() { return metalcpu::ns::make<api::FunctionDescriptor>(); }
MTL4::FunctionDescriptor* MTL4::FunctionDescriptor::init() { return implOf<FunctionCore>(this) ? this : nullptr; }

METALCPU_ALLOC_INIT(MTL4::LibraryFunctionDescriptor, api::LibraryFunctionDescriptor)
METALCPU_OBJECT(MTL4::LibraryFunctionDescriptor, api::LibraryFunctionDescriptor, MTL::Library, library, setLibrary,
                library)
METALCPU_OBJECT(MTL4::LibraryFunctionDescriptor, api::LibraryFunctionDescriptor, NS::String, name, setName, name)

METALCPU_ALLOC_INIT(MTL4::SpecializedFunctionDescriptor, api::SpecializedFunctionDescriptor)
METALCPU_OBJECT(MTL4::SpecializedFunctionDescriptor, api::SpecializedFunctionDescriptor, MTL4::FunctionDescriptor,
                functionDescriptor, setFunctionDescriptor, functionDescriptor)
METALCPU_OBJECT(MTL4::SpecializedFunctionDescriptor, api::SpecializedFunctionDescriptor, MTL::FunctionConstantValues,
                constantValues, setConstantValues, constantValues)
METALCPU_OBJECT(MTL4::SpecializedFunctionDescriptor, api::SpecializedFunctionDescriptor, NS::String, specializedName,
                setSpecializedName, specializedName)

METALCPU_ALLOC_INIT(MTL4::LibraryDescriptor, api::LibraryDescriptor)
METALCPU_OBJECT(MTL4::LibraryDescriptor, api::LibraryDescriptor, NS::String, source, setSource, source)
METALCPU_OBJECT(MTL4::LibraryDescriptor, api::LibraryDescriptor, MTL::CompileOptions, options, setOptions, options)
METALCPU_OBJECT(MTL4::LibraryDescriptor, api::LibraryDescriptor, NS::String, name, setName, name)

METALCPU_ALLOC_INIT(MTL4::StaticLinkingDescriptor, api::StaticLinkingDescriptor)
METALCPU_OBJECT(MTL4::StaticLinkingDescriptor, api::StaticLinkingDescriptor, NS::Array, functionDescriptors,
                setFunctionDescriptors, functionDescriptors)
METALCPU_OBJECT(MTL4::StaticLinkingDescriptor, api::StaticLinkingDescriptor, NS::Array, privateFunctionDescriptors,
                setPrivateFunctionDescriptors, privateFunctionDescriptors)
METALCPU_OBJECT(MTL4::StaticLinkingDescriptor, api::StaticLinkingDescriptor, NS::Dictionary, groups, setGroups,
                groups)

METALCPU_ALLOC_INIT(MTL4::PipelineStageDynamicLinkingDescriptor, api::PipelineStageDynamicLinkingDescriptor)
METALCPU_OBJECT(MTL4::PipelineStageDynamicLinkingDescriptor, api::PipelineStageDynamicLinkingDescriptor, NS::Array,
                binaryLinkedFunctions, setBinaryLinkedFunctions, binaryLinkedFunctions)
METALCPU_OBJECT(MTL4::PipelineStageDynamicLinkingDescriptor, api::PipelineStageDynamicLinkingDescriptor, NS::Array,
                preloadedLibraries, setPreloadedLibraries, preloadedLibraries)
METALCPU_VALUE(MTL4::PipelineStageDynamicLinkingDescriptor, api::PipelineStageDynamicLinkingDescriptor,
               NS::UInteger, maxCallStackDepth, setMaxCallStackDepth, maxCallStackDepth)
