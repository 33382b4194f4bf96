// Deferred machine code (issue 10): a library of many kernels compiled at run time holds their
// reflection only, and each kernel's code is compiled when it is first asked for.
#include "jit/kernel_library.h"
#include "jit/library_cache.h"
#include "log_capture.h"
#include "scoped_state.h"
#include "support/files.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace metalcpu::jit {
namespace {

/// `count` instantiations of one kernel template, `scale_0` ... (each adds its number), and a
/// plain kernel with a threadgroup array, `reverse`.
std::string manyKernels(int count) {
    std::string source = R"(#include <metal_stdlib>
using namespace metal;
template <int K>
kernel void scale(device float* out [[buffer(0)]], constant float& by [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    out[i] = out[i] * by + float(K);
}
kernel void reverse(device float* out [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {
    threadgroup float tile[32];
    tile[i] = out[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = tile[31 - i];
}
)";
    for (int k = 0; k < count; ++k)
        source += "template [[host_name(\"scale_" + std::to_string(k) + "\")]] kernel void scale<" + std::to_string(k) +
                  ">(device float*, constant float&, uint);\n";
    return source;
}

/// A fresh kernel cache and METALCPU_DEFERRED_CODE_KERNELS=8 for each test.
class DeferredCodeTest : public ::testing::Test {
protected:
    testing::TemporaryDirectory cache_;
    testing::ScopedEnvironmentVariable cacheDirectory_{"METALCPU_CACHE_DIR", cache_.path().string()};
    testing::ScopedEnvironmentVariable threshold_{"METALCPU_DEFERRED_CODE_KERNELS", "8"};
};

const char kCompiledCode[] = "compiled the machine code of kernel ";

// Test that a library of more kernels than the threshold holds every kernel's row and
// reflection but no kernel's entry points, and that asking for a kernel's code compiles that
// kernel alone, once: the same row is returned again, by a library of its own that holderOf()
// finds; another kernel gets a library of its own; a library made again of the source finds
// both the reflection image and the kernel's code in the cache.
TEST_F(DeferredCodeTest, ReflectionImageCompilesEachKernelOnDemand) {
    testing::ScopedLogLevel debug(spdlog::level::debug);
    std::optional<testing::LogCapture> log(std::in_place);
    const std::string source = manyKernels(12);
    SourceBuild build = buildLibraryFromSource(source, {});
    ASSERT_TRUE(build.ok) << build.diagnostics;
    EXPECT_EQ(log->count("program_source has 13 kernels (more than 8): compiling their reflection now"), 1u)
        << log->text();
    std::shared_ptr<KernelLibrary> library = build.library;
    ASSERT_EQ(library->kernelNames().size(), 13u);
    EXPECT_EQ(library->kernelNames().front(), "reverse");
    for (const std::string& name : library->kernelNames()) {
        const mc_kernel* row = library->find(name);
        ASSERT_NE(row, nullptr) << name;
        EXPECT_FALSE(KernelLibrary::hasCode(*row)) << name << " was compiled with the reflection image";
    }
    const mc_kernel* row = library->find("scale_7");
    ASSERT_EQ(row->param_count, 3u);
    EXPECT_STREQ(row->params[1].name, "by");
    EXPECT_EQ(row->params[1].kind, MC_PARAM_BUFFER);
    EXPECT_EQ(row->params[2].builtin, MC_BUILTIN_THREAD_POSITION_IN_GRID);
    EXPECT_EQ(log->count(kCompiledCode), 0u) << log->text();

    std::string error;
    const mc_kernel* code = library->kernelCode("scale_7", &error);
    ASSERT_NE(code, nullptr) << error;
    EXPECT_TRUE(KernelLibrary::hasCode(*code));
    EXPECT_STREQ(code->name, "scale_7");
    std::shared_ptr<KernelLibrary> holder = library->holderOf(code);
    ASSERT_NE(holder, nullptr);
    EXPECT_NE(holder, library);
    EXPECT_EQ(holder->kernelNames(), std::vector<std::string>{"scale_7"}) << "other kernels' code was compiled";
    EXPECT_EQ(log->count(std::string(kCompiledCode) + "scale_7"), 1u) << log->text();
    EXPECT_EQ(library->kernelCode("scale_7", &error), code);
    EXPECT_EQ(log->count(kCompiledCode), 1u) << "asked again, compiled again: " << log->text();

    const mc_kernel* reverse = library->kernelCode("reverse", &error);
    ASSERT_NE(reverse, nullptr) << error;
    EXPECT_EQ(library->holderOf(reverse)->kernelNames(), std::vector<std::string>{"reverse"});
    // The site records are the code's: the reflection image's figure may lack them.
    EXPECT_EQ(library->holderOf(reverse)->staticThreadgroupMemory(*reverse), 32u * 4);
    const std::string codePath = holder->path();

    holder.reset();
    library.reset();
    build = {};
    log.emplace();
    SourceBuild again = buildLibraryFromSource(source, {});
    ASSERT_TRUE(again.ok) << again.diagnostics;
    EXPECT_TRUE(again.fromCache);
    code = again.library->kernelCode("scale_7", &error);
    ASSERT_NE(code, nullptr) << error;
    EXPECT_EQ(again.library->holderOf(code)->path(), codePath);
    EXPECT_EQ(log->count(kCompiledCode), 0u) << "the kernel's code was not found in the cache: " << log->text();
}

// Test that a library of no more kernels than the threshold, or of any number with deferral
// off (a negative threshold), holds every kernel's code, which kernelCode() returns as it is.
TEST_F(DeferredCodeTest, SmallLibrariesAndDeferralOffCompileEveryKernel) {
    for (const char* threshold : {"16", "-1"}) {
        testing::ScopedEnvironmentVariable setting("METALCPU_DEFERRED_CODE_KERNELS", threshold);
        SourceBuild build = buildLibraryFromSource(manyKernels(12), {});
        ASSERT_TRUE(build.ok) << build.diagnostics;
        ASSERT_EQ(build.library->kernelNames().size(), 13u);
        for (const std::string& name : build.library->kernelNames()) {
            const mc_kernel* row = build.library->find(name);
            EXPECT_TRUE(KernelLibrary::hasCode(*row)) << name << " with threshold " << threshold;
            std::string error;
            EXPECT_EQ(build.library->kernelCode(name, &error), row) << error;
        }
    }
}

// Test that the front end still checks every kernel of a reflection image: a kernel template
// whose instantiation does not compile fails newLibrary, naming its line.
TEST_F(DeferredCodeTest, ReflectionImageChecksEveryKernel) {
    std::string source = manyKernels(12);
    source += R"(template <typename T>
kernel void broken(device T* out [[buffer(0)]]) { out[0] = T::missing; }
template [[host_name("broken_float")]] kernel void broken<float>(device float*);
)";
    SourceBuild build = buildLibraryFromSource(source, {});
    EXPECT_FALSE(build.ok);
    EXPECT_NE(build.diagnostics.find("program_source:27:"), std::string::npos) << build.diagnostics; // 13 + 12 + 2
    EXPECT_NE(build.diagnostics.find("missing"), std::string::npos) << build.diagnostics;
}

// Test that a kernel whose machine code does not compile (here: the compiler refuses the flags
// its compile is given) fails kernelCode() with the compiler's messages, once: asked again, the
// same error without a second compile; the library and its other kernels are unaffected.
TEST_F(DeferredCodeTest, KernelWhoseCodeFailsGivesTheCompilersMessages) {
    SourceBuild build = buildLibraryFromSource(manyKernels(12), {});
    ASSERT_TRUE(build.ok) << build.diagnostics;
    std::string error;
    {
        testing::ScopedEnvironmentVariable flags("METALCPU_KERNEL_FLAGS", "-fno-such-metalcpu-flag");
        testing::LogCapture log;
        EXPECT_EQ(build.library->kernelCode("scale_3", &error), nullptr);
        EXPECT_NE(error.find("its machine code, compiled when its first pipeline is made"), std::string::npos) << error;
        EXPECT_NE(error.find("-fno-such-metalcpu-flag"), std::string::npos) << error;
        EXPECT_EQ(log.count("[warning] kernel scale_3 has no machine code"), 1u) << log.text();
        std::string again;
        EXPECT_EQ(build.library->kernelCode("scale_3", &again), nullptr);
        EXPECT_EQ(again, error);
        EXPECT_EQ(log.count("[warning] kernel scale_3 has no machine code"), 1u) << log.text();
    }
    EXPECT_NE(build.library->kernelCode("scale_4", &error), nullptr) << error;
}

} // namespace
} // namespace metalcpu::jit
