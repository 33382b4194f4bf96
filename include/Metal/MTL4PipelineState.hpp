// metalcpu: the common part of Metal 4 pipeline descriptors and their options.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLPipeline.hpp"

namespace MTL4 {

enum AlphaToOneState : NS::Integer {
    AlphaToOneStateDisabled = 0,
    AlphaToOneStateEnabled = 1,
};

enum AlphaToCoverageState : NS::Integer {
    AlphaToCoverageStateDisabled = 0,
    AlphaToCoverageStateEnabled = 1,
};

enum BlendState : NS::Integer {
    BlendStateDisabled = 0,
    BlendStateEnabled = 1,
    BlendStateUnspecialized = 2,
};

enum IndirectCommandBufferSupportState : NS::Integer {
    IndirectCommandBufferSupportStateDisabled = 0,
    IndirectCommandBufferSupportStateEnabled = 1,
};

using ShaderReflection = NS::UInteger;
enum : ShaderReflection {
    ShaderReflectionNone = 0,
    ShaderReflectionBindingInfo = 1,
    ShaderReflectionBufferTypeInfo = 1 << 1,
};

// Reflection and validation options of a pipeline.
class PipelineOptions : public NS::Copying<PipelineOptions> {
public:
    static PipelineOptions* alloc();
    PipelineOptions* init();

    ShaderReflection shaderReflection() const;
    void setShaderReflection(ShaderReflection shaderReflection);
    MTL::ShaderValidation shaderValidation() const;
    void setShaderValidation(MTL::ShaderValidation shaderValidation);
};

// The base of Metal 4 pipeline descriptors.
class PipelineDescriptor : public NS::Copying<PipelineDescriptor> {
public:
    static PipelineDescriptor* alloc();
    PipelineDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
    PipelineOptions* options() const;
    void setOptions(const PipelineOptions* options);
};

} // namespace MTL4
