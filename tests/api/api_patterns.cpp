// Compile-only: the ways metal-cpp compute programs use the API, checked at the type level.
// Nothing here runs (method bodies live in src/api); what matters is that overload resolution,
// conversions, enum arithmetic and struct layouts come out as with Apple's headers.

#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#define CA_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#include <cstdint>
#include <functional>
#include <iostream>
#include <type_traits>
#include <utility>

namespace api_patterns {

// --- Value types -------------------------------------------------------------------------

static_assert(sizeof(MTL::Origin) == 3 * sizeof(NS::UInteger));
static_assert(sizeof(MTL::Size) == 3 * sizeof(NS::UInteger));
static_assert(sizeof(MTL::Region) == 6 * sizeof(NS::UInteger));
static_assert(alignof(MTL::Size) == 1, "packed, as in metal-cpp");
static_assert(sizeof(MTL::SamplePosition) == 2 * sizeof(float));
static_assert(sizeof(MTL::ResourceID) == sizeof(std::uint64_t));
static_assert(sizeof(MTL::SizeAndAlign) == 2 * sizeof(NS::UInteger));
static_assert(sizeof(MTL::DispatchThreadgroupsIndirectArguments) == 3 * sizeof(std::uint32_t));
static_assert(sizeof(MTL::DispatchThreadsIndirectArguments) == 6 * sizeof(std::uint32_t));
static_assert(sizeof(MTL::TextureSwizzleChannels) == 4);
static_assert(sizeof(MTL4::BufferRange) == 2 * sizeof(std::uint64_t));

// Size's default constructor leaves it uninitialised, as in metal-cpp; the types stay PODs.
static_assert(std::is_trivially_default_constructible_v<MTL::Size>);
static_assert(std::is_trivially_copyable_v<MTL::Size>);
static_assert(std::is_trivially_copyable_v<MTL::Region>);
static_assert(std::is_trivially_copyable_v<MTL4::BufferRange>);

constexpr MTL::Size kGrid = MTL::Size::Make(1024, 2, 1);
static_assert(kGrid.width == 1024 && kGrid.height == 2 && kGrid.depth == 1);
constexpr MTL::Region kRegion = MTL::Region::Make2D(1, 2, 3, 4);
static_assert(kRegion.origin.y == 2 && kRegion.size.height == 4 && kRegion.size.depth == 1);
static_assert(MTL::Region(5, 7).size.height == 1);
static_assert(MTL4::BufferRange(64).length == UINT64_MAX);
static_assert(MTL::TextureSwizzleChannels().alpha == MTL::TextureSwizzleAlpha);

// Bindings (pymetal-cpp) take struct members by pointer.
[[maybe_unused]] constexpr NS::UInteger MTL::Size::*kWidthMember = &MTL::Size::width;
[[maybe_unused]] constexpr NS::UInteger MTL::Origin::*kZMember = &MTL::Origin::z;

// --- Enums and options ----------------------------------------------------------------------

// _MTL_ENUM types are unscoped enums with a fixed underlying type...
static_assert(std::is_same_v<std::underlying_type_t<MTL::StorageMode>, NS::UInteger>);
static_assert(std::is_same_v<std::underlying_type_t<MTL::GPUFamily>, NS::Integer>);
static_assert(std::is_same_v<std::underlying_type_t<MTL::TextureSwizzle>, std::uint8_t>);
static_assert(MTL::StorageMode::StorageModePrivate == MTL::StorageModePrivate);
static_assert(MTL::GPUFamilyApple7 == 1007 && MTL::GPUFamilyMetal3 == 5001);
static_assert(MTL::LanguageVersion3_0 == (3 << 16));
static_assert(MTL::CommandBufferStatusCompleted == 4 && MTL::CommandBufferStatusError == 5);
static_assert(MTL::PixelFormatRGBA32Float == 125);
static_assert(MTL::DeviceLocationUnspecified == NS::UIntegerMax);

// ...and _MTL_OPTIONS types are integer aliases whose constants OR together.
static_assert(std::is_same_v<MTL::ResourceOptions, NS::UInteger>);
static_assert(std::is_same_v<MTL::PipelineOption, NS::UInteger>);
constexpr MTL::ResourceOptions kOptions =
    MTL::ResourceStorageModePrivate | MTL::ResourceHazardTrackingModeUntracked | MTL::ResourceCPUCacheModeWriteCombined;
static_assert(kOptions == 0x121);
static_assert((MTL::PipelineOptionArgumentInfo | MTL::PipelineOptionBufferTypeInfo) == 3);
static_assert(MTL::StageAll == 9223372036854775807u);
static_assert((MTL::ResourceUsageRead | MTL::ResourceUsageWrite) == 3);

// --- Object model ---------------------------------------------------------------------------

static_assert(std::is_base_of_v<MTL::Resource, MTL::Buffer>);
static_assert(std::is_base_of_v<MTL::Allocation, MTL::Buffer>);
static_assert(std::is_base_of_v<MTL::Allocation, MTL::ComputePipelineState>);
static_assert(std::is_base_of_v<MTL::CommandEncoder, MTL::ComputeCommandEncoder>);
static_assert(std::is_base_of_v<MTL::Event, MTL::SharedEvent>);
static_assert(std::is_base_of_v<MTL4::CommandEncoder, MTL4::ComputeCommandEncoder>);
static_assert(std::is_base_of_v<MTL4::FunctionDescriptor, MTL4::LibraryFunctionDescriptor>);
static_assert(std::is_base_of_v<MTL::Binding, MTL::BufferBinding>);
static_assert(std::is_empty_v<MTL::Device> && std::is_empty_v<MTL::Buffer>, "handles carry no data");
static_assert(!std::is_copy_constructible_v<MTL::Buffer>);
static_assert(std::is_same_v<decltype(std::declval<MTL::Buffer*>()->retain()), MTL::Buffer*>);
static_assert(std::is_same_v<decltype(std::declval<MTL::ComputePassDescriptor*>()->copy()), MTL::ComputePassDescriptor*>);

// --- Device and buffers ----------------------------------------------------------------------

void deviceDiscovery() {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::Array* devices = MTL::CopyAllDevices();
    MTL::Device* first = devices->object<MTL::Device>(0);
    if (!first) first = static_cast<MTL::Device*>(devices->object(0));
    std::cout << device->name()->utf8String() << first->registryID() << '\n';

    NS::SharedPtr<MTL::Device> shared = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    const bool apple7 = shared->supportsFamily(MTL::GPUFamilyApple7);
    const MTL::Size maxThreads = shared->maxThreadsPerThreadgroup();
    std::cout << apple7 << maxThreads.width << shared->maxThreadgroupMemoryLength()
              << shared->recommendedMaxWorkingSetSize() << shared->hasUnifiedMemory() << '\n';

    NS::Object* observer = nullptr;
    NS::Array* watched = MTL::CopyAllDevicesWithObserver(
        &observer, [](MTL::Device* added, MTL::DeviceNotificationName name) { (void)added, (void)name; });
    MTL::RemoveDeviceObserver(observer);

    watched->release();
    devices->release();
    device->release();
    pool->release();
}

void buffers(MTL::Device* device, void* pageAligned, std::size_t length) {
    const float host[4] = {1, 2, 3, 4};
    MTL::Buffer* zeroed = device->newBuffer(1024, MTL::ResourceStorageModeShared);
    MTL::Buffer* copied = device->newBuffer(host, sizeof(host), MTL::ResourceStorageModeShared);
    MTL::Buffer* managed = device->newBuffer(sizeof(host), MTL::ResourceStorageModeManaged |
                                                               MTL::ResourceCPUCacheModeWriteCombined);
    MTL::Buffer* wrapped = device->newBuffer(pageAligned, length, MTL::ResourceStorageModeShared, nullptr);
    MTL::Buffer* owned = device->newBuffer(pageAligned, length, MTL::ResourceStorageModeShared,
                                           [](void* pointer, NS::UInteger bytes) { (void)pointer, (void)bytes; });

    float* values = static_cast<float*>(zeroed->contents());
    values[0] = 1.0f;
    managed->didModifyRange(NS::Range::Make(0, sizeof(host)));
    const MTL::GPUAddress address = copied->gpuAddress() + 16;
    std::cout << address << zeroed->length() << (copied->storageMode() == MTL::StorageModeShared) << '\n';

    MTL::Resource* resource = zeroed;
    MTL::Allocation* allocation = copied;
    resource->setLabel(MTLSTR("zeroed"));
    std::cout << allocation->allocatedSize() << '\n';

    MTL::HeapDescriptor* heapDescriptor = MTL::HeapDescriptor::alloc()->init();
    heapDescriptor->setSize(1 << 20);
    heapDescriptor->setStorageMode(MTL::StorageModePrivate);
    MTL::Heap* heap = device->newHeap(heapDescriptor);
    MTL::Buffer* placed = heap->newBuffer(256, MTL::ResourceStorageModePrivate);

    owned->release();
    wrapped->release();
    placed->release();
    heap->release();
    heapDescriptor->release();
    managed->release();
    copied->release();
    zeroed->release();
}

// --- Libraries and pipelines --------------------------------------------------------------------

MTL::ComputePipelineState* pipelines(MTL::Device* device, const char* source) {
    NS::Error* error = nullptr;

    MTL::Library* fromFile = device->newDefaultLibrary();
    MTL::Library* fromPath = device->newLibrary(MTLSTR("default.metallib"), &error);
    MTL::Library* fromUrl = device->newLibrary(NS::URL::fileURLWithPath(MTLSTR("kernels.metallib")), &error);

    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    options->setFastMathEnabled(false);
    options->setMathMode(MTL::MathModeSafe);
    options->setLanguageVersion(MTL::LanguageVersion3_1);
    MTL::Library* library =
        device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), options, &error);
    MTL::Library* plain = device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), nullptr, &error);
    if (!library) {
        std::cerr << error << ": " << error->localizedDescription()->utf8String() << '\n';
        return nullptr;
    }
    device->newLibrary(MTLSTR("kernel void k() {}"), nullptr,
                       [](MTL::Library* compiled, NS::Error* failure) { (void)compiled, (void)failure; });

    NS::Array* names = library->functionNames();
    for (NS::UInteger i = 0; i < names->count(); ++i)
        std::cout << names->object<NS::String>(i)->utf8String() << '\n';

    MTL::Function* function = library->newFunction(MTLSTR("add_arrays"));
    const int constant = 4;
    MTL::FunctionConstantValues* constants = MTL::FunctionConstantValues::alloc()->init();
    constants->setConstantValue(&constant, MTL::DataTypeInt, NS::UInteger(0));
    constants->setConstantValue(&constant, MTL::DataTypeInt, MTLSTR("width"));
    MTL::Function* specialised = library->newFunction(MTLSTR("add_arrays"), constants, &error);

    MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
    MTL::ComputePipelineReflection* reflection = nullptr;
    MTL::ComputePipelineState* reflected = device->newComputePipelineState(
        specialised, MTL::PipelineOptionArgumentInfo | MTL::PipelineOptionBufferTypeInfo, &reflection, &error);
    MTL::ComputePipelineState* unreflected =
        device->newComputePipelineState(function, MTL::PipelineOptionNone, nullptr, &error);
    NS::Array* bindings = reflection->bindings();
    auto* binding = bindings->object<MTL::BufferBinding>(0);
    std::cout << binding->name()->utf8String() << binding->bufferDataSize()
              << (binding->access() == MTL::BindingAccessReadWrite) << '\n';

    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(function);
    descriptor->setThreadGroupSizeIsMultipleOfThreadExecutionWidth(true);
    descriptor->buffers()->object(0)->setMutability(MTL::MutabilityImmutable);
    MTL::ComputePipelineState* described =
        device->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    device->newComputePipelineState(function, [](MTL::ComputePipelineState* state, NS::Error* failure) {
        (void)state, (void)failure;
    });
    device->newComputePipelineState(
        descriptor, MTL::PipelineOptionBindingInfo,
        [](MTL::ComputePipelineState* state, MTL::ComputePipelineReflection* info, NS::Error* failure) {
            (void)state, (void)info, (void)failure;
        });

    const NS::UInteger width = pipeline->threadExecutionWidth();
    const NS::UInteger height = pipeline->maxTotalThreadsPerThreadgroup() / width;
    std::cout << width * height << pipeline->staticThreadgroupMemoryLength() << '\n';

    described->release();
    descriptor->release();
    unreflected->release();
    reflected->release();
    specialised->release();
    constants->release();
    function->release();
    plain->release();
    library->release();
    options->release();
    fromUrl->release();
    fromPath->release();
    fromFile->release();
    return pipeline;
}

// --- Encoding and submission ----------------------------------------------------------------------

void dispatch(MTL::CommandQueue* queue, MTL::ComputePipelineState* pipeline, MTL::Buffer* a, MTL::Buffer* b,
              MTL::Buffer* out, unsigned count) {
    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setBuffer(a, 0, 0);
    encoder->setBuffer(b, 0, 1);
    encoder->setBuffer(nullptr, 0, 3);
    encoder->setBuffer(out, sizeof(float) * 4, 2);
    encoder->setBytes(&count, sizeof(count), 4);
    const MTL::Buffer* group[] = {a, b};
    MTL::Buffer* mutableGroup[] = {a, b};
    const NS::UInteger offsets[] = {0, 0};
    encoder->setBuffers(group, offsets, NS::Range(0, 2));
    encoder->setBuffers(mutableGroup, offsets, NS::Range::Make(5, 2));
    encoder->setThreadgroupMemoryLength(16 * sizeof(float), 0);

    const NS::UInteger width = pipeline->threadExecutionWidth();
    encoder->dispatchThreads(MTL::Size::Make(count, 1, 1), MTL::Size::Make(width, 1, 1));
    encoder->memoryBarrier(MTL::BarrierScopeBuffers);
    encoder->dispatchThreadgroups(MTL::Size((count + 255) / 256, 1, 1), MTL::Size(256, 1, 1));
    encoder->dispatchThreadgroups(a, 0, MTL::Size(64, 1, 1));
    const MTL::Resource* written[] = {out};
    encoder->memoryBarrier(written, 1);
    encoder->useResource(b, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
    encoder->endEncoding();

    MTL::BlitCommandEncoder* blit = commandBuffer->blitCommandEncoder();
    blit->copyFromBuffer(a, 0, b, 0, 16);
    blit->fillBuffer(out, NS::Range::Make(0, 16), 0);
    blit->synchronizeResource(out);
    blit->endEncoding();

    MTL::ComputeCommandEncoder* concurrent = commandBuffer->computeCommandEncoder(MTL::DispatchTypeConcurrent);
    concurrent->endEncoding();
    MTL::ComputePassDescriptor* pass = MTL::ComputePassDescriptor::computePassDescriptor();
    pass->setDispatchType(MTL::DispatchTypeSerial);
    commandBuffer->computeCommandEncoder(pass)->endEncoding();

    int completed = 0;
    commandBuffer->addCompletedHandler([&completed](MTL::CommandBuffer* done) {
        completed = done->status() == MTL::CommandBufferStatusCompleted;
    });
    const MTL::HandlerFunction scheduled = [](MTL::CommandBuffer*) {};
    commandBuffer->addScheduledHandler(scheduled);
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();

    if (NS::Error* error = commandBuffer->error())
        std::cerr << error->code() << error->localizedDescription()->utf8String() << '\n';
    const CFTimeInterval seconds = commandBuffer->GPUEndTime() - commandBuffer->GPUStartTime();
    const double kernelSeconds = commandBuffer->kernelEndTime() - commandBuffer->kernelStartTime();
    std::cout << seconds + kernelSeconds << completed << '\n';
}

void synchronisation(MTL::Device* device, MTL::CommandQueue* queue) {
    MTL::SharedEvent* event = device->newSharedEvent();
    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    commandBuffer->encodeWait(event, 1);
    commandBuffer->encodeSignalEvent(event, 2);
    commandBuffer->commit();
    event->setSignaledValue(1);
    std::cout << event->waitUntilSignaledValue(2, 1000) << event->signaledValue() << '\n';

    MTL::Fence* fence = device->newFence();
    MTL::CommandQueueDescriptor* queueDescriptor = MTL::CommandQueueDescriptor::alloc()->init();
    queueDescriptor->setMaxCommandBufferCount(16);
    MTL::CommandQueue* other = device->newCommandQueue(queueDescriptor);
    MTL::CommandQueue* sized = device->newCommandQueue(64);

    MTL::Timestamp cpu = 0;
    MTL::Timestamp gpu = 0;
    device->sampleTimestamps(&cpu, &gpu);

    sized->release();
    other->release();
    queueDescriptor->release();
    fence->release();
    event->release();
}

// --- Textures, tensors, argument buffers --------------------------------------------------------

void resources(MTL::Device* device) {
    MTL::TextureDescriptor* textureDescriptor =
        MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatRGBA8Unorm, 64, 64, false);
    textureDescriptor->setUsage(MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
    MTL::Texture* texture = device->newTexture(textureDescriptor);
    const std::uint32_t pixels[4] = {};
    texture->replaceRegion(MTL::Region::Make2D(0, 0, 2, 2), 0, pixels, 2 * sizeof(std::uint32_t));

    MTL::SamplerDescriptor* samplerDescriptor = MTL::SamplerDescriptor::alloc()->init();
    samplerDescriptor->setMinFilter(MTL::SamplerMinMagFilterLinear);
    samplerDescriptor->setSAddressMode(MTL::SamplerAddressModeClampToEdge);
    MTL::SamplerState* sampler = device->newSamplerState(samplerDescriptor);

    const NS::Integer shape[2] = {16, 16};
    MTL::TensorExtents* dimensions = MTL::TensorExtents::alloc()->init(2, shape);
    MTL::TensorDescriptor* tensorDescriptor = MTL::TensorDescriptor::alloc()->init();
    tensorDescriptor->setDimensions(dimensions);
    tensorDescriptor->setDataType(MTL::TensorDataTypeFloat32);
    tensorDescriptor->setUsage(MTL::TensorUsageCompute | MTL::TensorUsageMachineLearning);
    NS::Error* error = nullptr;
    MTL::Tensor* tensor = device->newTensor(tensorDescriptor, &error);

    MTL::ArgumentDescriptor* member = MTL::ArgumentDescriptor::argumentDescriptor();
    member->setDataType(MTL::DataTypePointer);
    member->setIndex(0);
    MTL::ArgumentEncoder* argumentEncoder = device->newArgumentEncoder(NS::Array::array(member));
    MTL::Buffer* argumentBuffer = device->newBuffer(argumentEncoder->encodedLength(), 0);
    argumentEncoder->setArgumentBuffer(argumentBuffer, 0);
    argumentEncoder->setTexture(texture, 1);

    MTL::ResidencySetDescriptor* residencyDescriptor = MTL::ResidencySetDescriptor::alloc()->init();
    MTL::ResidencySet* residency = device->newResidencySet(residencyDescriptor, &error);
    residency->addAllocation(argumentBuffer);
    const MTL::Allocation* allocations[] = {texture, tensor};
    residency->addAllocations(allocations, 2);
    residency->commit();

    residency->release();
    residencyDescriptor->release();
    argumentBuffer->release();
    argumentEncoder->release();
    tensor->release();
    tensorDescriptor->release();
    dimensions->release();
    sampler->release();
    samplerDescriptor->release();
    texture->release();
}

// --- Metal 4 ---------------------------------------------------------------------------------------

void metal4(MTL::Device* device, MTL::Library* library, MTL::Buffer* data, MTL::SharedEvent* event) {
    NS::Error* error = nullptr;
    MTL4::CommandQueue* queue = device->newMTL4CommandQueue();
    MTL4::CommandAllocator* allocator = device->newCommandAllocator();
    MTL4::CommandBuffer* commandBuffer = device->newCommandBuffer();
    MTL4::Compiler* compiler = device->newCompiler(MTL4::CompilerDescriptor::alloc()->init(), &error);

    MTL4::LibraryFunctionDescriptor* function = MTL4::LibraryFunctionDescriptor::alloc()->init();
    function->setLibrary(library);
    function->setName(MTLSTR("scale"));
    MTL4::ComputePipelineDescriptor* pipelineDescriptor = MTL4::ComputePipelineDescriptor::alloc()->init();
    pipelineDescriptor->setComputeFunctionDescriptor(function);
    MTL::ComputePipelineState* pipeline = compiler->newComputePipelineState(pipelineDescriptor, nullptr, &error);
    MTL4::CompilerTask* task = compiler->newComputePipelineState(
        pipelineDescriptor, nullptr, [](MTL::ComputePipelineState* state, NS::Error* failure) {
            (void)state, (void)failure;
        });
    task->waitUntilCompleted();

    MTL4::ArgumentTableDescriptor* tableDescriptor = MTL4::ArgumentTableDescriptor::alloc()->init();
    tableDescriptor->setMaxBufferBindCount(2);
    MTL4::ArgumentTable* table = device->newArgumentTable(tableDescriptor, &error);
    table->setAddress(data->gpuAddress(), 0);
    table->setAddress(data->gpuAddress() + 64, 1);

    MTL::ResidencySet* residency = device->newResidencySet(MTL::ResidencySetDescriptor::alloc()->init(), &error);
    residency->addAllocation(data);
    residency->commit();
    queue->addResidencySet(residency);

    allocator->reset();
    commandBuffer->beginCommandBuffer(allocator);
    MTL4::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline);
    encoder->setArgumentTable(table);
    encoder->dispatchThreads(MTL::Size(256, 1, 1), MTL::Size(64, 1, 1));
    encoder->barrierAfterEncoderStages(MTL::StageDispatch, MTL::StageDispatch, MTL4::VisibilityOptionDevice);
    encoder->dispatchThreadgroups(data->gpuAddress(), MTL::Size(64, 1, 1));
    encoder->copyFromBuffer(data, 0, data, 128, 64);
    encoder->endEncoding();
    commandBuffer->endCommandBuffer();

    MTL4::CommitOptions* commitOptions = MTL4::CommitOptions::alloc()->init();
    commitOptions->addFeedbackHandler([](MTL4::CommitFeedback* feedback) {
        std::cout << feedback->GPUEndTime() - feedback->GPUStartTime() << feedback->error() << '\n';
    });
    const MTL4::CommandBuffer* batch[] = {commandBuffer};
    queue->commit(batch, 1, commitOptions);
    MTL4::CommandBuffer* mutableBatch[] = {commandBuffer};
    queue->commit(mutableBatch, 1);
    queue->signalEvent(event, 1);
    std::cout << event->waitUntilSignaledValue(1, 1000) << '\n';

    commitOptions->release();
    residency->release();
    table->release();
    tableDescriptor->release();
    task->release();
    pipeline->release();
    pipelineDescriptor->release();
    function->release();
    compiler->release();
    commandBuffer->release();
    allocator->release();
    queue->release();
}

// --- Tools and QuartzCore --------------------------------------------------------------------------

void capture(MTL::Device* device) {
    MTL::CaptureManager* manager = MTL::CaptureManager::sharedCaptureManager();
    MTL::CaptureDescriptor* descriptor = MTL::CaptureDescriptor::alloc()->init();
    descriptor->setCaptureObject(device);
    descriptor->setDestination(MTL::CaptureDestinationGPUTraceDocument);
    NS::Error* error = nullptr;
    if (manager->supportsDestination(MTL::CaptureDestinationGPUTraceDocument) &&
        manager->startCapture(descriptor, &error))
        manager->stopCapture();
    descriptor->release();

    CA::MetalLayer* layer = CA::MetalLayer::layer();
    layer->setDevice(device);
    layer->setPixelFormat(MTL::PixelFormatBGRA8Unorm);
    if (CA::MetalDrawable* drawable = layer->nextDrawable()) std::cout << drawable->texture() << '\n';
}

} // namespace api_patterns
