// The settings holders of Metal 4's command and compilation objects: MTL4::CommandQueueDescriptor,
// CommandAllocatorDescriptor, CommandBufferOptions, CommitOptions, ArgumentTableDescriptor,
// CounterHeapDescriptor, CompilerDescriptor, CompilerTaskOptions,
// PipelineDataSetSerializerDescriptor and BinaryFunctionDescriptor. The command objects they
// describe are in metal4_commands.cpp, the compiler in metal4_compiler.cpp; counter heaps,
// pipeline data set serializers and binary functions are not made yet (their descriptors only
// hold settings).
#include "api/blocks.h"
#include "api/metal4_descriptors.h"
#include "api/settings.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>
#include <Metal/MTL4ArgumentTable.hpp>
#include <Metal/MTL4BinaryFunctionDescriptor.hpp>
#include <Metal/MTL4CommandAllocator.hpp>
#include <Metal/MTL4CommandBuffer.hpp>
#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTL4Compiler.hpp>
#include <Metal/MTL4Counters.hpp>
#include <Metal/MTL4FunctionDescriptor.hpp>
#include <Metal/MTL4PipelineDataSetSerializer.hpp>
#include <Metal/MTLLogState.hpp>

#include <vector>

namespace metalcpu::api {

/// The feedback handlers to call when a commit has finished (Mtl4CommandQueue::commit).
class CommitOptions final : public ns::Implements<MTL4::CommitOptions> {
public:
    const char* className() const override { return "MTL4CommitOptions"; }
    std::vector<MTL4::CommitFeedbackHandlerFunction> feedbackHandlers;
};

std::vector<MTL4::CommitFeedbackHandlerFunction> feedbackHandlersOf(const MTL4::CommitOptions* options) {
    auto* self = ns::implOf<CommitOptions>(options);
    return self ? self->feedbackHandlers : std::vector<MTL4::CommitFeedbackHandlerFunction>{};
}

namespace {

class CommandQueueDescriptor final : public Settings<CommandQueueDescriptor, MTL4::CommandQueueDescriptor> {
public:
    const char* className() const override { return "MTL4CommandQueueDescriptor"; }
    struct State {
        Property<NS::String> label;
    } state;
};

class CommandAllocatorDescriptor final
    : public Settings<CommandAllocatorDescriptor, MTL4::CommandAllocatorDescriptor> {
public:
    const char* className() const override { return "MTL4CommandAllocatorDescriptor"; }
    struct State {
        Property<NS::String> label;
    } state;
};

class CommandBufferOptions final : public Settings<CommandBufferOptions, MTL4::CommandBufferOptions> {
public:
    const char* className() const override { return "MTL4CommandBufferOptions"; }
    struct State {
        Property<MTL::LogState, Keep::Retain> logState;
    } state;
};


class ArgumentTableDescriptor final : public Settings<ArgumentTableDescriptor, MTL4::ArgumentTableDescriptor> {
public:
    const char* className() const override { return "MTL4ArgumentTableDescriptor"; }
    struct State {
        Property<NS::String> label;
        NS::UInteger maxBufferBindCount = 0;
        NS::UInteger maxTextureBindCount = 0;
        NS::UInteger maxSamplerStateBindCount = 0;
        bool initializeBindings = false;
        bool supportAttributeStrides = false;
    } state;
};

class CounterHeapDescriptor final : public Settings<CounterHeapDescriptor, MTL4::CounterHeapDescriptor> {
public:
    const char* className() const override { return "MTL4CounterHeapDescriptor"; }
    struct State {
        MTL4::CounterHeapType type = MTL4::CounterHeapTypeInvalid;
        NS::UInteger count = 0;
    } state;
};

class CompilerDescriptor final : public Settings<CompilerDescriptor, MTL4::CompilerDescriptor> {
public:
    const char* className() const override { return "MTL4CompilerDescriptor"; }
    struct State {
        Property<NS::String> label;
        Property<MTL4::PipelineDataSetSerializer, Keep::Retain> pipelineDataSetSerializer;
    } state;
};

class CompilerTaskOptions final : public Settings<CompilerTaskOptions, MTL4::CompilerTaskOptions> {
public:
    const char* className() const override { return "MTL4CompilerTaskOptions"; }
    struct State {
        Property<NS::Array> lookupArchives;
    } state;
};

class PipelineDataSetSerializerDescriptor final
    : public Settings<PipelineDataSetSerializerDescriptor, MTL4::PipelineDataSetSerializerDescriptor> {
public:
    const char* className() const override { return "MTL4PipelineDataSetSerializerDescriptor"; }
    struct State {
        MTL4::PipelineDataSetSerializerConfiguration configuration = 0;
    } state;
};

class BinaryFunctionDescriptor final : public Settings<BinaryFunctionDescriptor, MTL4::BinaryFunctionDescriptor> {
public:
    const char* className() const override { return "MTL4BinaryFunctionDescriptor"; }
    struct State {
        Property<NS::String> name;
        Property<MTL4::FunctionDescriptor> functionDescriptor;
        MTL4::BinaryFunctionOptions options = MTL4::BinaryFunctionOptionNone;
    } state;
};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;

METALCPU_ALLOC_INIT(MTL4::CommandQueueDescriptor, api::CommandQueueDescriptor)
METALCPU_OBJECT(MTL4::CommandQueueDescriptor, api::CommandQueueDescriptor, NS::String, label, setLabel, label)

METALCPU_ALLOC_INIT(MTL4::CommandAllocatorDescriptor, api::CommandAllocatorDescriptor)
METALCPU_OBJECT(MTL4::CommandAllocatorDescriptor, api::CommandAllocatorDescriptor, NS::String, label, setLabel, label)

METALCPU_ALLOC_INIT(MTL4::CommandBufferOptions, api::CommandBufferOptions)
METALCPU_OBJECT(MTL4::CommandBufferOptions, api::CommandBufferOptions, MTL::LogState, logState, setLogState,
                logState)

METALCPU_ALLOC_INIT(MTL4::CommitOptions, api::CommitOptions)
void MTL4::CommitOptions::addFeedbackHandler(const CommitFeedbackHandlerFunction& function) {
    if (auto* self = metalcpu::ns::implOf<api::CommitOptions>(this); self && function)
        self->feedbackHandlers.push_back(function);
}
#if defined(__BLOCKS__)
void MTL4::CommitOptions::addFeedbackHandler(const CommitFeedbackHandler block) {
    if (metalcpu::ns::implOf<api::CommitOptions>(this))
        addFeedbackHandler(CommitFeedbackHandlerFunction(api::functionOf(block)));
}
#endif

METALCPU_ALLOC_INIT(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor)
METALCPU_OBJECT(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, NS::String, label, setLabel, label)
METALCPU_VALUE(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, NS::UInteger, maxBufferBindCount,
               setMaxBufferBindCount, maxBufferBindCount)
METALCPU_VALUE(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, NS::UInteger, maxTextureBindCount,
               setMaxTextureBindCount, maxTextureBindCount)
METALCPU_VALUE(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, NS::UInteger, maxSamplerStateBindCount,
               setMaxSamplerStateBindCount, maxSamplerStateBindCount)
METALCPU_VALUE(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, bool, initializeBindings,
               setInitializeBindings, initializeBindings)
METALCPU_VALUE(MTL4::ArgumentTableDescriptor, api::ArgumentTableDescriptor, bool, supportAttributeStrides,
               setSupportAttributeStrides, supportAttributeStrides)

METALCPU_ALLOC_INIT(MTL4::CounterHeapDescriptor, api::CounterHeapDescriptor)
METALCPU_VALUE(MTL4::CounterHeapDescriptor, api::CounterHeapDescriptor, MTL4::CounterHeapType, type, setType, type)
METALCPU_VALUE(MTL4::CounterHeapDescriptor, api::CounterHeapDescriptor, NS::UInteger, count, setCount, count)

METALCPU_ALLOC_INIT(MTL4::CompilerDescriptor, api::CompilerDescriptor)
METALCPU_OBJECT(MTL4::CompilerDescriptor, api::CompilerDescriptor, NS::String, label, setLabel, label)
METALCPU_OBJECT(MTL4::CompilerDescriptor, api::CompilerDescriptor, MTL4::PipelineDataSetSerializer,
                pipelineDataSetSerializer, setPipelineDataSetSerializer, pipelineDataSetSerializer)

METALCPU_ALLOC_INIT(MTL4::CompilerTaskOptions, api::CompilerTaskOptions)
METALCPU_OBJECT(MTL4::CompilerTaskOptions, api::CompilerTaskOptions, NS::Array, lookupArchives, setLookupArchives,
                lookupArchives)

METALCPU_ALLOC_INIT(MTL4::PipelineDataSetSerializerDescriptor, api::PipelineDataSetSerializerDescriptor)
METALCPU_VALUE(MTL4::PipelineDataSetSerializerDescriptor, api::PipelineDataSetSerializerDescriptor,
               MTL4::PipelineDataSetSerializerConfiguration, configuration, setConfiguration, configuration)

METALCPU_ALLOC_INIT(MTL4::BinaryFunctionDescriptor, api::BinaryFunctionDescriptor)
METALCPU_OBJECT(MTL4::BinaryFunctionDescriptor, api::BinaryFunctionDescriptor, NS::String, name, setName, name)
METALCPU_OBJECT(MTL4::BinaryFunctionDescriptor, api::BinaryFunctionDescriptor, MTL4::FunctionDescriptor,
                functionDescriptor, setFunctionDescriptor, functionDescriptor)
METALCPU_VALUE(MTL4::BinaryFunctionDescriptor, api::BinaryFunctionDescriptor, MTL4::BinaryFunctionOptions, options,
               setOptions, options)
