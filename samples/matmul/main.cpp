// Matrix multiplication on "the GPU": four kernels (naive, threadgroup-tiled, and two
// float4x4 register-tiled ones), checked against the CPU, timed in GFLOPS over a few
// sizes, and an experiment that interleaves CPU and GPU work on the same shared buffers.
//
//   matmul [--sizes 256,512,1024] [--repeat N]
#define NS_PRIVATE_IMPLEMENTATION
#define CA_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

#include "MatrixMultiplier.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

const Kernel kKernels[] = {Kernel::Naive, Kernel::Tiled, Kernel::Register4x4, Kernel::Register8x4};

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<unsigned> parseSizes(const char* text) {
    std::vector<unsigned> sizes;
    for (const char* p = text; *p;) {
        sizes.push_back(static_cast<unsigned>(std::strtoul(p, const_cast<char**>(&p), 10)));
        if (*p == ',') ++p;
        else if (*p) break;
    }
    return sizes;
}

// Checks every kernel on one size against the CPU. Returns false on a wrong result.
bool verify(MatrixMultiplier& multiplier, unsigned rows, unsigned cols, unsigned inner) {
    bool ok = true;
    multiplier.allocate(rows, cols, inner);
    multiplier.randomize(rows * 31 + cols);
    for (Kernel kernel : kKernels) {
        if (!kernelSupports(kernel, rows, cols, inner)) continue;
        if (!multiplier.selectKernel(kernel)) return false;
        multiplier.poisonResult();
        if (!multiplier.multiplyOnGpu()) return false;
        double error = multiplier.maxErrorAgainstCpu();
        // float sums of `inner` products of values in [-1, 1]
        double tolerance = 1e-5 * inner + 1e-4;
        bool passed = error <= tolerance;
        std::printf("  %-22s %4ux%4ux%4u  max error %.2e  %s\n", kernelName(kernel), rows, cols, inner, error,
                    passed ? "ok" : "WRONG");
        ok = ok && passed;
    }
    return ok;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<unsigned> sizes = {256, 512, 1024};
    int repeat = 3;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = parseSizes(argv[++i]);
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
    }

    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    std::printf("Device: %s\n", device->name()->utf8String());
    MatrixMultiplier multiplier(device);

    std::printf("\nChecking the kernels against the CPU\n");
    bool ok = verify(multiplier, 64, 96, 32) && verify(multiplier, 50, 70, 30);
    for (unsigned size : sizes) ok = ok && verify(multiplier, size, size, size);
    if (!ok) {
        std::printf("FAILED: a kernel computed a wrong result\n");
        return 1;
    }

    std::printf("\nGFLOPS (best of %d runs)\n%-22s", repeat, "kernel");
    for (unsigned size : sizes) std::printf(" %8u^2", size);
    std::printf("\n");
    for (Kernel kernel : kKernels) {
        std::printf("%-22s", kernelName(kernel));
        for (unsigned size : sizes) {
            multiplier.allocate(size, size, size);
            multiplier.randomize(7);
            if (!kernelSupports(kernel, size, size, size) || !multiplier.selectKernel(kernel)) {
                std::printf(" %10s", "-");
                continue;
            }
            double best = 1e30;
            for (int r = 0; r < repeat; ++r) {
                auto start = std::chrono::steady_clock::now();
                multiplier.multiplyOnGpu();
                best = std::min(best, secondsSince(start));
            }
            std::printf(" %10.2f", 2.0 * size * size * size / best * 1e-9);
        }
        std::printf("\n");
    }

    // The experiment: does CPU work on the shared inputs between GPU runs cost more than
    // the work itself? With unified memory there is nothing to copy.
    const unsigned size = sizes.back();
    multiplier.allocate(size, size, size);
    multiplier.randomize(11);
    multiplier.selectKernel(Kernel::Tiled);
    std::printf("\nInterleaving CPU and GPU work on shared buffers (%ux%u, mat_mul_tiled, %d runs)\n", size, size,
                repeat);
    struct Step {
        const char* name;
        bool touch, relu, gpu;
    } steps[] = {{"GPU multiplication only", false, false, true},
                 {"CPU touch + GPU multiplication", true, false, true},
                 {"CPU relu + GPU multiplication", false, true, true},
                 {"CPU relu only", false, true, false}};
    for (const Step& step : steps) {
        auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < repeat; ++r) {
            if (step.touch) multiplier.touchInputsOnCpu();
            if (step.relu) multiplier.reluInputsOnCpu();
            if (step.gpu) multiplier.multiplyOnGpu();
        }
        std::printf("  %-32s %9.2f ms per run\n", step.name, secondsSince(start) * 1e3 / repeat);
    }

    device->release();
    pool->release();
    return 0;
}
