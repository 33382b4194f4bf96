// The MTL::Device methods beyond device.cpp: identity and feature queries, timestamps, the block
// overloads, the factories of the Metal 4 command objects, the creation methods of objects
// metalcpu cannot make yet (each logs once and returns nullptr), device observers and
// notification names, and MTL::Architecture.
#include "api/blocks.h"
#include "api/not_yet.h"
#include "api/settings.h"
#include "foundation/factories.h"
#include "foundation/string.h"
#include "runtime/device.h"
#include "runtime/mtl4_argument_table.h"
#include "runtime/mtl4_command_allocator.h"
#include "runtime/mtl4_command_buffer.h"
#include "runtime/mtl4_command_queue.h"
#include "runtime/mtl4_compiler.h"
#include "runtime/shared_event.h"

#include <Foundation/NSString.hpp>
#include <Metal/MTL4ArgumentTable.hpp>
#include <Metal/MTL4CommandAllocator.hpp>
#include <Metal/MTL4CommandQueue.hpp>
#include <Metal/MTLDevice.hpp>

#include <sys/utsname.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace metalcpu::api {
namespace {

class Architecture final : public Settings<Architecture, MTL::Architecture> {
public:
    const char* className() const override { return "MTLArchitecture"; }

    struct State {
        Property<NS::String> name;
    } state;
};

/// The device's architecture, named after the host CPU ("metalcpu_x86_64"); never freed.
MTL::Architecture* hostArchitecture() {
    static MTL::Architecture* const architecture = [] {
        auto* made = static_cast<Architecture*>(ns::make<Architecture>());
        utsname host{};
        std::string machine = uname(&host) == 0 ? host.machine : "unknown";
        made->state.name.adopt(ns::makeString("metalcpu_" + machine));
        made->makeImmortal();
        return static_cast<MTL::Architecture*>(made);
    }();
    return architecture;
}

/// Device::setShouldMaximizeConcurrentCompilation; one device, so one setting.
std::atomic<bool> maximizeConcurrentCompilation{false};

// Apple's names for the device notifications and the command-buffer error key.
constinit ns::Immortal<ns::String> deviceWasAdded{ns::String::ConstantText{},
                                                  std::string_view("MTLDeviceWasAddedNotification")};
constinit ns::Immortal<ns::String> deviceRemovalRequested{ns::String::ConstantText{},
                                                          std::string_view("MTLDeviceRemovalRequestedNotification")};
constinit ns::Immortal<ns::String> deviceWasRemoved{ns::String::ConstantText{},
                                                    std::string_view("MTLDeviceWasRemovedNotification")};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using api::notYet;
using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

const MTL::DeviceNotificationName MTL::DeviceWasAddedNotification = &api::deviceWasAdded.value;
const MTL::DeviceNotificationName MTL::DeviceRemovalRequestedNotification = &api::deviceRemovalRequested.value;
const MTL::DeviceNotificationName MTL::DeviceWasRemovedNotification = &api::deviceWasRemoved.value;

// There is one device and it never comes or goes, so the handler is never called and there is
// no observer to remove.
NS::Array* MTL::CopyAllDevicesWithObserver(NS::Object** pOutObserver, const DeviceNotificationHandlerFunction&) {
    if (pOutObserver) *pOutObserver = nullptr;
    return CopyAllDevices();
}
#if defined(__BLOCKS__)
NS::Array* MTL::CopyAllDevicesWithObserver(NS::Object** pOutObserver, DeviceNotificationHandlerBlock) {
    if (pOutObserver) *pOutObserver = nullptr;
    return CopyAllDevices();
}
#endif
void MTL::RemoveDeviceObserver(const NS::Object*) {}

METALCPU_ALLOC_INIT(MTL::Architecture, api::Architecture)
NS::String* MTL::Architecture::name() const {
    auto* self = implOf<api::Architecture>(this);
    return self ? self->state.name.get() : nullptr;
}

// Identity: a built-in device of its own peer group.
MTL::Architecture* MTL::Device::architecture() const {
    return implOf<Dev>(this) ? api::hostArchitecture() : nullptr;
}
MTL::DeviceLocation MTL::Device::location() const { return DeviceLocationBuiltIn; }
NS::UInteger MTL::Device::locationNumber() const { return 0; }
std::uint64_t MTL::Device::peerGroupID() const { return 0; }
std::uint32_t MTL::Device::peerIndex() const { return 0; }
std::uint32_t MTL::Device::peerCount() const { return 0; }

// Limits. Argument buffers of tier 2 are structs of Buffer::gpuAddress() values that the host
// writes, which kernels can read; textures and samplers are not supported.
NS::UInteger MTL::Device::maxArgumentBufferSamplerCount() const { return 0; }
std::uint64_t MTL::Device::maxTransferRate() const { return 0; }
MTL::ArgumentBuffersTier MTL::Device::argumentBuffersSupport() const {
    return implOf<Dev>(this) ? ArgumentBuffersTier2 : ArgumentBuffersTier1;
}
// access::read_write works for every format textures support, as on Apple silicon.
MTL::ReadWriteTextureTier MTL::Device::readWriteTextureSupport() const {
    return implOf<Dev>(this) ? ReadWriteTextureTier2 : ReadWriteTextureTierNone;
}
// Libraries compile on the calling thread, so as many compilations run at once as threads ask.
NS::UInteger MTL::Device::maximumConcurrentCompilationTaskCount() const {
    if (!implOf<Dev>(this)) return 0;
    return api::maximizeConcurrentCompilation ? std::max(2u, std::thread::hardware_concurrency()) : 2;
}
bool MTL::Device::shouldMaximizeConcurrentCompilation() const {
    return implOf<Dev>(this) && api::maximizeConcurrentCompilation;
}
void MTL::Device::setShouldMaximizeConcurrentCompilation(bool shouldMaximizeConcurrentCompilation) {
    if (implOf<Dev>(this)) api::maximizeConcurrentCompilation = shouldMaximizeConcurrentCompilation;
}

// Feature queries: metalcpu runs compute kernels on buffers; everything else is absent.
bool MTL::Device::supportsFeatureSet(FeatureSet) { return false; }
bool MTL::Device::supportsFunctionPointers() const { return false; }
bool MTL::Device::supportsFunctionPointersFromRender() const { return false; }
bool MTL::Device::supportsDynamicLibraries() const { return false; }
bool MTL::Device::supportsRenderDynamicLibraries() const { return false; }
bool MTL::Device::supportsRaytracing() const { return false; }
bool MTL::Device::supportsRaytracingFromRender() const { return false; }
bool MTL::Device::supportsPrimitiveMotionBlur() const { return false; }
bool MTL::Device::supportsPlacementSparse() const { return false; }
bool MTL::Device::supports32BitFloatFiltering() const { return false; }
bool MTL::Device::supports32BitMSAA() const { return false; }
bool MTL::Device::supportsQueryTextureLOD() const { return false; }
bool MTL::Device::supportsBCTextureCompression() const { return false; }
bool MTL::Device::supportsPullModelInterpolation() const { return false; }
bool MTL::Device::supportsShaderBarycentricCoordinates() const { return false; }
bool MTL::Device::supportsTextureSampleCount(NS::UInteger) { return false; }
bool MTL::Device::supportsCounterSampling(CounterSamplingPoint) { return false; }
bool MTL::Device::supportsRasterizationRateMap(NS::UInteger) { return false; }
bool MTL::Device::supportsVertexAmplificationCount(NS::UInteger) { return false; }
bool MTL::Device::areBarycentricCoordsSupported() const { return false; }
bool MTL::Device::barycentricCoordsSupported() const { return false; }
bool MTL::Device::areProgrammableSamplePositionsSupported() const { return false; }
bool MTL::Device::programmableSamplePositionsSupported() const { return false; }
bool MTL::Device::areRasterOrderGroupsSupported() const { return false; }
bool MTL::Device::rasterOrderGroupsSupported() const { return false; }
bool MTL::Device::isDepth24Stencil8PixelFormatSupported() const { return false; }
bool MTL::Device::depth24Stencil8PixelFormatSupported() const { return false; }
NS::Array* MTL::Device::counterSets() const { return nullptr; }

// Texture row alignment, as Apple GPUs report it; Buffer::newTexture requires it of offsets
// and row pitches.
NS::UInteger MTL::Device::minimumLinearTextureAlignmentForPixelFormat(PixelFormat) {
    return implOf<Dev>(this) ? 16 : 0;
}
NS::UInteger MTL::Device::minimumTextureBufferAlignmentForPixelFormat(PixelFormat) {
    return implOf<Dev>(this) ? 16 : 0;
}

// Timestamps: host and device share one clock, in nanoseconds.
std::uint64_t MTL::Device::queryTimestampFrequency() { return implOf<Dev>(this) ? 1'000'000'000 : 0; }
void MTL::Device::sampleTimestamps(Timestamp* cpuTimestamp, Timestamp* gpuTimestamp) {
    if (!implOf<Dev>(this)) return;
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    auto nanoseconds = static_cast<Timestamp>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
    if (cpuTimestamp) *cpuTimestamp = nanoseconds;
    if (gpuTimestamp) *gpuTimestamp = nanoseconds;
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
MTL::ArgumentEncoder* MTL::Device::newArgumentEncoder(const NS::Array*) {
    notYet<Dev>(this, "MTL::Device::newArgumentEncoder");
    return nullptr;
}
MTL::ArgumentEncoder* MTL::Device::newArgumentEncoder(const BufferBinding*) {
    notYet<Dev>(this, "MTL::Device::newArgumentEncoder");
    return nullptr;
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

// Metal 4.
MTL4::CommandQueue* MTL::Device::newMTL4CommandQueue() {
    auto* self = implOf<Dev>(this);
    return self ? metalcpu::ns::make<metalcpu::rt::Mtl4CommandQueue>(self) : nullptr;
}
MTL4::CommandQueue* MTL::Device::newMTL4CommandQueue(const MTL4::CommandQueueDescriptor* descriptor, NS::Error**) {
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
                                                         NS::Error**) {
    MTL4::CommandAllocator* allocator = newCommandAllocator();
    if (allocator && descriptor)
        implOf<metalcpu::rt::Mtl4CommandAllocator>(allocator)->label().set(descriptor->label());
    return allocator;
}
MTL4::ArgumentTable* MTL::Device::newArgumentTable(const MTL4::ArgumentTableDescriptor* descriptor,
                                                   NS::Error** error) {
    auto* self = implOf<Dev>(this);
    if (!self || !descriptor) return nullptr;
    return metalcpu::rt::Mtl4ArgumentTable::make(
        self,
        {descriptor->maxBufferBindCount(), descriptor->maxTextureBindCount(), descriptor->maxSamplerStateBindCount()},
        descriptor->label(), error);
}
MTL4::Compiler* MTL::Device::newCompiler(const MTL4::CompilerDescriptor* descriptor, NS::Error**) {
    auto* self = implOf<Dev>(this);
    if (!self) return nullptr;
    auto* made = static_cast<metalcpu::rt::Mtl4Compiler*>(metalcpu::ns::make<metalcpu::rt::Mtl4Compiler>(
        self, descriptor ? descriptor->pipelineDataSetSerializer() : nullptr));
    if (descriptor) made->label().set(descriptor->label());
    return made;
}
MTL4::Archive* MTL::Device::newArchive(const NS::URL*, NS::Error** error) {
    notYet<Dev>(this, "MTL::Device::newArchive", error);
    return nullptr;
}
MTL4::PipelineDataSetSerializer* MTL::Device::newPipelineDataSetSerializer(
    const MTL4::PipelineDataSetSerializerDescriptor*) {
    notYet<Dev>(this, "MTL::Device::newPipelineDataSetSerializer");
    return nullptr;
}
MTL4::CounterHeap* MTL::Device::newCounterHeap(const MTL4::CounterHeapDescriptor*, NS::Error** error) {
    notYet<Dev>(this, "MTL::Device::newCounterHeap", error);
    return nullptr;
}
NS::UInteger MTL::Device::sizeOfCounterHeapEntry(MTL4::CounterHeapType) {
    notYet<Dev>(this, "MTL::Device::sizeOfCounterHeapEntry");
    return 0;
}
