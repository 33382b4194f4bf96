// Metal 4 compilation objects: MTL4::Compiler and CompilerTask (rt::Mtl4Compiler), and the
// ones metalcpu cannot make yet (Archive, BinaryFunction, PipelineDataSetSerializer: their
// factories log once and return nullptr, so their methods only ever see nil). The compiler
// resolves its descriptors (settings holders of metal4_descriptors.cpp and
// metal4_pipelines.cpp, read through their public getters) and builds with the device's own
// library and pipeline creation; the completion-handler forms run synchronously.
#include "api/blocks.h"
#include "api/not_yet.h"
#include "foundation/factories.h"
#include "runtime/compute_pipeline.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/library.h"
#include "runtime/mtl4_compiler.h"

#include <Metal/MTL4Archive.hpp>
#include <Metal/MTL4BinaryFunction.hpp>
#include <Metal/MTL4Compiler.hpp>
#include <Metal/MTL4CompilerTask.hpp>
#include <Metal/MTL4ComputePipeline.hpp>
#include <Metal/MTL4LibraryDescriptor.hpp>
#include <Metal/MTL4LibraryFunctionDescriptor.hpp>
#include <Metal/MTL4PipelineDataSetSerializer.hpp>
#include <Metal/MTL4PipelineState.hpp>
#include <Metal/MTL4SpecializedFunctionDescriptor.hpp>
#include <Metal/MTLLibrary.hpp>

#include <string>

namespace metalcpu::api {
namespace {

using rt::kPipelineErrorDomain;

/// The descriptor behind `descriptor` as the public subclass `Kind`, or nullptr.
template <class Kind>
const Kind* as(const MTL4::FunctionDescriptor* descriptor) {
    return dynamic_cast<const Kind*>(ns::ObjectBase::from(descriptor));
}

/// The function a function descriptor names (+1): a LibraryFunctionDescriptor's, or a
/// SpecializedFunctionDescriptor's made with its constant values; nullptr with an error.
MTL::Function* functionOf(const MTL4::FunctionDescriptor* descriptor, NS::Error** error) {
    const MTL4::FunctionDescriptor* named = descriptor;
    const MTL::FunctionConstantValues* constants = nullptr;
    if (auto* specialized = as<MTL4::SpecializedFunctionDescriptor>(descriptor)) {
        named = specialized->functionDescriptor();
        constants = specialized->constantValues();
    }
    auto* fromLibrary = as<MTL4::LibraryFunctionDescriptor>(named);
    if (!fromLibrary) {
        rt::setError(error, kPipelineErrorDomain, 1,
                     descriptor ? "the compute function descriptor is neither a LibraryFunctionDescriptor nor a "
                                  "SpecializedFunctionDescriptor of one (metalcpu has no other kind yet)"
                                : "the pipeline descriptor has no compute function descriptor");
        return nullptr;
    }
    MTL::Library* library = fromLibrary->library();
    NS::String* name = fromLibrary->name();
    if (!library || !name) {
        rt::setError(error, kPipelineErrorDomain, 1,
                     std::string("the LibraryFunctionDescriptor has no ") + (library ? "name" : "library"));
        return nullptr;
    }
    if (constants) return library->newFunction(name, constants, error);
    MTL::Function* function = library->newFunction(name);
    if (!function)
        rt::setError(error, kPipelineErrorDomain, 1,
                     "no function named '" + ns::stringOf(name) + "' in the LibraryFunctionDescriptor's library");
    return function;
}

MTL::ComputePipelineState* newPipeline(rt::Mtl4Compiler& compiler, const MTL4::ComputePipelineDescriptor* descriptor,
                                       NS::Error** error) {
    metalcpu::rt::clearError(error);
    if (!descriptor) {
        rt::setError(error, kPipelineErrorDomain, 1, "the compute pipeline descriptor is nil");
        return nullptr;
    }
    MTL::Function* function = functionOf(descriptor->computeFunctionDescriptor(), error);
    if (!function) return nullptr;
    // Metal 4 specializes through the descriptor, not Library::newFunction.
    if (!rt::unspecializedConstantsError(function,
                                         "wrap the LibraryFunctionDescriptor in an MTL4::SpecializedFunctionDescriptor "
                                         "with setConstantValues, and pass that to MTL4::Compiler",
                                         error)) {
        function->release();
        return nullptr;
    }
    // A required threadgroup size caps the pipeline's maximum, as Metal reports it.
    MTL4::PipelineOptions* options = descriptor->options();
    const MTL::ShaderValidation validation = options ? options->shaderValidation() : MTL::ShaderValidationDefault;
    MTL::ComputePipelineState* pipeline =
        rt::newComputePipelineState(compiler.device(), function, descriptor->label(),
                                    descriptor->maxTotalThreadsPerThreadgroup(), error, validation,
                                    descriptor->requiredThreadsPerThreadgroup());
    function->release();
    return pipeline;
}

MTL::Library* newLibrary(rt::Mtl4Compiler& compiler, const MTL4::LibraryDescriptor* descriptor, NS::Error** error,
                         rt::SourceCall call) {
    // Metal compiles at the newest language version unless the options name one; a Metal 4
    // program, which never needs to name it, gets 4.0 and with it <metal_tensor>. (The classic
    // newLibrary keeps 3.2, so that kernels testing __METAL_VERSION__ >= 400 keep their
    // verified paths: docs/msl-support.md.)
    MTL::Library* library = rt::newLibraryWithSource(compiler.device(), descriptor ? descriptor->source() : nullptr,
                                                     descriptor ? descriptor->options() : nullptr, error, call,
                                                     MTL::LanguageVersion4_0);
    // The descriptor's name is how tools show the library: its label.
    if (library && descriptor && descriptor->name()) library->setLabel(descriptor->name());
    return library;
}

MTL4::CompilerTask* finishedTask(rt::Mtl4Compiler& compiler) { return ns::make<rt::CompilerTask>(&compiler); }

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using metalcpu::ns::implOf;
using Comp = metalcpu::rt::Mtl4Compiler;
using Task = metalcpu::rt::CompilerTask;

NS::String* MTL4::Compiler::label() const {
    auto* self = implOf<Comp>(this);
    return self ? self->label().get() : nullptr;
}
MTL::Device* MTL4::Compiler::device() const {
    auto* self = implOf<Comp>(this);
    return self ? self->device() : nullptr;
}
MTL4::PipelineDataSetSerializer* MTL4::Compiler::pipelineDataSetSerializer() const {
    return metalcpu::ns::call<Comp>(this, &Comp::pipelineDataSetSerializer);
}
MTL::Library* MTL4::Compiler::newLibrary(const LibraryDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Comp>(this);
    return self ? api::newLibrary(*self, descriptor, error, metalcpu::rt::SourceCall::WithError) : nullptr;
}
MTL4::CompilerTask* MTL4::Compiler::newLibrary(const LibraryDescriptor* descriptor,
                                               const MTL::NewLibraryCompletionHandlerFunction& function) {
    auto* self = implOf<Comp>(this);
    if (!self) return nullptr;
    NS::Error* error = nullptr;
    MTL::Library* library =
        api::newLibrary(*self, descriptor, &error, metalcpu::rt::SourceCall::WithCompletionHandler);
    if (function) function(library, error);
    if (library) library->release();
    return api::finishedTask(*self);
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newLibrary(const LibraryDescriptor* descriptor,
                                               const MTL::NewLibraryCompletionHandler completionHandler) {
    return newLibrary(descriptor, MTL::NewLibraryCompletionHandlerFunction(api::functionOf(completionHandler)));
}
#endif
MTL::ComputePipelineState* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                                   const CompilerTaskOptions*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Comp>(this);
    return self ? api::newPipeline(*self, descriptor, error) : nullptr;
}
// metalcpu has no binary functions to link, so the linking descriptor changes nothing.
MTL::ComputePipelineState* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                                   const PipelineStageDynamicLinkingDescriptor*,
                                                                   const CompilerTaskOptions* options,
                                                                   NS::Error** error) {
    metalcpu::rt::clearError(error);
    return newComputePipelineState(descriptor, options, error);
}
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                            const CompilerTaskOptions*,
                                                            const NewComputePipelineStateCompletionHandlerFunction& function) {
    auto* self = implOf<Comp>(this);
    if (!self) return nullptr;
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = api::newPipeline(*self, descriptor, &error);
    if (function) function(pipeline, error);
    if (pipeline) pipeline->release();
    return api::finishedTask(*self);
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                            const CompilerTaskOptions* options,
                                                            const MTL::NewComputePipelineStateCompletionHandler completionHandler) {
    return newComputePipelineState(
        descriptor, options, NewComputePipelineStateCompletionHandlerFunction(api::functionOf(completionHandler)));
}
#endif
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                            const PipelineStageDynamicLinkingDescriptor*,
                                                            const CompilerTaskOptions* options,
                                                            const MTL::NewComputePipelineStateCompletionHandler completionHandler) {
    return newComputePipelineState(descriptor, options, completionHandler);
}
#endif
MTL4::BinaryFunction* MTL4::Compiler::newBinaryFunction(const BinaryFunctionDescriptor*, const CompilerTaskOptions*,
                                                        NS::Error** error) {
    metalcpu::rt::clearError(error);
    api::notYet<Comp>(this, "MTL4::Compiler::newBinaryFunction", error);
    return nullptr;
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newBinaryFunction(const BinaryFunctionDescriptor*, const CompilerTaskOptions*,
                                                      const NewBinaryFunctionCompletionHandler) {
    return nullptr;
}
#endif

MTL4::Compiler* MTL4::CompilerTask::compiler() const {
    auto* self = implOf<Task>(this);
    return self ? self->compiler() : nullptr;
}
MTL4::CompilerTaskStatus MTL4::CompilerTask::status() const { return metalcpu::ns::call<Task>(this, &Task::status); }
// Tasks finish before the call that returns them.
void MTL4::CompilerTask::waitUntilCompleted() {}

NS::String* MTL4::Archive::label() const { return nullptr; }
void MTL4::Archive::setLabel(const NS::String*) {}
MTL4::BinaryFunction* MTL4::Archive::newBinaryFunction(const BinaryFunctionDescriptor*, NS::Error** error) { metalcpu::rt::clearError(error); return nullptr; }
MTL::ComputePipelineState* MTL4::Archive::newComputePipelineState(const ComputePipelineDescriptor*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    return nullptr;
}
MTL::ComputePipelineState* MTL4::Archive::newComputePipelineState(const ComputePipelineDescriptor*,
                                                                  const PipelineStageDynamicLinkingDescriptor*,
                                                                  NS::Error** error) {
    metalcpu::rt::clearError(error);
    return nullptr;
}

NS::String* MTL4::BinaryFunction::name() const { return nullptr; }
MTL::FunctionType MTL4::BinaryFunction::functionType() const { return {}; }

bool MTL4::PipelineDataSetSerializer::serializeAsArchiveAndFlushToURL(const NS::URL*, NS::Error** error) { metalcpu::rt::clearError(error); return false; }
NS::Data* MTL4::PipelineDataSetSerializer::serializeAsPipelinesScript(NS::Error** error) { metalcpu::rt::clearError(error); return nullptr; }
