// metalcpu: MTL4::Compiler, which builds libraries, functions and pipelines, synchronously or as
// tasks.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLDevice.hpp"

#include <functional>

namespace MTL {
class ComputePipelineState;
class Library;
} // namespace MTL

namespace MTL4 {

class BinaryFunction;
class BinaryFunctionDescriptor;
class CompilerTask;
class ComputePipelineDescriptor;
class LibraryDescriptor;
class PipelineDataSetSerializer;
class PipelineStageDynamicLinkingDescriptor;

using NewComputePipelineStateCompletionHandlerFunction = std::function<void(MTL::ComputePipelineState*, NS::Error*)>;
using NewBinaryFunctionCompletionHandlerFunction = std::function<void(BinaryFunction*, NS::Error*)>;
#if defined(__BLOCKS__)
using NewComputePipelineStateCompletionHandler = void (^)(MTL::ComputePipelineState*, NS::Error*);
using NewBinaryFunctionCompletionHandler = void (^)(BinaryFunction*, NS::Error*);
#endif

class CompilerDescriptor : public NS::Copying<CompilerDescriptor> {
public:
    static CompilerDescriptor* alloc();
    CompilerDescriptor* init();

    NS::String* label() const;
    void setLabel(const NS::String* label);
    PipelineDataSetSerializer* pipelineDataSetSerializer() const;
    void setPipelineDataSetSerializer(const PipelineDataSetSerializer* pipelineDataSetSerializer);
};

// Options of one compilation; may be nullptr wherever a compiler method takes it.
class CompilerTaskOptions : public NS::Copying<CompilerTaskOptions> {
public:
    static CompilerTaskOptions* alloc();
    CompilerTaskOptions* init();

    NS::Array* lookupArchives() const;
    void setLookupArchives(const NS::Array* lookupArchives);
};

// Builds libraries and pipelines. Each build has a synchronous form (NS::Error**) and
// asynchronous forms that return a CompilerTask and call a completion handler.
class Compiler : public NS::Referencing<Compiler> {
public:
    NS::String* label() const;
    MTL::Device* device() const;
    PipelineDataSetSerializer* pipelineDataSetSerializer() const;

    MTL::Library* newLibrary(const LibraryDescriptor* descriptor, NS::Error** error);
    CompilerTask* newLibrary(const LibraryDescriptor* pDescriptor,
                             const MTL::NewLibraryCompletionHandlerFunction& function);
#if defined(__BLOCKS__)
    CompilerTask* newLibrary(const LibraryDescriptor* descriptor,
                             const MTL::NewLibraryCompletionHandler completionHandler);
#endif

    MTL::ComputePipelineState* newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                       const CompilerTaskOptions* compilerTaskOptions,
                                                       NS::Error** error);
    MTL::ComputePipelineState* newComputePipelineState(
        const ComputePipelineDescriptor* descriptor,
        const PipelineStageDynamicLinkingDescriptor* dynamicLinkingDescriptor,
        const CompilerTaskOptions* compilerTaskOptions, NS::Error** error);
    CompilerTask* newComputePipelineState(const ComputePipelineDescriptor* pDescriptor,
                                          const CompilerTaskOptions* options,
                                          const NewComputePipelineStateCompletionHandlerFunction& function);
#if defined(__BLOCKS__)
    CompilerTask* newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                          const CompilerTaskOptions* compilerTaskOptions,
                                          const MTL::NewComputePipelineStateCompletionHandler completionHandler);
    CompilerTask* newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                          const PipelineStageDynamicLinkingDescriptor* dynamicLinkingDescriptor,
                                          const CompilerTaskOptions* compilerTaskOptions,
                                          const MTL::NewComputePipelineStateCompletionHandler completionHandler);
#endif

    BinaryFunction* newBinaryFunction(const BinaryFunctionDescriptor* descriptor,
                                      const CompilerTaskOptions* compilerTaskOptions, NS::Error** error);
#if defined(__BLOCKS__)
    CompilerTask* newBinaryFunction(const BinaryFunctionDescriptor* descriptor,
                                    const CompilerTaskOptions* compilerTaskOptions,
                                    const NewBinaryFunctionCompletionHandler completionHandler);
#endif
};

} // namespace MTL4
