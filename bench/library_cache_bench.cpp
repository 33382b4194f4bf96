// What newLibrary(source) costs, first compile and cached load, for the samples/matmul
// kernels. A cached load is the check of the cached file (trailer, content hash, ELF
// headers), the copy into a sealed memory file and dlopen (issue 9's target: well under
// 10 ms). A first compile translates and compiles (issue 14's target: at most 0.6 s); the
// first of a cache also writes out the standard library, the second makes the precompiled
// prelude (docs/architecture.md, "The precompiled prelude"). Each source is compiled once, then loaded
// --repeat times; the first compile, the best and the median of the cached loads are printed
// as a Markdown table.
//
//   library_cache_bench [--repeat 50] [--cache DIR] [--kernel FILE|all]
//
// Without --cache, a new private cache: the first source's compile is the cache's first. With
// --cache DIR, that cache, whose compiled libraries are removed first, its standard library
// and precompiled preludes kept: every compile is a first compile of its source, with the
// prelude made by earlier runs (METALCPU_PRECOMPILED_PRELUDE=0: without one). --kernel
// compiles one source ("all": the four in one source), for alternating whole-process runs.
//
//   library_cache_bench --mat-vec
//   library_cache_bench --source FILE --pipeline NAME [--pipeline NAME]...
//
// The first newLibrary(source) of 64 instantiations of a mat-vec kernel template (ggml's
// shape: rows per SIMD-group, SIMD-groups per group, simd_sum), then the first and second
// pipeline of one of them: wall milliseconds and the compilers' CPU seconds of each step.
// --source does the same for a file of one's own (llama.cpp's ggml-metal.metal with its
// headers pasted in, say) and the kernels named, made with newFunction(name): a kernel with
// function constants needs its values and is not for this form.
// METALCPU_DEFERRED_CODE_KERNELS decides whether newLibrary compiles every kernel (-1) or
// their reflection (docs/architecture.md, "Deferred machine code").
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A samples/matmul kernel file as one source string: its ShaderParams.h pasted in, since a
/// source string has no directory to include from.
std::string matmulSource(const std::string& kernel) {
    std::string source = read(std::string(METALCPU_MATMUL_DIR) + "/" + kernel);
    const std::string include = "#include \"ShaderParams.h\"";
    std::size_t at = source.find(include);
    if (at != std::string::npos) source.replace(at, include.size(), read(std::string(METALCPU_MATMUL_DIR) + "/ShaderParams.h"));
    return source;
}

/// Milliseconds of one newLibrary(source); exits when it fails.
double loadMilliseconds(MTL::Device* device, const std::string& source) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    NS::Error* error = nullptr;
    auto start = std::chrono::steady_clock::now();
    MTL::Library* library = device->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), nullptr, &error);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!library) {
        std::fprintf(stderr, "%s\n", error ? error->localizedDescription()->utf8String() : "no library");
        std::exit(1);
    }
    library->release();
    pool->release();
    return ms;
}

/// 64 instantiations of a mat-vec template: element types float, half, short and char, 1, 2, 4
/// or 8 rows per SIMD-group, 1, 2, 4 or 8 SIMD-groups per group.
std::string matVecSource() {
    std::string source = R"(#include <metal_stdlib>
using namespace metal;
template <typename T, short NR, short NSG>
kernel void mul_mv(device const T* a [[buffer(0)]], device const float* x [[buffer(1)]],
                   device float* y [[buffer(2)]], constant int& n [[buffer(3)]],
                   uint tgid [[threadgroup_position_in_grid]], ushort tiisg [[thread_index_in_simdgroup]],
                   ushort sgitg [[simdgroup_index_in_threadgroup]]) {
    const int first = (int(tgid) * NSG + sgitg) * NR;
    float sums[NR] = {0};
    for (int i = tiisg; i < n; i += 32) {
        const float xi = x[i];
        for (short r = 0; r < NR; ++r) sums[r] += float(a[(first + r) * n + i]) * xi;
    }
    for (short r = 0; r < NR; ++r) {
        const float total = simd_sum(sums[r]);
        if (tiisg == 0) y[first + r] = total;
    }
}
)";
    for (const char* type : {"float", "half", "short", "char"})
        for (int rows : {1, 2, 4, 8})
            for (int groups : {1, 2, 4, 8}) {
                const std::string name = std::string("mul_mv_") + type + "_" + std::to_string(rows) + "_" + std::to_string(groups);
                source += "template [[host_name(\"" + name + "\")]] kernel void mul_mv<" + type + ", " +
                          std::to_string(rows) + ", " + std::to_string(groups) + ">(device const " + type +
                          "*, device const float*, device float*, constant int&, uint, ushort, ushort);\n";
            }
    return source;
}

/// CPU seconds of this process's finished children (the compilers) so far.
double childSeconds() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// The --mat-vec and --source measurements (see the top of the file): newLibrary(source) named
/// `what`, then the first and second pipeline of each kernel of `kernels`.
int libraryAndPipelines(const std::string& source, const std::string& what, const std::vector<std::string>& kernels) {
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    std::printf("| step | wall ms | compilers' CPU s |\n|---|---|---|\n");
    double cpu = childSeconds();
    auto start = std::chrono::steady_clock::now();
    const auto report = [&](const char* step) {
        const double now = childSeconds();
        std::printf("| %s | %.0f | %.1f |\n", step,
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), now - cpu);
        cpu = now;
        start = std::chrono::steady_clock::now();
    };
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(source.c_str(), NS::UTF8StringEncoding), nullptr, &error);
    if (!library) {
        std::fprintf(stderr, "%s\n", error ? error->localizedDescription()->utf8String() : "no library");
        return 1;
    }
    report(("newLibrary(source), " + what).c_str());
    for (const std::string& kernel : kernels)
        for (const char* which : {"first", "second"}) {
            MTL::Function* function = library->newFunction(NS::String::string(kernel.c_str(), NS::UTF8StringEncoding));
            MTL::ComputePipelineState* pipeline = function ? device->newComputePipelineState(function, &error) : nullptr;
            if (!pipeline) {
                std::fprintf(stderr, "%s: %s\n", kernel.c_str(),
                             !function ? "no such function" : error ? error->localizedDescription()->utf8String() : "no pipeline");
                return 1;
            }
            report((std::string(which) + " pipeline of " + kernel).c_str());
            pipeline->release();
            function->release();
        }
    library->release();
    pool->release();
    device->release();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 50;
    std::string cacheDirectory, only, sourceFile;
    std::vector<std::string> pipelines;
    bool matVecOnly = false;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--mat-vec") == 0) matVecOnly = true;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(0, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--cache") == 0) cacheDirectory = argv[++i];
        else if (std::strcmp(argv[i], "--kernel") == 0) only = argv[++i];
        else if (std::strcmp(argv[i], "--source") == 0) sourceFile = argv[++i];
        else if (std::strcmp(argv[i], "--pipeline") == 0) pipelines.push_back(argv[++i]);
    }
    if (!sourceFile.empty() && !std::filesystem::is_regular_file(sourceFile)) {
        std::fprintf(stderr, "--source %s: no such file\n", sourceFile.c_str());
        return 1;
    }
    const bool privateCache = cacheDirectory.empty();
    if (privateCache) {
        // A cache of its own, so that the first compile is a compile.
        char cache[] = "/tmp/metalcpu-cache-bench-XXXXXX";
        if (!mkdtemp(cache)) return 1;
        cacheDirectory = cache;
    } else {
        std::filesystem::remove_all(cacheDirectory + "/kernels");
    }
    setenv("METALCPU_CACHE_DIR", cacheDirectory.c_str(), 1);
    if (matVecOnly || !sourceFile.empty()) {
        const int status = matVecOnly ? libraryAndPipelines(matVecSource(), "64 kernels", {"mul_mv_half_4_2"})
                                      : libraryAndPipelines(read(sourceFile), sourceFile, pipelines);
        if (privateCache) std::filesystem::remove_all(cacheDirectory);
        return status;
    }

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    std::printf("| source | first compile ms | cached best ms | cached median ms |\n|---|---|---|---|\n");
    std::string all;
    for (const char* kernel : {"mat_mul_naive.metal", "mat_mul_tiled.metal", "mat_mul_register_4x4.metal",
                               "mat_mul_register_8x4.metal", "all four"}) {
        const bool allFour = std::strcmp(kernel, "all four") == 0;
        std::string source;
        if (allFour) {
            source = all;
        } else {
            source = matmulSource(kernel);
            all += source; // ShaderParams.h has an include guard
        }
        if (!only.empty() && only != (allFour ? "all" : kernel)) continue;
        double first = loadMilliseconds(device, source);
        std::vector<double> cached;
        for (int r = 0; r < repeat; ++r) cached.push_back(loadMilliseconds(device, source));
        std::sort(cached.begin(), cached.end());
        if (cached.empty()) std::printf("| %s | %.1f | | |\n", kernel, first);
        else std::printf("| %s | %.1f | %.2f | %.2f |\n", kernel, first, cached.front(), cached[cached.size() / 2]);
    }
    device->release();
    if (privateCache) std::filesystem::remove_all(cacheDirectory);
    return 0;
}
