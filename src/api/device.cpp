// MTL::Device and the free functions that create it.
#include "api/not_yet.h"
#include "foundation/factories.h"
#include "runtime/compute_pipeline.h"
#include "runtime/descriptors.h"
#include "runtime/command_queue.h"
#include "runtime/device.h"
#include "runtime/log_state.h"
#include "runtime/library.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>
#include <Foundation/NSURL.hpp>
#include <Metal/MTLDevice.hpp>

using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

MTL::Device* MTL::CreateSystemDefaultDevice() {
    Dev* device = Dev::systemDefault();
    device->retain();
    return device;
}

NS::Array* MTL::CopyAllDevices() {
    return metalcpu::ns::makeArray({Dev::systemDefault()->asPublic()});
}

NS::String* MTL::Device::name() const {
    static NS::String* name = metalcpu::ns::makeString(Dev::systemDefault()->name());
    return implOf<Dev>(this) ? name : nullptr;
}
std::uint64_t MTL::Device::registryID() const { return implOf<Dev>(this) ? 0x100000c0deull : 0; }
bool MTL::Device::isLowPower() const { return false; }
bool MTL::Device::lowPower() const { return false; }
bool MTL::Device::isHeadless() const { return implOf<Dev>(this) != nullptr; }
bool MTL::Device::headless() const { return implOf<Dev>(this) != nullptr; }
bool MTL::Device::isRemovable() const { return false; }
bool MTL::Device::removable() const { return false; }
bool MTL::Device::hasUnifiedMemory() const { return implOf<Dev>(this) != nullptr; }
MTL::Size MTL::Device::maxThreadsPerThreadgroup() const {
    return implOf<Dev>(this) ? MTL::Size(Dev::kMaxThreadsPerThreadgroup, Dev::kMaxThreadsPerThreadgroup,
                                         Dev::kMaxThreadsPerThreadgroup)
                             : MTL::Size(0, 0, 0);
}
NS::UInteger MTL::Device::maxThreadgroupMemoryLength() const {
    return implOf<Dev>(this) ? Dev::kMaxThreadgroupMemoryLength : 0;
}
NS::UInteger MTL::Device::maxBufferLength() const {
    auto* self = implOf<Dev>(this);
    return self ? self->maxBufferLength() : 0;
}
std::uint64_t MTL::Device::recommendedMaxWorkingSetSize() const {
    auto* self = implOf<Dev>(this);
    return self ? self->recommendedMaxWorkingSetSize() : 0;
}
NS::UInteger MTL::Device::currentAllocatedSize() const {
    auto* self = implOf<Dev>(this);
    return self ? self->currentAllocatedSize() : 0;
}
bool MTL::Device::supportsFamily(GPUFamily gpuFamily) {
    auto* self = implOf<Dev>(this);
    return self && self->supportsFamily(gpuFamily);
}

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
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newDefaultLibrary(self, error) : nullptr;
}
MTL::Library* MTL::Device::newLibrary(const NS::String* filepath, NS::Error** error) {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newLibraryWithFile(self, metalcpu::ns::stringOf(filepath), error) : nullptr;
}
MTL::Library* MTL::Device::newLibrary(const NS::URL* url, NS::Error** error) {
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    const char* path = url ? url->fileSystemRepresentation() : nullptr;
    return metalcpu::rt::newLibraryWithFile(self, path ? path : "", error);
}
MTL::Library* MTL::Device::newLibrary(const NS::String* source, const CompileOptions* options, NS::Error** error) {
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
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newComputePipelineState(self, computeFunction, nullptr, 0, error) : nullptr;
}
MTL::ComputePipelineState* MTL::Device::newComputePipelineState(const Function* computeFunction, PipelineOption,
                                                                const AutoreleasedComputePipelineReflection* reflection,
                                                                NS::Error** error) {
    if (reflection) *const_cast<AutoreleasedComputePipelineReflection*>(reflection) = nullptr;
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::rt::newComputePipelineState(self, computeFunction, nullptr, 0, error) : nullptr;
}
MTL::ComputePipelineState* MTL::Device::newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                                PipelineOption,
                                                                const AutoreleasedComputePipelineReflection* reflection,
                                                                NS::Error** error) {
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    if (reflection) *const_cast<AutoreleasedComputePipelineReflection*>(reflection) = nullptr;
    auto* settings = implOf<metalcpu::rt::ComputePipelineDescriptor>(descriptor);
    if (!settings) return metalcpu::rt::newComputePipelineState(self, nullptr, nullptr, 0, error);
    return metalcpu::rt::newComputePipelineState(self, settings->computeFunction, settings->label.get(),
                                                 settings->maxTotalThreadsPerThreadgroup, error,
                                                 settings->shaderValidation);
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
