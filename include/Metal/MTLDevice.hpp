// metalcpu: Device, the entry point that creates every other Metal object, and the device
// enumeration functions.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "../dispatch/dispatch.h"
#include "MTL4Counters.hpp"
#include "MTLArgument.hpp"
#include "MTLDataType.hpp"
#include "MTLDefines.hpp"
#include "MTLGPUAddress.hpp"
#include "MTLPixelFormat.hpp"
#include "MTLResource.hpp"
#include "MTLTexture.hpp"
#include "MTLTypes.hpp"

#include <cstdint>
#include <functional>

namespace MTL {

class ArgumentEncoder;
class Buffer;
class BufferBinding;
class CommandQueue;
class CommandQueueDescriptor;
class CompileOptions;
class ComputePipelineDescriptor;
class ComputePipelineReflection;
class ComputePipelineState;
class Device;
class Event;
class Fence;
class Function;
class Heap;
class HeapDescriptor;
class Library;
class LogState;
class LogStateDescriptor;
class ResidencySet;
class ResidencySetDescriptor;
class SamplerDescriptor;
class SamplerState;
class SharedEvent;
class SharedEventHandle;
class Tensor;
class TensorBufferAttachments;
class TensorDescriptor;
class Texture;
class TextureDescriptor;

} // namespace MTL

namespace MTL4 {
class Archive;
class ArgumentTable;
class ArgumentTableDescriptor;
class CommandAllocator;
class CommandAllocatorDescriptor;
class CommandBuffer;
class CommandQueue;
class CommandQueueDescriptor;
class Compiler;
class CompilerDescriptor;
class CounterHeap;
class CounterHeapDescriptor;
class PipelineDataSetSerializer;
class PipelineDataSetSerializerDescriptor;
} // namespace MTL4

namespace MTL {

// The feature sets of older OS releases; superseded by GPUFamily.
enum FeatureSet : NS::UInteger {
    FeatureSet_iOS_GPUFamily1_v1 = 0,
    FeatureSet_iOS_GPUFamily2_v1 = 1,
    FeatureSet_iOS_GPUFamily1_v2 = 2,
    FeatureSet_iOS_GPUFamily2_v2 = 3,
    FeatureSet_iOS_GPUFamily3_v1 = 4,
    FeatureSet_iOS_GPUFamily1_v3 = 5,
    FeatureSet_iOS_GPUFamily2_v3 = 6,
    FeatureSet_iOS_GPUFamily3_v2 = 7,
    FeatureSet_iOS_GPUFamily1_v4 = 8,
    FeatureSet_iOS_GPUFamily2_v4 = 9,
    FeatureSet_iOS_GPUFamily3_v3 = 10,
    FeatureSet_iOS_GPUFamily4_v1 = 11,
    FeatureSet_iOS_GPUFamily1_v5 = 12,
    FeatureSet_iOS_GPUFamily2_v5 = 13,
    FeatureSet_iOS_GPUFamily3_v4 = 14,
    FeatureSet_iOS_GPUFamily4_v2 = 15,
    FeatureSet_iOS_GPUFamily5_v1 = 16,
    FeatureSet_macOS_GPUFamily1_v1 = 10000,
    FeatureSet_OSX_GPUFamily1_v1 = 10000,
    FeatureSet_macOS_GPUFamily1_v2 = 10001,
    FeatureSet_OSX_GPUFamily1_v2 = 10001,
    FeatureSet_macOS_ReadWriteTextureTier2 = 10002,
    FeatureSet_OSX_ReadWriteTextureTier2 = 10002,
    FeatureSet_macOS_GPUFamily1_v3 = 10003,
    FeatureSet_macOS_GPUFamily1_v4 = 10004,
    FeatureSet_macOS_GPUFamily2_v1 = 10005,
    FeatureSet_watchOS_GPUFamily1_v1 = 20000,
    FeatureSet_WatchOS_GPUFamily1_v1 = 20000,
    FeatureSet_watchOS_GPUFamily2_v1 = 20001,
    FeatureSet_WatchOS_GPUFamily2_v1 = 20001,
    FeatureSet_tvOS_GPUFamily1_v1 = 30000,
    FeatureSet_TVOS_GPUFamily1_v1 = 30000,
    FeatureSet_tvOS_GPUFamily1_v2 = 30001,
    FeatureSet_tvOS_GPUFamily1_v3 = 30002,
    FeatureSet_tvOS_GPUFamily2_v1 = 30003,
    FeatureSet_tvOS_GPUFamily1_v4 = 30004,
    FeatureSet_tvOS_GPUFamily2_v2 = 30005,
};

// The GPU families that Device::supportsFamily answers for.
enum GPUFamily : NS::Integer {
    GPUFamilyApple1 = 1001,
    GPUFamilyApple2 = 1002,
    GPUFamilyApple3 = 1003,
    GPUFamilyApple4 = 1004,
    GPUFamilyApple5 = 1005,
    GPUFamilyApple6 = 1006,
    GPUFamilyApple7 = 1007,
    GPUFamilyApple8 = 1008,
    GPUFamilyApple9 = 1009,
    GPUFamilyApple10 = 1010,
    GPUFamilyMac1 = 2001,
    GPUFamilyMac2 = 2002,
    GPUFamilyCommon1 = 3001,
    GPUFamilyCommon2 = 3002,
    GPUFamilyCommon3 = 3003,
    GPUFamilyMacCatalyst1 = 4001,
    GPUFamilyMacCatalyst2 = 4002,
    GPUFamilyMetal3 = 5001,
    GPUFamilyMetal4 = 5002,
};

enum DeviceLocation : NS::UInteger {
    DeviceLocationBuiltIn = 0,
    DeviceLocationSlot = 1,
    DeviceLocationExternal = 2,
    DeviceLocationUnspecified = NS::UIntegerMax,
};

enum ReadWriteTextureTier : NS::UInteger {
    ReadWriteTextureTierNone = 0,
    ReadWriteTextureTier1 = 1,
    ReadWriteTextureTier2 = 2,
};

enum ArgumentBuffersTier : NS::UInteger {
    ArgumentBuffersTier1 = 0,
    ArgumentBuffersTier2 = 1,
};

enum CounterSamplingPoint : NS::UInteger {
    CounterSamplingPointAtStageBoundary = 0,
    CounterSamplingPointAtDrawBoundary = 1,
    CounterSamplingPointAtDispatchBoundary = 2,
    CounterSamplingPointAtTileDispatchBoundary = 3,
    CounterSamplingPointAtBlitBoundary = 4,
};

// What reflection a pipeline creation call returns.
using PipelineOption = NS::UInteger;
enum : PipelineOption {
    PipelineOptionNone = 0,
    PipelineOptionArgumentInfo = 1,
    PipelineOptionBindingInfo = 1,
    PipelineOptionBufferTypeInfo = 1 << 1,
    PipelineOptionFailOnBinaryArchiveMiss = 1 << 2,
};

// The size and alignment a resource needs inside a heap.
struct SizeAndAlign {
    NS::UInteger size;
    NS::UInteger align;
} __attribute__((packed));

using DeviceNotificationName = NS::String*;
extern DeviceNotificationName const DeviceWasAddedNotification;
extern DeviceNotificationName const DeviceRemovalRequestedNotification;
extern DeviceNotificationName const DeviceWasRemovedNotification;
// The user-info key under which a command buffer error lists CommandBufferEncoderInfo objects.
extern NS::String* const CommandBufferEncoderInfoErrorKey;

using AutoreleasedComputePipelineReflection = ComputePipelineReflection*;

using DeviceNotificationHandlerFunction = std::function<void(Device* pDevice, DeviceNotificationName notifyName)>;
using NewLibraryCompletionHandlerFunction = std::function<void(Library*, NS::Error*)>;
using NewComputePipelineStateCompletionHandlerFunction = std::function<void(ComputePipelineState*, NS::Error*)>;
using NewComputePipelineStateWithReflectionCompletionHandlerFunction =
    std::function<void(ComputePipelineState*, ComputePipelineReflection*, NS::Error*)>;
#if defined(__BLOCKS__)
using DeviceNotificationHandlerBlock = void (^)(Device* pDevice, DeviceNotificationName notifyName);
using NewLibraryCompletionHandler = void (^)(Library*, NS::Error*);
using NewComputePipelineStateCompletionHandler = void (^)(ComputePipelineState*, NS::Error*);
using NewComputePipelineStateWithReflectionCompletionHandler =
    void (^)(ComputePipelineState*, ComputePipelineReflection*, NS::Error*);
#endif

// The system's default device (+1: release it when done).
Device* CreateSystemDefaultDevice();
// All devices, as an array of Device (+1).
NS::Array* CopyAllDevices();
NS::Array* CopyAllDevicesWithObserver(NS::Object** pOutObserver, const DeviceNotificationHandlerFunction& handler);
#if defined(__BLOCKS__)
NS::Array* CopyAllDevicesWithObserver(NS::Object** pOutObserver, DeviceNotificationHandlerBlock handler);
#endif
void RemoveDeviceObserver(const NS::Object* pObserver);

// Describes one member of an argument buffer, for Device::newArgumentEncoder(array).
class ArgumentDescriptor : public NS::Copying<ArgumentDescriptor> {
public:
    static ArgumentDescriptor* alloc();
    static ArgumentDescriptor* argumentDescriptor();
    ArgumentDescriptor* init();

    DataType dataType() const;
    void setDataType(DataType dataType);
    NS::UInteger index() const;
    void setIndex(NS::UInteger index);
    NS::UInteger arrayLength() const;
    void setArrayLength(NS::UInteger arrayLength);
    BindingAccess access() const;
    void setAccess(BindingAccess access);
    TextureType textureType() const;
    void setTextureType(TextureType textureType);
    NS::UInteger constantBlockAlignment() const;
    void setConstantBlockAlignment(NS::UInteger constantBlockAlignment);
};

// The GPU architecture of a device.
class Architecture : public NS::Copying<Architecture> {
public:
    static Architecture* alloc();
    Architecture* init();

    NS::String* name() const;
};

// A GPU (here: the CPU, presented as one).
class Device : public NS::Referencing<Device> {
public:
    // Identity.
    NS::String* name() const;
    std::uint64_t registryID() const;
    Architecture* architecture() const;
    DeviceLocation location() const;
    NS::UInteger locationNumber() const;
    bool isLowPower() const;
    [[deprecated("please use isLowPower instead")]] bool lowPower() const;
    bool isHeadless() const;
    [[deprecated("please use isHeadless instead")]] bool headless() const;
    bool isRemovable() const;
    [[deprecated("please use isRemovable instead")]] bool removable() const;
    bool hasUnifiedMemory() const;
    std::uint64_t peerGroupID() const;
    std::uint32_t peerIndex() const;
    std::uint32_t peerCount() const;

    // Limits.
    Size maxThreadsPerThreadgroup() const;
    NS::UInteger maxThreadgroupMemoryLength() const;
    NS::UInteger maxBufferLength() const;
    NS::UInteger maxArgumentBufferSamplerCount() const;
    std::uint64_t recommendedMaxWorkingSetSize() const;
    NS::UInteger currentAllocatedSize() const;
    std::uint64_t maxTransferRate() const;
    ArgumentBuffersTier argumentBuffersSupport() const;
    ReadWriteTextureTier readWriteTextureSupport() const;
    NS::UInteger maximumConcurrentCompilationTaskCount() const;
    bool shouldMaximizeConcurrentCompilation() const;
    void setShouldMaximizeConcurrentCompilation(bool shouldMaximizeConcurrentCompilation);

    // Feature queries.
    bool supportsFamily(GPUFamily gpuFamily);
    bool supportsFeatureSet(FeatureSet featureSet);
    bool supportsFunctionPointers() const;
    bool supportsFunctionPointersFromRender() const;
    bool supportsDynamicLibraries() const;
    bool supportsRenderDynamicLibraries() const;
    bool supportsRaytracing() const;
    bool supportsRaytracingFromRender() const;
    bool supportsPrimitiveMotionBlur() const;
    bool supportsPlacementSparse() const;
    bool supports32BitFloatFiltering() const;
    bool supports32BitMSAA() const;
    bool supportsQueryTextureLOD() const;
    bool supportsBCTextureCompression() const;
    bool supportsPullModelInterpolation() const;
    bool supportsShaderBarycentricCoordinates() const;
    bool supportsTextureSampleCount(NS::UInteger sampleCount);
    bool supportsCounterSampling(CounterSamplingPoint samplingPoint);
    bool supportsRasterizationRateMap(NS::UInteger layerCount);
    bool supportsVertexAmplificationCount(NS::UInteger count);
    bool areBarycentricCoordsSupported() const;
    [[deprecated("please use areBarycentricCoordsSupported instead")]] bool barycentricCoordsSupported() const;
    bool areProgrammableSamplePositionsSupported() const;
    [[deprecated("please use areProgrammableSamplePositionsSupported instead")]] bool
    programmableSamplePositionsSupported() const;
    bool areRasterOrderGroupsSupported() const;
    [[deprecated("please use areRasterOrderGroupsSupported instead")]] bool rasterOrderGroupsSupported() const;
    bool isDepth24Stencil8PixelFormatSupported() const;
    [[deprecated("please use isDepth24Stencil8PixelFormatSupported instead")]] bool
    depth24Stencil8PixelFormatSupported() const;
    NS::Array* counterSets() const;

    // Command queues (all +1).
    CommandQueue* newCommandQueue();
    CommandQueue* newCommandQueue(NS::UInteger maxCommandBufferCount);
    CommandQueue* newCommandQueue(const CommandQueueDescriptor* descriptor);

    // Buffers. newBuffer(length, options) returns zero-filled memory. The deallocator overloads
    // wrap existing memory without copying it.
    Buffer* newBuffer(NS::UInteger length, ResourceOptions options);
    Buffer* newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options);
    Buffer* newBuffer(NS::UInteger length, ResourceOptions options, SparsePageSize placementSparsePageSize);
    // metalcpu extension: the no-copy overload with a std::function deallocator (nullptr for none),
    // because the block overload below needs a compiler with Objective-C blocks.
    Buffer* newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options,
                      const std::function<void(void*, NS::UInteger)>& deallocator);
#if defined(__BLOCKS__)
    Buffer* newBuffer(const void* pointer, NS::UInteger length, ResourceOptions options,
                      void (^deallocator)(void*, NS::UInteger));
#endif

    // Other resources and memory.
    Texture* newTexture(const TextureDescriptor* descriptor);
    SamplerState* newSamplerState(const SamplerDescriptor* descriptor);
    Tensor* newTensor(const TensorDescriptor* descriptor, NS::Error** error);
    Tensor* newTensor(const TensorDescriptor* descriptor, const TensorBufferAttachments* attachments,
                      NS::Error** error);
    SizeAndAlign tensorSizeAndAlign(const TensorDescriptor* descriptor);
    Heap* newHeap(const HeapDescriptor* descriptor);
    SizeAndAlign heapBufferSizeAndAlign(NS::UInteger length, ResourceOptions options);
    SizeAndAlign heapTextureSizeAndAlign(const TextureDescriptor* desc);
    ResidencySet* newResidencySet(const ResidencySetDescriptor* desc, NS::Error** error);
    NS::UInteger minimumLinearTextureAlignmentForPixelFormat(PixelFormat format);
    NS::UInteger minimumTextureBufferAlignmentForPixelFormat(PixelFormat format);

    // Libraries. newDefaultLibrary() loads default.metallib; newLibrary(source, ...) compiles
    // Metal Shading Language source (options may be nullptr).
    Library* newDefaultLibrary();
    Library* newDefaultLibrary(const NS::Bundle* bundle, NS::Error** error);
    Library* newLibrary(const NS::String* filepath, NS::Error** error);
    Library* newLibrary(const NS::URL* url, NS::Error** error);
    Library* newLibrary(const dispatch_data_t data, NS::Error** error);
    Library* newLibrary(const NS::String* source, const CompileOptions* options, NS::Error** error);
    void newLibrary(const NS::String* pSource, const CompileOptions* pOptions,
                    const NewLibraryCompletionHandlerFunction& completionHandler);
#if defined(__BLOCKS__)
    void newLibrary(const NS::String* source, const CompileOptions* options,
                    const NewLibraryCompletionHandler completionHandler);
#endif

    // Compute pipelines. reflection may be nullptr.
    ComputePipelineState* newComputePipelineState(const Function* computeFunction, NS::Error** error);
    ComputePipelineState* newComputePipelineState(const Function* computeFunction, PipelineOption options,
                                                  const AutoreleasedComputePipelineReflection* reflection,
                                                  NS::Error** error);
    ComputePipelineState* newComputePipelineState(const ComputePipelineDescriptor* descriptor,
                                                  PipelineOption options,
                                                  const AutoreleasedComputePipelineReflection* reflection,
                                                  NS::Error** error);
    void newComputePipelineState(const Function* pFunction,
                                 const NewComputePipelineStateCompletionHandlerFunction& completionHandler);
    void newComputePipelineState(const Function* pFunction, PipelineOption options,
                                 const NewComputePipelineStateWithReflectionCompletionHandlerFunction& completionHandler);
    void newComputePipelineState(const ComputePipelineDescriptor* pDescriptor, PipelineOption options,
                                 const NewComputePipelineStateWithReflectionCompletionHandlerFunction& completionHandler);
#if defined(__BLOCKS__)
    void newComputePipelineState(const Function* computeFunction,
                                 const NewComputePipelineStateCompletionHandler completionHandler);
    void newComputePipelineState(const Function* computeFunction, PipelineOption options,
                                 const NewComputePipelineStateWithReflectionCompletionHandler completionHandler);
    void newComputePipelineState(const ComputePipelineDescriptor* descriptor, PipelineOption options,
                                 const NewComputePipelineStateWithReflectionCompletionHandler completionHandler);
#endif

    // Argument buffers and synchronisation.
    ArgumentEncoder* newArgumentEncoder(const NS::Array* arguments);
    ArgumentEncoder* newArgumentEncoder(const BufferBinding* bufferBinding);
    Fence* newFence();
    Event* newEvent();
    SharedEvent* newSharedEvent();
    SharedEvent* newSharedEvent(const SharedEventHandle* sharedEventHandle);
    LogState* newLogState(const LogStateDescriptor* descriptor, NS::Error** error);

    // Timestamps.
    std::uint64_t queryTimestampFrequency();
    void sampleTimestamps(Timestamp* cpuTimestamp, Timestamp* gpuTimestamp);

    // Metal 4.
    MTL4::CommandQueue* newMTL4CommandQueue();
    MTL4::CommandQueue* newMTL4CommandQueue(const MTL4::CommandQueueDescriptor* descriptor, NS::Error** error);
    MTL4::CommandBuffer* newCommandBuffer();
    MTL4::CommandAllocator* newCommandAllocator();
    MTL4::CommandAllocator* newCommandAllocator(const MTL4::CommandAllocatorDescriptor* descriptor,
                                                NS::Error** error);
    MTL4::ArgumentTable* newArgumentTable(const MTL4::ArgumentTableDescriptor* descriptor, NS::Error** error);
    MTL4::Compiler* newCompiler(const MTL4::CompilerDescriptor* descriptor, NS::Error** error);
    MTL4::Archive* newArchive(const NS::URL* url, NS::Error** error);
    MTL4::PipelineDataSetSerializer* newPipelineDataSetSerializer(
        const MTL4::PipelineDataSetSerializerDescriptor* descriptor);
    MTL4::CounterHeap* newCounterHeap(const MTL4::CounterHeapDescriptor* descriptor, NS::Error** error);
    NS::UInteger sizeOfCounterHeapEntry(MTL4::CounterHeapType type);
};

} // namespace MTL
