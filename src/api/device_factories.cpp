// What MTL::Device makes: command queues, buffers, libraries, compute pipelines (with their
// completion-handler and block forms) and events; heaps, argument encoders, fences and shared
// event handles log once and return nullptr (not_yet.h). The Metal 4 objects are
// device_metal4.cpp; textures, samplers, tensors, log states and residency sets are made in
// their own files.
#include "api/argument_encoding.h"
#include "api/binding_reflection.h"
#include "api/blocks.h"
#include "api/not_yet.h"
#include "foundation/factories.h"
#include "runtime/command_queue.h"
#include "runtime/compute_pipeline.h"
#include "runtime/descriptors.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/library.h"
#include "runtime/log_state.h"
#include "runtime/shared_event.h"

#include <Foundation/NSString.hpp>
#include <Foundation/NSURL.hpp>
#include <Metal/MTLDevice.hpp>

namespace api = metalcpu::api;
using api::notYet;
using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

MTL::CommandQueue* MTL::Device::newCommandQueue() {
    auto* self = implOf<Dev>(this);
    return self ? self->newCommandQueue(64) : nullptr;
}
MTL::CommandQueue* MTL::Device::newCommandQueue(NS::UInteger maxCommandBufferCount) {
    auto* self = implOf<Dev>(this);
    return self ? self->newCommandQueue(maxCommandBufferCount) : nullptr;
}
MTL::CommandQueue* MTL::Device::newCommandQueue(const CommandQueueDescriptor* descriptor) {
    auto* self = implOf<Dev>(this);
    auto* settings = implOf<metalcpu::rt::CommandQueueDescriptor>(descriptor);
    if (!self) return nullptr;
    MTL::CommandQueue* queue = self->newCommandQueue(settings ? settings->maxCommandBufferCount : 64);
    if (auto* made = implOf<metalcpu::rt::CommandQueue>(queue); made && settings)
        made->setLogState(implOf<metalcpu::rt::LogState>(settings->logState));
    return queue;
}

MTL::Buffer* MTL::Device::newBuffer(NS::UInteger length, ResourceOptions options) {
    auto* self = implOf<Dev>(this);
    return self ? self->newBuffer(length, options) : nullptr;
}
MTL::Buffer* MTL::Device::newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options) {
    auto* self = implOf<Dev>(this);
    return self ? self->newBuffer(pointer, length, options) : nullptr;
}
MTL::Buffer* MTL::Device::newBuffer(NS::UInteger length, ResourceOptions options, SparsePageSize) {
    auto* self = implOf<Dev>(this);
    return self ? self->newBuffer(length, options) : nullptr;
}
MTL::Buffer* MTL::Device::newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options,
                                    const std::function<void(void*, NS::UInteger)>& deallocator) {
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    std::function<void(void*, std::uint64_t)> release;
    if (deallocator) release = [deallocator](void* memory, std::uint64_t length) { deallocator(memory, length); };
    return self->newBufferNoCopy(const_cast<void*>(pointer), length, options, std::move(release));
}

MTL::Library* MTL::Device::newDefaultLibrary() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newDefaultLibrary(self, nullptr) : nullptr;
}
MTL::Library* MTL::Device::newDefaultLibrary(const NS::Bundle*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newDefaultLibrary(self, error) : nullptr;
}
MTL::Library* MTL::Device::newLibrary(const NS::String* filepath, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newLibraryWithFile(self, metalcpu::ns::stringOf(filepath), error) : nullptr;
}
MTL::Library* MTL::Device::newLibrary(const NS::URL* url, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    const char* path = url ? url->fileSystemRepresentation() : nullptr;
    return metalcpu::rt::newLibraryWithFile(self, path ? path : "", error);
}
MTL::Library* MTL::Device::newLibrary(const dispatch_data_t data, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    const void* bytes = nullptr;
    std::size_t size = 0;
    dispatch_data_t contiguous = data ? dispatch_data_create_map(data, &bytes, &size) : nullptr;
    MTL::Library* library = metalcpu::rt::newLibraryWithData(self, bytes, size, error);
    if (contiguous) dispatch_release(contiguous);
    return library;
}
MTL::Library* MTL::Device::newLibrary(const NS::String* source, const CompileOptions* options, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newLibraryWithSource(self, source, options, error) : nullptr;
}
void MTL::Device::newLibrary(const NS::String* source, const CompileOptions* options,
                             const NewLibraryCompletionHandlerFunction& completionHandler) {
    // Compiles on the calling thread, then calls the handler, as a synchronous stand-in
    // for Metal's background compile; the handler sees the same results. Nil does nothing.
    auto* self = implOf<Dev>(this);
    if (!self) return;
    NS::Error* error = nullptr;
    MTL::Library* library = metalcpu::rt::newLibraryWithSource(self, source, options, &error,
                                                               metalcpu::rt::SourceCall::WithCompletionHandler);
    if (completionHandler) completionHandler(library, error);
    if (library) library->release();
}

MTL::ComputePipelineState* MTL::Device::newComputePipelineState(const Function* computeFunction, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newComputePipelineState(self, computeFunction, nullptr, 0, error) : nullptr;
}
namespace {
// The reflection newComputePipelineState hands back: the function's bindings when the options
// ask for them (PipelineOptionBindingInfo or BufferTypeInfo), else nil, as Metal gives.
void reflect(const MTL::Function* function, MTL::PipelineOption options, const MTL::ComputePipelineState* pipeline,
             const MTL::AutoreleasedComputePipelineReflection* reflection) {
    if (!reflection) return;
    auto* out = const_cast<MTL::AutoreleasedComputePipelineReflection*>(reflection);
    *out = nullptr;
    auto* kernelFunction = implOf<metalcpu::rt::Function>(function);
    if (!pipeline || !kernelFunction ||
        !(options & (MTL::PipelineOptionBindingInfo | MTL::PipelineOptionBufferTypeInfo)))
        return;
    *out = metalcpu::ns::autoreleased(metalcpu::api::newPipelineReflection(
        kernelFunction->kernel(), kernelFunction->library(), options & MTL::PipelineOptionBufferTypeInfo));
}
} // namespace

MTL::ComputePipelineState* MTL::Device::newComputePipelineState(const Function* computeFunction,
                                                                PipelineOption options,
                                                                const AutoreleasedComputePipelineReflection* reflection,
                                                                NS::Error** error) {
    metalcpu::rt::clearError(error);
    if (reflection) *const_cast<AutoreleasedComputePipelineReflection*>(reflection) = nullptr;
    auto* self = implOf<Dev>(this);
    MTL::ComputePipelineState* pipeline =
        self ? metalcpu::rt::newComputePipelineState(self, computeFunction, nullptr, 0, error) : nullptr;
    reflect(computeFunction, options, pipeline, reflection);
    return pipeline;
}
MTL::ComputePipelineState* MTL::Device::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                                PipelineOption options,
                                                                const AutoreleasedComputePipelineReflection* reflection,
                                                                NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    if (reflection) *const_cast<AutoreleasedComputePipelineReflection*>(reflection) = nullptr;
    auto* settings = implOf<metalcpu::rt::ComputePipelineDescriptor>(descriptor);
    if (!settings) return metalcpu::rt::newComputePipelineState(self, nullptr, nullptr, 0, error);
    MTL::ComputePipelineState* pipeline = metalcpu::rt::newComputePipelineState(
        self, settings->computeFunction, settings->label.get(), settings->maxTotalThreadsPerThreadgroup, error,
        settings->shaderValidation, settings->requiredThreadsPerThreadgroup);
    reflect(settings->computeFunction, options, pipeline, reflection);
    return pipeline;
}
void MTL::Device::newComputePipelineState(const Function* function,
                                          const NewComputePipelineStateCompletionHandlerFunction& completionHandler) {
    if (!implOf<Dev>(this)) return;
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = newComputePipelineState(function, &error);
    if (completionHandler) completionHandler(pipeline, error);
    if (pipeline) pipeline->release();
}
void MTL::Device::newComputePipelineState(
    const Function* function, PipelineOption options,
    const NewComputePipelineStateWithReflectionCompletionHandlerFunction& completionHandler) {
    if (!implOf<Dev>(this)) return;
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = newComputePipelineState(function, options, nullptr, &error);
    if (completionHandler) completionHandler(pipeline, nullptr, error);
    if (pipeline) pipeline->release();
}
void MTL::Device::newComputePipelineState(
    const ComputePipelineDescriptor* descriptor, PipelineOption options,
    const NewComputePipelineStateWithReflectionCompletionHandlerFunction& completionHandler) {
    if (!implOf<Dev>(this)) return;
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = newComputePipelineState(descriptor, options, nullptr, &error);
    if (completionHandler) completionHandler(pipeline, nullptr, error);
    if (pipeline) pipeline->release();
}

// The block overloads forward to the std::function ones.
#if defined(__BLOCKS__)
MTL::Buffer* MTL::Device::newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options,
                                    void (^deallocator)(void*, NS::UInteger)) {
    if (!implOf<Dev>(this)) return nullptr;
    return newBuffer(pointer, length, options, std::function<void(void*, NS::UInteger)>(api::functionOf(deallocator)));
}
void MTL::Device::newLibrary(const NS::String* source, const CompileOptions* options,
                             const NewLibraryCompletionHandler completionHandler) {
    if (implOf<Dev>(this))
        newLibrary(source, options, NewLibraryCompletionHandlerFunction(api::functionOf(completionHandler)));
}
void MTL::Device::newComputePipelineState(const Function* computeFunction,
                                          const NewComputePipelineStateCompletionHandler completionHandler) {
    if (implOf<Dev>(this))
        newComputePipelineState(computeFunction,
                                NewComputePipelineStateCompletionHandlerFunction(api::functionOf(completionHandler)));
}
void MTL::Device::newComputePipelineState(
    const Function* computeFunction, PipelineOption options,
    const NewComputePipelineStateWithReflectionCompletionHandler completionHandler) {
    if (implOf<Dev>(this))
        newComputePipelineState(
            computeFunction, options,
            NewComputePipelineStateWithReflectionCompletionHandlerFunction(api::functionOf(completionHandler)));
}
void MTL::Device::newComputePipelineState(
    const ComputePipelineDescriptor* descriptor, PipelineOption options,
    const NewComputePipelineStateWithReflectionCompletionHandler completionHandler) {
    if (implOf<Dev>(this))
        newComputePipelineState(
            descriptor, options,
            NewComputePipelineStateWithReflectionCompletionHandlerFunction(api::functionOf(completionHandler)));
}
#endif

// Objects metalcpu cannot make yet.
MTL::Heap* MTL::Device::newHeap(const HeapDescriptor*) {
    notYet<Dev>(this, "MTL::Device::newHeap");
    return nullptr;
}
MTL::SizeAndAlign MTL::Device::heapBufferSizeAndAlign(NS::UInteger, ResourceOptions) {
    notYet<Dev>(this, "MTL::Device::heapBufferSizeAndAlign");
    return SizeAndAlign{0, 0};
}
MTL::SizeAndAlign MTL::Device::heapTextureSizeAndAlign(const TextureDescriptor*) {
    notYet<Dev>(this, "MTL::Device::heapTextureSizeAndAlign");
    return SizeAndAlign{0, 0};
}
// Laid out from the descriptors (api/argument_encoding.h).
MTL::ArgumentEncoder* MTL::Device::newArgumentEncoder(const NS::Array* arguments) {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::api::newArgumentEncoder(self, arguments) : nullptr;
}
// From a pipeline reflection's binding of an argument buffer (api/binding_reflection.h).
MTL::ArgumentEncoder* MTL::Device::newArgumentEncoder(const BufferBinding* bufferBinding) {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::api::newArgumentEncoder(self, bufferBinding) : nullptr;
}
MTL::Fence* MTL::Device::newFence() {
    notYet<Dev>(this, "MTL::Device::newFence");
    return nullptr;
}
MTL::Event* MTL::Device::newEvent() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::SharedEvent>(self, false) : nullptr;
}
MTL::SharedEvent* MTL::Device::newSharedEvent() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::SharedEvent>(self, true) : nullptr;
}
MTL::SharedEvent* MTL::Device::newSharedEvent(const SharedEventHandle*) {
    notYet<Dev>(this, "MTL::Device::newSharedEvent");
    return nullptr;
}
