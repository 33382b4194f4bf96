// What MTL::Device makes of Metal 4: command queues, command buffers, allocators, argument
// tables and compilers; archives, pipeline data-set serializers and counter heaps log once and
// return nullptr (not_yet.h).
#include "api/not_yet.h"
#include "foundation/factories.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/mtl4_argument_table.h"
#include "runtime/mtl4_command_allocator.h"
#include "runtime/mtl4_command_buffer.h"
#include "runtime/mtl4_command_queue.h"
#include "runtime/mtl4_compiler.h"

#include <Metal/MTL4ArgumentTable.hpp>
#include <Metal/MTL4CommandAllocator.hpp>
#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTLDevice.hpp>

using metalcpu::api::notYet;
using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

MTL4::CommandQueue* MTL::Device::newMTL4CommandQueue() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::Mtl4CommandQueue>(self) : nullptr;
}
MTL4::CommandQueue* MTL::Device::newMTL4CommandQueue(const MTL4::CommandQueueDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    MTL4::CommandQueue* queue = newMTL4CommandQueue();
    if (queue && descriptor) implOf<metalcpu::rt::Mtl4CommandQueue>(queue)->label().set(descriptor->label());
    return queue;
}
MTL4::CommandBuffer* MTL::Device::newCommandBuffer() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::Mtl4CommandBuffer>(self) : nullptr;
}
MTL4::CommandAllocator* MTL::Device::newCommandAllocator() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::Mtl4CommandAllocator>(self) : nullptr;
}
MTL4::CommandAllocator* MTL::Device::newCommandAllocator(const MTL4::CommandAllocatorDescriptor* descriptor,
                                                         NS::Error** error) {
    metalcpu::rt::clearError(error);
    MTL4::CommandAllocator* allocator = newCommandAllocator();
    if (allocator && descriptor)
        implOf<metalcpu::rt::Mtl4CommandAllocator>(allocator)->label().set(descriptor->label());
    return allocator;
}
MTL4::ArgumentTable* MTL::Device::newArgumentTable(const MTL4::ArgumentTableDescriptor* descriptor,
                                                   NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    if (!self || !descriptor) return nullptr;
    return metalcpu::rt::Mtl4ArgumentTable::make(
        self,
        {descriptor->maxBufferBindCount(), descriptor->maxTextureBindCount(), descriptor->maxSamplerStateBindCount()},
        descriptor->label(), error);
}
MTL4::Compiler* MTL::Device::newCompiler(const MTL4::CompilerDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    auto* made = static_cast<metalcpu::rt::Mtl4Compiler*>(metalcpu::ns::make<metalcpu::rt::Mtl4Compiler>(
        self, descriptor ? descriptor->pipelineDataSetSerializer() : nullptr));
    if (descriptor) made->label().set(descriptor->label());
    return made;
}
MTL4::Archive* MTL::Device::newArchive(const NS::URL*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    notYet<Dev>(this, "MTL::Device::newArchive", error);
    return nullptr;
}
MTL4::PipelineDataSetSerializer* MTL::Device::newPipelineDataSetSerializer(
    const MTL4::PipelineDataSetSerializerDescriptor*) {
    notYet<Dev>(this, "MTL::Device::newPipelineDataSetSerializer");
    return nullptr;
}
MTL4::CounterHeap* MTL::Device::newCounterHeap(const MTL4::CounterHeapDescriptor*, NS::Error** error) {
    metalcpu::rt::clearError(error);
    notYet<Dev>(this, "MTL::Device::newCounterHeap", error);
    return nullptr;
}
NS::UInteger MTL::Device::sizeOfCounterHeapEntry(MTL4::CounterHeapType) {
    notYet<Dev>(this, "MTL::Device::sizeOfCounterHeapEntry");
    return 0;
}
