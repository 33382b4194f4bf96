// Runs the two kernels of tile_product.metal (a portable one and one that hard-codes the M5
// cooperative-tensor layout) on the same product and says, for this device's layout, whether
// each matched the CPU reference.
//
//     cooperative_layout both|portable-only
//
// The argument is the outcome to expect: `both` kernels right (an M5, METALCPU_GPU_FAMILY=apple10),
// or the portable kernel right and the hard-coded one wrong (any other layout). Exit status 0
// when the outcome is the expected one.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Gemm {
    std::int32_t m, n, k;
};

constexpr Gemm kShape{48, 64, 32};  // 3 x 2 tiles of 16 x 32, two K steps of 16
constexpr int kTileRows = 16, kTileColumns = 32;

const char* text(NS::Error* error) {
    return error && error->localizedDescription() ? error->localizedDescription()->utf8String() : "(no error)";
}

/// Runs `name` over a, b into a fresh D; true when D equals the reference exactly (small
/// integers: every float sum is exact whatever the order).
bool matchesReference(MTL::Device* device, MTL::Library* library, MTL::CommandQueue* queue, const char* name,
                      MTL::Buffer* a, MTL::Buffer* b, const std::vector<float>& reference) {
    NS::Error* error = nullptr;
    NS::SharedPtr<MTL::Function> function =
        NS::TransferPtr(library->newFunction(NS::String::string(name, NS::UTF8StringEncoding)));
    NS::SharedPtr<MTL::ComputePipelineState> pipeline =
        function ? NS::TransferPtr(device->newComputePipelineState(function.get(), &error))
                 : NS::SharedPtr<MTL::ComputePipelineState>();
    if (!pipeline) {
        std::fprintf(stderr, "%s: %s\n", name, function ? text(error) : "no such function");
        return false;
    }
    const std::size_t bytes = reference.size() * sizeof(float);
    NS::SharedPtr<MTL::Buffer> d = NS::TransferPtr(device->newBuffer(bytes, MTL::ResourceStorageModeShared));
    std::memset(d->contents(), 0xff, bytes);  // NaN: an element nobody writes cannot pass

    MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline.get());
    encoder->setBuffer(a, 0, 0);
    encoder->setBuffer(b, 0, 1);
    encoder->setBuffer(d.get(), 0, 2);
    encoder->setBytes(&kShape, sizeof kShape, 3);
    // One SIMD-group (execution_simdgroup) per tile of D.
    encoder->dispatchThreadgroups(MTL::Size(kShape.n / kTileColumns, kShape.m / kTileRows, 1),
                                  MTL::Size(pipeline->threadExecutionWidth(), 1, 1));
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    if (commandBuffer->status() != MTL::CommandBufferStatusCompleted) {
        std::fprintf(stderr, "%s: command buffer failed: %s\n", name, text(commandBuffer->error()));
        return false;
    }
    const float* got = static_cast<const float*>(d->contents());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < reference.size(); ++i) wrong += got[i] != reference[i];
    std::printf("  %-13s %s (%zu of %zu elements differ)\n", name, wrong == 0 ? "matches" : "MISMATCHES", wrong,
                reference.size());
    return wrong == 0;
}

/// The layout METALCPU_COOPERATIVE_LAYOUT asks for, else the one of the emulated family.
const char* layoutName(MTL::Device* device) {
    const char* layout = std::getenv("METALCPU_COOPERATIVE_LAYOUT");
    if (layout && *layout && std::strcmp(layout, "family") != 0) return layout;
    return device->supportsFamily(MTL::GPUFamilyApple10) ? "apple10 (M5)" : "apple9 (before M5)";
}

} // namespace

int main(int argc, char** argv) {
    const bool expectBoth = argc == 2 && std::strcmp(argv[1], "both") == 0;
    if (argc != 2 || (!expectBoth && std::strcmp(argv[1], "portable-only") != 0)) {
        std::fprintf(stderr, "usage: cooperative_layout both|portable-only  (the outcome to expect)\n");
        return 2;
    }
    NS::SharedPtr<NS::AutoreleasePool> pool = NS::TransferPtr(NS::AutoreleasePool::alloc()->init());
    NS::SharedPtr<MTL::Device> device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    if (!device->supportsFamily(MTL::GPUFamilyMetal4)) {
        std::fprintf(stderr, "this device does not support Metal 4\n");
        return 1;
    }
    NS::SharedPtr<MTL::Library> library = NS::TransferPtr(device->newDefaultLibrary());
    NS::SharedPtr<MTL::CommandQueue> queue = NS::TransferPtr(device->newCommandQueue());
    if (!library || !queue) {
        std::fprintf(stderr, "no default.metallib or no command queue\n");
        return 1;
    }

    // Small integers, so the reference is exact and any misplaced element shows.
    std::vector<float> a(std::size_t(kShape.m) * kShape.k), b(std::size_t(kShape.k) * kShape.n);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 5 % 9) - 4);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 3 % 7) - 3);
    std::vector<float> reference(std::size_t(kShape.m) * kShape.n);
    for (int row = 0; row < kShape.m; ++row)
        for (int column = 0; column < kShape.n; ++column) {
            float sum = 0;
            for (int k = 0; k < kShape.k; ++k)
                sum += a[std::size_t(row) * kShape.k + k] * b[std::size_t(k) * kShape.n + column];
            reference[std::size_t(row) * kShape.n + column] = sum;
        }
    NS::SharedPtr<MTL::Buffer> bufferA =
        NS::TransferPtr(device->newBuffer(a.data(), a.size() * sizeof(float), MTL::ResourceStorageModeShared));
    NS::SharedPtr<MTL::Buffer> bufferB =
        NS::TransferPtr(device->newBuffer(b.data(), b.size() * sizeof(float), MTL::ResourceStorageModeShared));

    std::printf("%d x %d x %d float product, cooperative-tensor layout %s:\n", kShape.m, kShape.n, kShape.k,
                layoutName(device.get()));
    const bool portable = matchesReference(device.get(), library.get(), queue.get(), "portable_tile", bufferA.get(),
                                           bufferB.get(), reference);
    const bool hardCoded = matchesReference(device.get(), library.get(), queue.get(), "m5_tile", bufferA.get(),
                                            bufferB.get(), reference);
    const bool expected = portable && hardCoded == expectBoth;
    std::printf("expected %s: %s\n", expectBoth ? "both to match" : "only the portable kernel to match",
                expected ? "PASS" : "FAIL");
    return expected ? 0 : 1;
}
