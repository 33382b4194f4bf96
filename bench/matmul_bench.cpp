// GFLOPS of the four samples/matmul kernels run through metalcpu, next to the same
// algorithms as plain C++ (matmul_twins.cpp) built with the kernels' compiler flags, as
// OpenCL C on PoCL (opencl_matmul.cpp, when CMake found OpenCL and a CPU device is
// installed) and next to OpenBLAS's cblas_sgemm (when CMake found OpenBLAS), the ceiling
// for the register-tiled kernels.
//
//   matmul_bench [--sizes 1024,2048] [--repeat 3] [--kernel name] [--only metal|twin|pocl|lanes]
//                [--cpu-time] [--group WxH]
//
// --kernel runs that kernel alone, --only one side (the results are then not compared): for
// paired medians of whole processes (one library against another, METALCPU_KERNEL_ISA
// against another, one side against the other). --cpu-time times every side by the
// process's CPU time instead of wall time (bench/timing.h), so GFLOPS are per busy core
// times the threads: on a loaded machine the sides still compare. --group gives the
// register-tiled kernels another threadgroup than 8x8: narrower than eight, no block of
// theirs runs as vector lanes (docs/compiler.md, "What a compile costs").
//
// Prints a Markdown table for the README; exits with 1 when a kernel's result differs from
// its twin's (or PoCL's). Targets (issue 2): kernels without barriers at least 0.8x their
// twin, the tiled barrier kernel at least 0.25x; issue 14: every algorithm at least 1.0x
// PoCL, the 8x4 kernel at least 0.7x sgemm at full core count. METALCPU_THREADS sets
// metalcpu's worker count; bench/thread_sweep.sh gives every side the same count.
//
// After the 8x4 kernel's row, a row for the same kernel with its eight interleaved threads as
// the lanes of 512-bit vectors (matmul_lane_vectors.h, where the CPU has AVX-512; a second row
// the same kernel body through the kernel stdlib's lane vectors, metalcpu/lane_vectors.h): what
// vectorising across threads would reach, against metalcpu and sgemm, and whether its bits
// equal metalcpu's. `--only lanes` runs that side alone.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <tbb/global_control.h>

#include "ShaderParams.h"
#include "matmul_twins.h"
#include "matmul_lane_vectors.h"
#include "openblas.h"
#include "timing.h"
#if defined(METALCPU_BENCH_OPENCL)
#include "opencl_matmul.h"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
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

/// The register-tiled kernels' threadgroup (--group WxH, 8x8 by default): one narrower than
/// eight runs none of their blocks as vector lanes, only the interleaved pieces.
MTL::Size g_registerGroup(8, 8, 1);

void dispatch(MTL::ComputeCommandEncoder* encoder, const char* name, unsigned n) {
    if (!std::strcmp(name, "mat_mul_register_4x4"))
        encoder->dispatchThreads(MTL::Size(n / 4, n / 4, 1), g_registerGroup);
    else if (!std::strcmp(name, "mat_mul_register_8x4"))
        encoder->dispatchThreads(MTL::Size(n / 4, n / 8, 1), g_registerGroup);
    else
        encoder->dispatchThreadgroups(MTL::Size((n + 15) / 16, (n + 15) / 16, 1), MTL::Size(16, 16, 1));
}

/// The largest difference between `expected` and `actual`; infinity at the first NaN (a kernel
/// that leaves elements unwritten cannot match).
double largestDifference(const std::vector<float>& expected, const float* actual) {
    double difference = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double error = std::fabs(expected[i] - actual[i]);
        if (std::isnan(error)) return std::numeric_limits<double>::infinity();
        difference = std::max(difference, error);
    }
    return difference;
}

/// The worker count metalcpu uses (METALCPU_THREADS, else one per hardware thread), which the
/// other sides are given too.
int workerCount() {
    const char* configured = std::getenv("METALCPU_THREADS");
    const int threads = configured ? std::atoi(configured) : 0;
    return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

/// "12.34" or "-" when the side did not run.
std::string gflops(double flops, double seconds) {
    if (seconds <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", flops / seconds * 1e-9);
    return text;
}

std::string ratio(double numerator, double denominator) {
    if (numerator <= 0 || denominator <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", numerator / denominator);
    return text;
}

const char* const laneRowName = "mat_mul_register_8x4, 8 threads as vector lanes (C++)";
const char* const laneLibraryRowName = "mat_mul_register_8x4, 8 threads as vector lanes (lane_vectors.h)";
const char* const laneLibraryV3RowName = "mat_mul_register_8x4, 4 threads as vector lanes (lane_vectors.h, x86-64-v3)";

using LaneForm = bool (*)(const float*, const float*, float*, unsigned, unsigned, unsigned);

/// The lane-vector forms: written by hand in C++, and the kernel's body through the kernel
/// stdlib's lane vectors as the translator is to emit it, at x86-64-v4 (8 lanes) and v3 (4).
struct LaneCase {
    const char* name;
    LaneForm run;
    const char* missing; ///< what the CPU lacks when it cannot run it
};
const LaneCase kLaneCases[] = {{laneRowName, lane_vectors::register8x4, "no AVX-512"},
                               {laneLibraryRowName, lane_vectors::register8x4ThroughLibraryV4, "no AVX-512"},
                               {laneLibraryV3RowName, lane_vectors::register8x4ThroughLibraryV3, "no AVX2"}};

/// The lane-vector form of the 8x4 kernel (matmul_lane_vectors.h) after the kernel's own row:
/// its GFLOPS in the metalcpu column, its speed against metalcpu's in "vs plain" and against
/// sgemm in "vs sgemm", and whether its result has metalcpu's bits. False when it differs from
/// metalcpu's by more than the twins may.
bool printLaneVectorsRow(const LaneCase& form, const float* a, const float* b, const float* metalResult, unsigned n,
                         int repeat, double metal, double sgemm) {
    std::vector<float> result(std::size_t(n) * n, std::numeric_limits<float>::quiet_NaN());
    if (!form.run(a, b, result.data(), n, n, n)) {
        std::printf("| %s | %u² | - (%s) | - | - | - | - | - | - |\n", form.name, n,
                    n % 32 ? "the size does not fit" : form.missing);
        return true;
    }
    const bool sameBits = std::memcmp(result.data(), metalResult, result.size() * sizeof(float)) == 0;
    const bool close = sameBits || largestDifference(result, metalResult) <= 1e-2;
    const double lanes = bench::bestSeconds(repeat, [&] { form.run(a, b, result.data(), n, n, n); });
    const double flops = 2.0 * n * n * n;
    std::printf("| %s | %u² | %s | - | %s× metalcpu | - | - | %s | %s | %s\n", form.name, n, gflops(flops, lanes).c_str(),
                ratio(metal, lanes).c_str(), gflops(flops, sgemm).c_str(), ratio(sgemm, lanes).c_str(),
                sameBits ? "same bits as metalcpu" : close ? "bits differ from metalcpu" : "RESULTS DIFFER");
    return close;
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
        else if (!std::strcmp(argv[i], "--cpu-time")) bench::useCpuTime() = true;
        else if (!std::strcmp(argv[i], "--group") && i + 1 < argc) {
            unsigned width = 0, height = 0;
            if (std::sscanf(argv[++i], "%ux%u", &width, &height) == 2 && width && height)
                g_registerGroup = MTL::Size(width, height, 1);
        }
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
#if defined(METALCPU_BENCH_OPENCL)
    bench::OpenCLMatmul opencl;
    if (opencl.available()) std::printf("OpenCL yardstick: %s\n", opencl.deviceName().c_str());
    else std::printf("OpenCL column left out: %s\n", opencl.unavailableReason().c_str());
#endif
#if defined(METALCPU_BENCH_OPENBLAS)
    openblas_set_num_threads(workerCount());
#endif
    // The twins and the vector-lane form spread their groups with TBB: as many threads as metalcpu's.
    const tbb::global_control sameThreadCount(tbb::global_control::max_allowed_parallelism, std::size_t(workerCount()));
    std::printf("%d worker threads%s\n\n", workerCount(),
                bench::useCpuTime() ? ", timed by the process's CPU time" : "");
    std::printf("| kernel | size | metalcpu GFLOPS | plain C++ GFLOPS | vs plain | PoCL GFLOPS | vs PoCL | sgemm GFLOPS | vs sgemm |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned n : sizes) {
        MTL::Buffer* a = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        MTL::Buffer* b = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        MTL::Buffer* c = device->newBuffer(sizeof(float) * n * n, MTL::ResourceStorageModeShared);
        const float* inA = static_cast<const float*>(a->contents());
        const float* inB = static_cast<const float*>(b->contents());
        std::vector<float> reference(std::size_t(n) * n), yardstick(std::size_t(n) * n);
        std::mt19937 generator(n);
        std::uniform_real_distribution<float> uniform(-1, 1);
        for (std::size_t i = 0; i < std::size_t(n) * n; ++i) {
            static_cast<float*>(a->contents())[i] = uniform(generator);
            static_cast<float*>(b->contents())[i] = uniform(generator);
        }
        MatMulParams params{n, n, n};
        const double flops = 2.0 * n * n * n;
        double sgemm = -1;
#if defined(METALCPU_BENCH_OPENBLAS)
        if (only.empty())
            sgemm = bench::bestSeconds(repeat, [&] {
            cblas_sgemm(bench::kRowMajor, bench::kNoTranspose, bench::kNoTranspose, int(n), int(n), int(n), 1.0f, inA,
                        int(n), inB, int(n), 0.0f, yardstick.data(), int(n));
        });
#endif
        for (const KernelCase& kernel : kCases) {
            if (!selected.empty() && selected != kernel.name) continue;
            const bool laneVectors = !std::strcmp(kernel.name, "mat_mul_register_8x4");
            if (only == "lanes") {
                if (!laneVectors) continue;
                for (const LaneCase& form : kLaneCases) {
                    const bool runs = form.run(inA, inB, reference.data(), n, n, n); // and warms up
                    const double lanes = runs ? bench::bestSeconds(repeat, [&] { form.run(inA, inB, reference.data(), n, n, n); }) : -1;
                    std::printf("| %s | %u² | %s | - | - | - | - | - | - |\n", form.name, n, gflops(flops, lanes).c_str());
                }
                continue;
            }
            if (only == "twin") {
                const double plain = bench::bestSeconds(repeat, [&] { kernel.twin(inA, inB, reference.data(), n, n, n); });
                std::printf("| %s | %u² | - | %s | - | - | - | - | - |\n", kernel.name, n, gflops(flops, plain).c_str());
                continue;
            }
#if defined(METALCPU_BENCH_OPENCL)
            if (only == "pocl") {
                const double pocl = opencl.available() ? opencl.seconds(kernel.name, inA, inB, yardstick.data(), n, repeat) : -1;
                std::printf("| %s | %u² | - | - | - | %s | - | - | - |\n", kernel.name, n, gflops(flops, pocl).c_str());
                continue;
            }
#endif
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
                std::printf("| %s | %u² | %s | - | - | - | - | - | - |\n", kernel.name, n, gflops(flops, metal).c_str());
                pipeline->release();
                continue;
            }
            double plain = bench::bestSeconds(repeat, [&] { kernel.twin(inA, inB, reference.data(), n, n, n); });
            double difference = largestDifference(reference, static_cast<const float*>(c->contents()));
            double pocl = -1;
#if defined(METALCPU_BENCH_OPENCL)
            if (opencl.available()) {
                std::fill(yardstick.begin(), yardstick.end(), std::numeric_limits<float>::quiet_NaN());
                pocl = opencl.seconds(kernel.name, inA, inB, yardstick.data(), n, repeat);
                if (pocl > 0) difference = std::max(difference, largestDifference(reference, yardstick.data()));
            }
#endif
            differ = differ || difference > 1e-2;
            std::printf("| %s%s | %u² | %s | %s | %s | %s | %s | %s | %s |%s\n", kernel.name,
                        kernel.barriers ? " (barriers)" : "", n, gflops(flops, metal).c_str(),
                        gflops(flops, plain).c_str(), ratio(plain, metal).c_str(), gflops(flops, pocl).c_str(),
                        ratio(pocl, metal).c_str(), gflops(flops, sgemm).c_str(), ratio(sgemm, metal).c_str(),
                        difference > 1e-2 ? "  RESULTS DIFFER" : "");
            if (laneVectors)
                for (const LaneCase& form : kLaneCases)
                    if (!printLaneVectorsRow(form, inA, inB, static_cast<const float*>(c->contents()), n, repeat, metal, sgemm))
                        differ = true;
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
