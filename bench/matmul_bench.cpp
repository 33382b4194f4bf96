// GFLOPS of the four samples/matmul kernels run through metalcpu, next to the same
// algorithms as plain C++ (matmul_twins.cpp) built with the kernels' compiler flags.
//
//   matmul_bench [--sizes 1024,2048] [--repeat 3] [--kernel name] [--only metal|twin]
//
// --kernel runs one kernel, --only one side (the results are then not compared): for
// farm-bench's whole-process medians of one kernel.
//
// Prints a Markdown table for the README; exits with 1 when a kernel's result differs from
// its twin's. Targets (issue 2): kernels without barriers at least 0.8x their twin, the
// tiled barrier kernel at least 0.25x.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "ShaderParams.h"
#include "matmul_twins.h"
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using Twin = void (*)(const float*, const float*, float*, unsigned, unsigned, unsigned);

struct KernelCase {
    const char* name;
    Twin twin;
    bool barriers;
};

const KernelCase kCases[] = {{"mat_mul_naive", &twins::naive, false},
                             {"mat_mul_tiled", &twins::tiled, true},
                             {"mat_mul_register_4x4", &twins::register4x4, false},
                             {"mat_mul_register_8x4", &twins::register8x4, false}};

void dispatch(MTL::ComputeCommandEncoder* encoder, const char* name, unsigned n) {
    if (!std::strcmp(name, "mat_mul_register_4x4"))
        encoder->dispatchThreads(MTL::Size(n / 4, n / 4, 1), MTL::Size(8, 8, 1));
    else if (!std::strcmp(name, "mat_mul_register_8x4"))
        encoder->dispatchThreads(MTL::Size(n / 4, n / 8, 1), MTL::Size(8, 8, 1));
    else
        encoder->dispatchThreadgroups(MTL::Size((n + 15) / 16, (n + 15) / 16, 1), MTL::Size(16, 16, 1));
}

} // namespace

int main(int argc, char** argv) {
    std::vector<unsigned> sizes = {1024, 2048};
    int repeat = 3;
    std::string only, selected;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--kernel") && i + 1 < argc) selected = argv[++i];
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
            sizes.clear();
            for (char* p = argv[++i]; *p;) {
                sizes.push_back(static_cast<unsigned>(std::strtoul(p, &p, 10)));
                if (*p == ',') ++p;
            }
        }
    }
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::Library* library = device->newDefaultLibrary();
    if (!library) {
        std::fprintf(stderr, "default.metallib not found beside the benchmark\n");
        return 1;
    }
    bool differ = false;
    std::printf("| kernel | size | metalcpu GFLOPS | plain C++ GFLOPS | ratio |\n|---|---|---|---|---|\n");
    for (unsigned n : sizes) {
        MTL::Buffer* a = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        MTL::Buffer* b = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        MTL::Buffer* c = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        std::vector<float> reference(std::size_t(n) * n);
        std::mt19937 generator(n);
        std::uniform_real_distribution<float> uniform(-1, 1);
        for (std::size_t i = 0; i < std::size_t(n) * n; ++i) {
            static_cast<float*>(a->contents())[i] = uniform(generator);
            static_cast<float*>(b->contents())[i] = uniform(generator);
        }
        MatMulParams params{n, n, n};
        const double flops = 2.0 * n * n * n;
        for (const KernelCase& kernel : kCases) {
            if (!selected.empty() && selected != kernel.name) continue;
            if (only == "twin") {
                const double plain = bench::bestSeconds(repeat, [&] {
                    kernel.twin(static_cast<const float*>(a->contents()), static_cast<const float*>(b->contents()),
                                reference.data(), n, n, n);
                });
                std::printf("| %s | %u² | | %.2f | |\n", kernel.name, n, flops / plain * 1e-9);
                continue;
            }
            MTL::Function* function = library->newFunction(NS::String::string(kernel.name, NS::UTF8StringEncoding));
            NS::Error* error = nullptr;
            MTL::ComputePipelineState* pipeline = device->newComputePipelineState(function, &error);
            function->release();
            // NaN in C first, so a kernel that leaves elements unwritten cannot match the twin.
            std::fill_n(static_cast<float*>(c->contents()), std::size_t(n) * n, std::numeric_limits<float>::quiet_NaN());
            double metal = bench::bestSeconds(repeat, [&] {
                MTL::CommandBuffer* commandBuffer = queue->commandBuffer();
                MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
                encoder->setComputePipelineState(pipeline);
                encoder->setBuffer(a, 0, 0);
                encoder->setBuffer(b, 0, 1);
                encoder->setBuffer(c, 0, 2);
                encoder->setBytes(&params, sizeof params, 3);
                dispatch(encoder, kernel.name, n);
                encoder->endEncoding();
                commandBuffer->commit();
                commandBuffer->waitUntilCompleted();
            });
            if (only == "metal") {
                std::printf("| %s | %u² | %.2f | | |\n", kernel.name, n, flops / metal * 1e-9);
                pipeline->release();
                continue;
            }
            double plain = bench::bestSeconds(repeat, [&] {
                kernel.twin(static_cast<const float*>(a->contents()), static_cast<const float*>(b->contents()),
                            reference.data(), n, n, n);
            });
            double difference = 0;
            for (std::size_t i = 0; i < reference.size(); ++i) {
                const double error = std::fabs(reference[i] - static_cast<float*>(c->contents())[i]);
                if (std::isnan(error)) {
                    difference = std::numeric_limits<double>::infinity();
                    break;
                }
                difference = std::max(difference, error);
            }
            differ = differ || difference > 1e-2;
            std::printf("| %s%s | %u² | %.2f | %.2f | %.2f |%s\n", kernel.name, kernel.barriers ? " (barriers)" : "", n,
                        flops / metal * 1e-9, flops / plain * 1e-9, plain / metal,
                        difference > 1e-2 ? "  RESULTS DIFFER" : "");
            std::fflush(stdout);
            pipeline->release();
        }
        a->release();
        b->release();
        c->release();
    }
    library->release();
    queue->release();
    device->release();
    pool->release();
    return differ ? 1 : 0;
}
