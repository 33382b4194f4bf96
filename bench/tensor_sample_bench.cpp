// GFLOPS of samples/tensor_matmul end to end (issue 11's benchmark): the sample's kernel
// (matmul_relu.metal, half tensors, 64x64 tiles, one matmul2d per tile on four SIMD-groups)
// and the same kernel with float tensors, compiled by newLibrary(source) at
// LanguageVersion4_0 and run through the MTL4 host path as the sample runs it, next to
// OpenBLAS's multi-threaded cblas_sgemm on as many threads as metalcpu's executor has
// (METALCPU_THREADS, else one per hardware thread) when the build found OpenBLAS.
// A kernel's time is the best of --repeat commits, from commit to the completion event;
// GFLOPS = 2 n^3 / time (the ReLU is not counted). Issue 11's target: at least 0.3x sgemm.
//
//   tensor_sample_bench [--sizes 1024,2048] [--repeat 3] [--only half|float|sgemm]
//
// Prints a Markdown table. --only runs one column, for alternating whole-process timings.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "openblas.h"
#include "timing.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>


namespace {

constexpr int kTile = 64;
constexpr NS::UInteger kSimdgroupsPerTile = 4;

const char* text(NS::Error* error) {
    return error && error->localizedDescription() ? error->localizedDescription()->utf8String() : "(no error)";
}

[[noreturn]] void fail(const char* what, NS::Error* error = nullptr) {
    std::fprintf(stderr, "%s: %s\n", what, text(error));
    std::exit(1);
}

/// The sample's kernel source; for float, every `half` of it becomes `float`.
std::string kernelSource(bool asFloat) {
    std::ifstream in(std::string(METALCPU_TENSOR_MATMUL_DIR) + "/matmul_relu.metal");
    std::ostringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    if (source.empty()) fail("cannot read matmul_relu.metal");
    for (std::size_t at = 0; asFloat && (at = source.find("half", at)) != std::string::npos; at += 5)
        source.replace(at, 4, "float");
    return source;
}

/// An n x n row-major tensor: extents innermost first, so (columns, rows).
NS::SharedPtr<MTL::Tensor> newMatrix(MTL::Device* device, NS::Integer n, MTL::TensorDataType type) {
    const NS::Integer dims[2] = {n, n};
    NS::SharedPtr<MTL::TensorExtents> extents = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, dims));
    NS::SharedPtr<MTL::TensorDescriptor> descriptor = NS::TransferPtr(MTL::TensorDescriptor::alloc()->init());
    descriptor->setDimensions(extents.get());
    descriptor->setDataType(type);
    descriptor->setUsage(MTL::TensorUsageCompute);
    NS::Error* error = nullptr;
    NS::SharedPtr<MTL::Tensor> tensor = NS::TransferPtr(device->newTensor(descriptor.get(), &error));
    if (!tensor) fail("newTensor", error);
    return tensor;
}

/// Copies a whole n x n matrix into (`write`) or out of a tensor.
void copyMatrix(MTL::Tensor* tensor, void* values, NS::Integer n, bool write) {
    const NS::Integer zero[2] = {0, 0}, dims[2] = {n, n}, strides[2] = {1, n};
    NS::SharedPtr<MTL::TensorExtents> origin = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, zero));
    NS::SharedPtr<MTL::TensorExtents> size = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, dims));
    NS::SharedPtr<MTL::TensorExtents> layout = NS::TransferPtr(MTL::TensorExtents::alloc()->init(2, strides));
    if (write) tensor->replaceSliceOrigin(origin.get(), size.get(), values, layout.get());
    else tensor->getBytes(values, layout.get(), origin.get(), size.get());
}

/// Inputs in [-1, 1], the same for every column of the table.
struct Inputs {
    int n;
    std::vector<float> a, b;
    explicit Inputs(int n_) : n(n_), a(std::size_t(n_) * n_), b(std::size_t(n_) * n_) {
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> pick(-1.0f, 1.0f);
        for (float& v : a) v = pick(rng);
        for (float& v : b) v = pick(rng);
    }
    double flops() const { return 2.0 * n * double(n) * n; }
};

/// Best seconds of the sample's kernel with element type T over `inputs`, from commit to
/// completion. A few sampled elements are checked against a double reference, so that a
/// kernel that did not run cannot post a figure.
template <class T>
double kernelSeconds(MTL::Device* device, const Inputs& inputs, int repeat) {
    constexpr bool isFloat = sizeof(T) == 4;
    const MTL::TensorDataType type = isFloat ? MTL::TensorDataTypeFloat32 : MTL::TensorDataTypeFloat16;
    const int n = inputs.n;
    std::vector<T> a(inputs.a.begin(), inputs.a.end()), b(inputs.b.begin(), inputs.b.end()), d(a.size());
    NS::SharedPtr<MTL::Tensor> tensorA = newMatrix(device, n, type), tensorB = newMatrix(device, n, type),
                               tensorD = newMatrix(device, n, type);
    copyMatrix(tensorA.get(), a.data(), n, true);
    copyMatrix(tensorB.get(), b.data(), n, true);

    NS::SharedPtr<MTL::CompileOptions> options = NS::TransferPtr(MTL::CompileOptions::alloc()->init());
    options->setLanguageVersion(MTL::LanguageVersion4_0);
    NS::Error* error = nullptr;
    const std::string source = kernelSource(isFloat);
    NS::SharedPtr<MTL::Library> library = NS::TransferPtr(
        device->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), options.get(), &error));
    if (!library) fail("newLibrary", error);
    NS::SharedPtr<MTL::Function> function =
        NS::TransferPtr(library->newFunction(NS::String::string("matmul_relu", NS::UTF8StringEncoding)));
    NS::SharedPtr<MTL::ComputePipelineState> pipeline =
        NS::TransferPtr(device->newComputePipelineState(function.get(), &error));
    if (!pipeline) fail("pipeline", error);

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
    if (!queue || !allocator || !commandBuffer || !table || !residency || !done) fail("Metal 4 objects", error);
    for (MTL::Tensor* tensor : {tensorA.get(), tensorB.get(), tensorD.get()}) residency->addAllocation(tensor);
    residency->commit();
    table->setResource(tensorA->gpuResourceID(), 0);
    table->setResource(tensorB->gpuResourceID(), 1);
    table->setResource(tensorD->gpuResourceID(), 2);

    std::uint64_t signalled = 0;
    double best = 1e30;
    for (int r = 0; r < repeat; ++r) {
        // Encoding is outside the timing: commit to completion is what the GPU would be doing.
        allocator->reset();
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
        const auto start = std::chrono::steady_clock::now();
        queue->commit(batch, 1);
        queue->signalEvent(done.get(), ++signalled);
        if (!done->waitUntilSignaledValue(signalled, 600000)) fail("the command buffer did not complete in 600 s");
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }

    copyMatrix(tensorD.get(), d.data(), n, false);
    std::mt19937 rng(3);
    for (int check = 0; check < 32; ++check) {
        const int row = int(rng() % unsigned(n)), column = int(rng() % unsigned(n));
        double sum = 0, magnitude = 0;
        for (int k = 0; k < n; ++k) {
            const double term = double(a[std::size_t(row) * n + k]) * double(b[std::size_t(k) * n + column]);
            sum += term, magnitude += std::fabs(term);
        }
        const double expected = sum > 0 ? sum : 0, got = double(d[std::size_t(row) * n + column]);
        const double tolerance = std::ldexp(1.0, isFloat ? -18 : -9) * (magnitude + std::fabs(expected)) + 1e-6;
        if (std::fabs(got - expected) > tolerance) {
            std::fprintf(stderr, "%s kernel, n = %d: D[%d][%d] = %g, expected %g\n", isFloat ? "float" : "half", n, row,
                         column, got, expected);
            std::exit(1);
        }
    }
    return best;
}

/// Worker threads of metalcpu's executor, as src/support/config.def defines them.
int executorThreads() {
    const char* setting = std::getenv("METALCPU_THREADS");
    const int threads = setting ? std::atoi(setting) : 0;
    return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes = {1024, 2048};
    int repeat = 3;
    std::string only;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
        else if (!std::strcmp(argv[i], "--sizes")) {
            sizes.clear();
            for (const char* at = argv[i + 1]; *at; ++at) {
                sizes.push_back(std::atoi(at));
                while (at[1] && *at != ',') ++at;
            }
        }
    }
    for (int n : sizes)
        if (n <= 0 || n % kTile != 0) {
            std::fprintf(stderr, "sizes must be positive multiples of %d\n", kTile);
            return 2;
        }
    const int threads = executorThreads();
#if defined(METALCPU_BENCH_OPENBLAS)
    openblas_set_num_threads(threads);
    const bool haveSgemm = only.empty() || only == "sgemm";
#else
    const bool haveSgemm = false;
#endif
    const bool runFloat = only.empty() || only == "float", runHalf = only.empty() || only == "half";

    NS::SharedPtr<NS::AutoreleasePool> pool = NS::TransferPtr(NS::AutoreleasePool::alloc()->init());
    NS::SharedPtr<MTL::Device> device = NS::TransferPtr(MTL::CreateSystemDefaultDevice());
    if (!device->supportsFamily(MTL::GPUFamilyMetal4)) fail("this device does not support Metal 4");

    std::printf("%d threads, best of %d\n\n| n |", threads, repeat);
    if (haveSgemm) std::printf(" sgemm GFLOPS |");
    if (runFloat) std::printf(" float kernel GFLOPS |%s", haveSgemm ? " vs sgemm |" : "");
    if (runHalf) std::printf(" half kernel GFLOPS |%s", haveSgemm ? " vs sgemm |" : "");
    std::printf("\n|---|%s%s%s\n", haveSgemm ? "---|" : "", runFloat ? (haveSgemm ? "---|---|" : "---|") : "",
                runHalf ? (haveSgemm ? "---|---|" : "---|") : "");
    for (int n : sizes) {
        const Inputs inputs(n);
        std::printf("| %d |", n);
        double sgemm = 0;
#if defined(METALCPU_BENCH_OPENBLAS)
        if (haveSgemm) {
            std::vector<float> c(inputs.a.size());
            const double seconds = bench::bestSeconds(repeat, [&] {
                cblas_sgemm(bench::kRowMajor, bench::kNoTranspose, bench::kNoTranspose, n, n, n, 1.0f, inputs.a.data(),
                            n, inputs.b.data(), n, 0.0f, c.data(), n);
            });
            sgemm = inputs.flops() / seconds / 1e9;
            std::printf(" %.1f |", sgemm);
        }
#endif
        for (bool asFloat : {true, false}) {
            if (asFloat ? !runFloat : !runHalf) continue;
            const double seconds = asFloat ? kernelSeconds<float>(device.get(), inputs, repeat)
                                           : kernelSeconds<_Float16>(device.get(), inputs, repeat);
            const double gflops = inputs.flops() / seconds / 1e9;
            std::printf(" %.1f |", gflops);
            if (sgemm > 0) std::printf(" %.2f |", gflops / sgemm);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
