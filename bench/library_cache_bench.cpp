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

} // namespace

int main(int argc, char** argv) {
    int repeat = 50;
    std::string cacheDirectory, only;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(0, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--cache") == 0) cacheDirectory = argv[++i];
        else if (std::strcmp(argv[i], "--kernel") == 0) only = argv[++i];
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
