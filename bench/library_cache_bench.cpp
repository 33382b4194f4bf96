// What newLibrary(source) costs when its library is in the kernel cache: the check of the
// cached file (trailer, content hash, ELF headers), the copy into a sealed memory file and
// dlopen. Issue 9's target: well under 10 ms for the samples/matmul kernels. Each source is
// compiled once (to fill a private cache), then loaded --repeat times; the first compile,
// the best and the median of the cached loads are printed as a Markdown table.
//
//   library_cache_bench [--repeat 50]
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
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::max(1, std::atoi(argv[++i]));
    // A cache of its own, so that the first compile is a compile.
    char cache[] = "/tmp/metalcpu-cache-bench-XXXXXX";
    if (!mkdtemp(cache)) return 1;
    setenv("METALCPU_CACHE_DIR", cache, 1);

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    std::printf("| source | first compile ms | cached best ms | cached median ms |\n|---|---|---|---|\n");
    std::string all;
    for (const char* kernel : {"mat_mul_naive.metal", "mat_mul_tiled.metal", "mat_mul_register_4x4.metal",
                               "mat_mul_register_8x4.metal", "all four"}) {
        std::string source;
        if (std::strcmp(kernel, "all four") == 0) {
            source = all;
        } else {
            source = matmulSource(kernel);
            all += source; // ShaderParams.h has an include guard
        }
        double first = loadMilliseconds(device, source);
        std::vector<double> cached;
        for (int r = 0; r < repeat; ++r) cached.push_back(loadMilliseconds(device, source));
        std::sort(cached.begin(), cached.end());
        std::printf("| %s | %.1f | %.2f | %.2f |\n", kernel, first, cached.front(), cached[cached.size() / 2]);
    }
    device->release();
    std::filesystem::remove_all(cache);
    return 0;
}
