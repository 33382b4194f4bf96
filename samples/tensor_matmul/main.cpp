// Runs matmul_relu.metal through the Metal 4 host model: D = relu(A x B) for n x n half
// matrices (n a multiple of 64), checked against a CPU reference.
//
//     tensor_matmul [n]
//
// Exit status 0 when every element is within the half-precision tolerance.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Half = _Float16;

constexpr int kTile = 64;
constexpr NS::UInteger kSimdgroupsPerTile = 4;

const char* text(NS::Error* error) {
    return error && error->localizedDescription() ? error->localizedDescription()->utf8String() : "(no error)";
}

/// An n x n row-major half tensor: extents innermost first, so (columns, rows).
MTL::Tensor* newMatrix(MTL::Device* device, NS::Integer n) {
    const NS::Integer dims[2] = {n, n};
    NS::SharedPtr<MTL::TensorExtents> extents = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, dims));
    NS::SharedPtr<MTL::TensorDescriptor> descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    descriptor->setDimensions(extents.get());
    descriptor->setDataType(MTL::TensorDataTypeFloat16);
    descriptor->setUsage(MTL::TensorUsageCompute);
    NS::Error* error = nullptr;
    MTL::Tensor* tensor = device->newTensor(descriptor.get(), &error);
    if (!tensor) std::fprintf(stderr, "newTensor: %s\n", text(error));
    return tensor;
}

/// Copies a whole n x n matrix in (`write`) or out of a tensor.
void copyMatrix(MTL::Tensor* tensor, std::vector<Half>& values, NS::Integer n, bool write) {
    const NS::Integer zero[2] = {0, 0}, dims[2] = {n, n}, strides[2] = {1, n};
    NS::SharedPtr<MTL::TensorExtents> origin = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, zero));
    NS::SharedPtr<MTL::TensorExtents> size = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, dims));
    NS::SharedPtr<MTL::TensorExtents> layout = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, strides));
    if (write) tensor->replaceSliceOrigin(origin.get(), size.get(), values.data(), layout.get());
    else tensor->getBytes(values.data(), layout.get(), origin.get(), size.get());
}

} // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    if (n <= 0 || n % kTile != 0) {
        std::fprintf(stderr, "usage: tensor_matmul [n], n a positive multiple of %d\n", kTile);
        return 2;
    }
    NS::SharedPtr<NS::AutoreleasePool> pool = NS::TransferPtr(NS::AutoreleasePool::alloc()->init());
    NS::SharedPtr<MTL::Device> device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    if (!device->supportsFamily(MTL::GPUFamilyMetal4)) {
        std::fprintf(stderr, "this device does not support Metal 4\n");
        return 1;
    }

    // Inputs with small values, so half products stay exact enough to compare.
    std::vector<Half> a(std::size_t(n) * n), b(std::size_t(n) * n), d(std::size_t(n) * n);
    for (int i = 0; i < n * n; ++i) {
        a[i] = Half(float((i * 7) % 11 - 5) / 8.0f);
        b[i] = Half(float((i * 5) % 13 - 6) / 8.0f);
    }
    NS::SharedPtr<MTL::Tensor> tensorA = NS::TransferPtr(newMatrix(device.get(), n));
    NS::SharedPtr<MTL::Tensor> tensorB = NS::TransferPtr(newMatrix(device.get(), n));
    NS::SharedPtr<MTL::Tensor> tensorD = NS::TransferPtr(newMatrix(device.get(), n));
    if (!tensorA || !tensorB || !tensorD) return 1;
    copyMatrix(tensorA.get(), a, n, true);
    copyMatrix(tensorB.get(), b, n, true);

    // The pipeline, from default.metallib beside this program.
    NS::Error* error = nullptr;
    NS::SharedPtr<MTL::Library> library = NS::TransferPtr(device->newDefaultLibrary());
    if (!library) {
        std::fprintf(stderr, "no default.metallib\n");
        return 1;
    }
    NS::SharedPtr<MTL::Function> function =
        NS::TransferPtr(library->newFunction(NS::String::string("matmul_relu", NS::UTF8StringEncoding)));
    NS::SharedPtr<MTL::ComputePipelineState> pipeline =
        NS::TransferPtr(device->newComputePipelineState(function.get(), &error));
    if (!pipeline) {
        std::fprintf(stderr, "pipeline: %s\n", text(error));
        return 1;
    }

    // Metal 4 objects: queue, allocator, command buffer, argument table, residency set, event.
    NS::SharedPtr<MTL4::CommandQueue> queue = NS::TransferPtr(device->newMTL4CommandQueue());
    NS::SharedPtr<MTL4::CommandAllocator> allocator = NS::TransferPtr(device->newCommandAllocator());
    NS::SharedPtr<MTL4::CommandBuffer> commandBuffer = NS::TransferPtr(device->newCommandBuffer());
    NS::SharedPtr<MTL4::ArgumentTableDescriptor> tableDescriptor =
        NS::TransferPtr(MTL4::ArgumentTableDescriptor::alloc()->init());
    tableDescriptor->setMaxBufferBindCount(3);
    NS::SharedPtr<MTL4::ArgumentTable> table = NS::TransferPtr(device->newArgumentTable(tableDescriptor.get(), &error));
    NS::SharedPtr<MTL::ResidencySetDescriptor> residencyDescriptor =
        NS::TransferPtr(MTL::ResidencySetDescriptor::alloc()->init());
    NS::SharedPtr<MTL::ResidencySet> residency =
        NS::TransferPtr(device->newResidencySet(residencyDescriptor.get(), &error));
    NS::SharedPtr<MTL::SharedEvent> done = NS::TransferPtr(device->newSharedEvent());
    if (!queue || !allocator || !commandBuffer || !table || !residency || !done) {
        std::fprintf(stderr, "Metal 4 objects: %s\n", text(error));
        return 1;
    }
    for (MTL::Tensor* tensor : {tensorA.get(), tensorB.get(), tensorD.get()}) residency->addAllocation(tensor);
    residency->commit();
    table->setResource(tensorA->gpuResourceID(), 0);
    table->setResource(tensorB->gpuResourceID(), 1);
    table->setResource(tensorD->gpuResourceID(), 2);

    commandBuffer->beginCommandBuffer(allocator.get());
    commandBuffer->useResidencySet(residency.get());
    MTL4::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(pipeline.get());
    encoder->setArgumentTable(table.get());
    const NS::UInteger tiles = NS::UInteger(n / kTile);
    encoder->dispatchThreadgroups(MTL::Size(tiles, tiles, 1),
                                  MTL::Size(kSimdgroupsPerTile * pipeline->threadExecutionWidth(), 1, 1));
    encoder->endEncoding();
    commandBuffer->endCommandBuffer();
    const MTL4::CommandBuffer* batch[] = {commandBuffer.get()};
    queue->commit(batch, 1);
    queue->signalEvent(done.get(), 1);
    if (!done->waitUntilSignaledValue(1, 60000)) {
        std::fprintf(stderr, "the command buffer did not complete in 60 s\n");
        return 1;
    }
    copyMatrix(tensorD.get(), d, n, false);

    // The CPU reference, in double; the GPU rounds the float sum to half once.
    double worst = 0;
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column) {
            double sum = 0, magnitude = 0;
            for (int k = 0; k < n; ++k) {
                const double term = double(a[std::size_t(row) * n + k]) * double(b[std::size_t(k) * n + column]);
                sum += term;
                magnitude += std::fabs(term);
            }
            const double expected = sum > 0 ? sum : 0;
            const double got = double(d[std::size_t(row) * n + column]);
            const double tolerance = std::ldexp(1.0, -10) * (magnitude + std::fabs(expected)) + 1e-6;
            worst = std::fmax(worst, std::fabs(got - expected) / tolerance);
        }
    std::printf("%d x %d x %d half matmul + relu: worst error %.3f of the tolerance: %s\n", n, n, n, worst,
                worst <= 1.0 ? "PASS" : "FAIL");
    return worst <= 1.0 ? 0 : 1;
}
