// What MTL::Device reports it can do: limits, feature queries, texture alignments, timestamps
// and compilation concurrency.
#include "runtime/device.h"

#include <Foundation/NSArray.hpp>
#include <Metal/MTLDevice.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

namespace metalcpu::api {
namespace {

/// Device::setShouldMaximizeConcurrentCompilation; one device, so one setting.
std::atomic<bool> maximizeConcurrentCompilation{false};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using metalcpu::ns::implOf;
using Dev = metalcpu::rt::Device;

// Limits, and the GPU families the device counts as.
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

// Argument buffers of tier 2 are structs of Buffer::gpuAddress() values that the host
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
