// Metal 4 compilation objects: MTL4::Compiler and CompilerTask, Archive, BinaryFunction and
// PipelineDataSetSerializer. metalcpu cannot make them yet (the Device factories log once and
// return nullptr), so their methods only ever see nil; MTL::Device::newLibrary and
// newComputePipelineState build libraries and pipelines. The descriptors they take are settings
// holders (metal4_descriptors.cpp, metal4_pipelines.cpp).
#include "api/not_yet.h"

#include <Metal/MTL4Archive.hpp>
#include <Metal/MTL4BinaryFunction.hpp>
#include <Metal/MTL4Compiler.hpp>
#include <Metal/MTL4CompilerTask.hpp>
#include <Metal/MTL4PipelineDataSetSerializer.hpp>

NS::String* MTL4::Compiler::label() const { return nullptr; }
MTL::Device* MTL4::Compiler::device() const { return nullptr; }
MTL4::PipelineDataSetSerializer* MTL4::Compiler::pipelineDataSetSerializer() const { return nullptr; }
MTL::Library* MTL4::Compiler::newLibrary(const LibraryDescriptor*, NS::Error**) { return nullptr; }
MTL4::CompilerTask* MTL4::Compiler::newLibrary(const LibraryDescriptor*,
                                               const MTL::NewLibraryCompletionHandlerFunction&) {
    return nullptr;
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newLibrary(const LibraryDescriptor*, const MTL::NewLibraryCompletionHandler) {
    return nullptr;
}
#endif
MTL::ComputePipelineState* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor*,
                                                                   const CompilerTaskOptions*, NS::Error**) {
    return nullptr;
}
MTL::ComputePipelineState* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor*,
                                                                   const PipelineStageDynamicLinkingDescriptor*,
                                                                   const CompilerTaskOptions*, NS::Error**) {
    return nullptr;
}
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor*,
                                                            const CompilerTaskOptions*,
                                                            const NewComputePipelineStateCompletionHandlerFunction&) {
    return nullptr;
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor*,
                                                            const CompilerTaskOptions*,
                                                            const MTL::NewComputePipelineStateCompletionHandler) {
    return nullptr;
}
#endif
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newComputePipelineState(const ComputePipelineDescriptor*,
                                                            const PipelineStageDynamicLinkingDescriptor*,
                                                            const CompilerTaskOptions*,
                                                            const MTL::NewComputePipelineStateCompletionHandler) {
    return nullptr;
}
#endif
MTL4::BinaryFunction* MTL4::Compiler::newBinaryFunction(const BinaryFunctionDescriptor*, const CompilerTaskOptions*,
                                                        NS::Error**) {
    return nullptr;
}
#if defined(__BLOCKS__)
MTL4::CompilerTask* MTL4::Compiler::newBinaryFunction(const BinaryFunctionDescriptor*, const CompilerTaskOptions*,
                                                      const NewBinaryFunctionCompletionHandler) {
    return nullptr;
}
#endif

MTL4::Compiler* MTL4::CompilerTask::compiler() const { return nullptr; }
MTL4::CompilerTaskStatus MTL4::CompilerTask::status() const { return {}; }
void MTL4::CompilerTask::waitUntilCompleted() {}

NS::String* MTL4::Archive::label() const { return nullptr; }
void MTL4::Archive::setLabel(const NS::String*) {}
MTL4::BinaryFunction* MTL4::Archive::newBinaryFunction(const BinaryFunctionDescriptor*, NS::Error**) { return nullptr; }
MTL::ComputePipelineState* MTL4::Archive::newComputePipelineState(const ComputePipelineDescriptor*, NS::Error**) {
    return nullptr;
}
MTL::ComputePipelineState* MTL4::Archive::newComputePipelineState(const ComputePipelineDescriptor*,
                                                                  const PipelineStageDynamicLinkingDescriptor*,
                                                                  NS::Error**) {
    return nullptr;
}

NS::String* MTL4::BinaryFunction::name() const { return nullptr; }
MTL::FunctionType MTL4::BinaryFunction::functionType() const { return {}; }

bool MTL4::PipelineDataSetSerializer::serializeAsArchiveAndFlushToURL(const NS::URL*, NS::Error**) { return false; }
NS::Data* MTL4::PipelineDataSetSerializer::serializeAsPipelinesScript(NS::Error**) { return nullptr; }
