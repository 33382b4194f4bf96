#include "log_capture.h"
#include "metal_test.h"
#include "scoped_state.h"

#include <string>

namespace metalcpu::testing {
namespace {

using ComputePipelineTest = MetalTest;

// Test that a pipeline reports Metal's numbers, including static threadgroup memory.
TEST_F(ComputePipelineTest, ReportsLimitsAndStaticThreadgroupMemory) {
    MTL::ComputePipelineState* state = pipeline(R"(
        #include <metal_stdlib>
        using namespace metal;
        kernel void k(device float* out [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {
            threadgroup float tile[64];
            threadgroup int counters[8];
            tile[i] = i;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            out[i] = tile[63 - i] + counters[0];
        })", "k");
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 1024u);
    EXPECT_EQ(state->threadExecutionWidth(), 32u);
    EXPECT_EQ(state->staticThreadgroupMemoryLength(), 64u * 4 + 32);
    EXPECT_EQ(state->device(), device_);
    state->release();
}

// Test that [[max_total_threads_per_threadgroup]] lowers the pipeline's limit.
TEST_F(ComputePipelineTest, MaxTotalThreadsAttribute) {
    MTL::ComputePipelineState* state = pipeline(R"(
        [[kernel, max_total_threads_per_threadgroup(256)]]
        void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0; })", "k");
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 256u);
    state->release();
}

// Test that a pipeline whose kernel runs on fibers says why at debug level, naming the helper
// call, the collective in it, why the helper is not a collective helper and why the call was
// not inlined, with their lines; a split kernel's line gives no reason.
TEST_F(ComputePipelineTest, FiberPipelineLogsWhy) {
    const char* source = R"(#include <metal_stdlib>
using namespace metal;
float scan(float x) { if (x < 0.0f) return x; return simd_prefix_inclusive_sum(x); }
kernel void helper(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    a[i] = scan(a[i]);
}
kernel void split(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    float x = a[i];
    x = simd_prefix_inclusive_sum(x);
    a[i] = x;
})";
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    for (const char* name : {"helper", "split"}) {
        MTL::ComputePipelineState* state = pipeline(source, name);
        ASSERT_NE(state, nullptr) << name;
        state->release();
    }
    EXPECT_EQ(log.count("pipeline for kernel 'helper': fibers (barriers or SIMD-group functions the front end could "
                        "not split at): program_source:5:12: it calls 'scan', which uses SIMD-group function "
                        "'simd_prefix_inclusive_sum' (program_source:3:54): the front end splits a kernel only at "
                        "the barriers and SIMD-group functions its own body calls, and at its calls of collective "
                        "helpers (functions whose only effect is their value and whose lanes make the same "
                        "SIMD-group functions in the same order: one `return simd_f(...);`, or staged, several in a "
                        "row, as MLX's `CumMax::simd_scan`), which 'scan' is not: it returns before its end (a lane "
                        "that returns skips the collectives after); the call is not inlined: 'scan' returns before "
                        "its end (program_source:3:37)"),
              1u)
        << log.text();
    EXPECT_EQ(log.count("pipeline for kernel 'split': work-item loops (split at its barriers and SIMD-group "
                        "functions); code:"),
              1u)
        << log.text();
}

// Test that each kernel shape's code generation is the one docs/compiler.md ("Code generation
// per kernel shape") gives it, and that the pipeline's debug line says so, whole: a thread loop
// at -O2, work-item loops split at a barrier at -O3, interleaved threads (a uniform loop) at -O2
// with vectors of 128 bits at most.
TEST_F(ComputePipelineTest, PipelineLogsItsShapesCodeGeneration) {
    const char* source = R"(#include <metal_stdlib>
using namespace metal;
kernel void elementwise(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    a[i] = a[i] * 2.0f + 1.0f;
}
kernel void barrier(device float* a [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {
    threadgroup float tile[64];
    tile[i] = a[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    a[i] = tile[63 - i];
}
kernel void uniform_loop(device float* a [[buffer(0)]], constant uint& n [[buffer(1)]],
                         uint i [[thread_position_in_grid]]) {
    float sum = 0.0f;
    for (uint k = 0; k < n; ++k) sum += a[k];
    a[i] = sum;
})";
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    for (const char* name : {"elementwise", "barrier", "uniform_loop"}) {
        MTL::ComputePipelineState* state = pipeline(source, name);
        ASSERT_NE(state, nullptr) << name;
        state->release();
    }
    EXPECT_EQ(log.count("pipeline for kernel 'elementwise': one loop over each group's threads; code: -O2, threads "
                        "as SIMD lanes\n"),
              1u)
        << log.text();
    EXPECT_EQ(log.count("pipeline for kernel 'barrier': work-item loops (split at its barriers and SIMD-group "
                        "functions); code: -O3, threads as SIMD lanes\n"),
              1u)
        << log.text();
    EXPECT_EQ(log.count("pipeline for kernel 'uniform_loop': work-item loops (no barriers: the group's threads "
                        "interleaved in its uniform loops); code: -O2, threads as SIMD lanes, vectors of 128 bits "
                        "at most\n"),
              1u)
        << log.text();
}

// Test that a pipeline for a null function is nullptr plus an error, never a crash.
TEST_F(ComputePipelineTest, NullFunctionIsAnError) {
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newComputePipelineState(static_cast<MTL::Function*>(nullptr), &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_FALSE(text(error->localizedDescription()).empty());
}

// Test that static threadgroup memory over 32 KB fails pipeline creation as on Apple GPUs.
TEST_F(ComputePipelineTest, TooMuchThreadgroupMemoryIsAnError) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(NS::String::string(R"(
        kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
            threadgroup float big[16384];
            big[i] = 1;
            out[i] = big[0];
        })", NS::UTF8StringEncoding), nullptr, &error);
    ASSERT_NE(library, nullptr);
    MTL::Function* function = library->newFunction(NS::String::string("k", NS::UTF8StringEncoding));
    EXPECT_EQ(device_->newComputePipelineState(function, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("65536"), std::string::npos);
    function->release();
    library->release();
}

// Test that a descriptor carries the function, label and thread limit into the pipeline.
TEST_F(ComputePipelineTest, Descriptor) {
    MTL::Library* library = device_->newLibrary(NS::String::string(
        "kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = 0; }",
        NS::UTF8StringEncoding), nullptr, nullptr);
    ASSERT_NE(library, nullptr);
    MTL::Function* function = library->newFunction(NS::String::string("k", NS::UTF8StringEncoding));
    MTL::ComputePipelineDescriptor* descriptor = MTL::ComputePipelineDescriptor::alloc()->init();
    descriptor->setComputeFunction(function);
    descriptor->setLabel(NS::String::string("zeroes", NS::UTF8StringEncoding));
    descriptor->setMaxTotalThreadsPerThreadgroup(128);
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* state =
        device_->newComputePipelineState(descriptor, MTL::PipelineOptionNone, nullptr, &error);
    ASSERT_NE(state, nullptr);
    EXPECT_EQ(text(state->label()), "zeroes");
    EXPECT_EQ(state->maxTotalThreadsPerThreadgroup(), 128u);
    state->release();
    descriptor->release();
    function->release();
    library->release();
}


// ---- Deferred machine code (issue 10) -------------------------------------------------------

/// 40 instantiations of a kernel template, `scale_0` ... (out[i] * by + its number), a plain
/// kernel with a threadgroup array, `reverse`, and `scale_bad`, whose code only GCC's code
/// generation refuses (a call left to a function declared with the error attribute).
std::string deferredKernels() {
    std::string source = R"(#include <metal_stdlib>
using namespace metal;
__attribute__((error("scale_bad cannot be compiled"), noinline)) void refuse(device float* out) { out[0] = 0; }
template <int K>
kernel void scale(device float* out [[buffer(0)]], constant float& by [[buffer(1)]],
                  uint i [[thread_position_in_grid]]) {
    out[i] = out[i] * by + float(K);
    if (K == 1000) refuse(out);
}
kernel void reverse(device float* out [[buffer(0)]], uint i [[thread_index_in_threadgroup]]) {
    threadgroup float tile[32];
    tile[i] = out[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = tile[31 - i];
}
template [[host_name("scale_bad")]] kernel void scale<1000>(device float*, constant float&, uint);
)";
    for (int k = 0; k < 40; ++k)
        source += "template [[host_name(\"scale_" + std::to_string(k) + "\")]] kernel void scale<" + std::to_string(k) +
                  ">(device float*, constant float&, uint);\n";
    return source;
}

/// A fresh kernel cache (so that every compile happens) and deferral past 8 kernels.
class DeferredCodeTest : public MetalTest {
protected:
    TemporaryDirectory cache_;
    ScopedEnvironmentVariable cacheDirectory_{"METALCPU_CACHE_DIR", cache_.path().string()};
    ScopedEnvironmentVariable threshold_{"METALCPU_DEFERRED_CODE_KERNELS", "8"};

    /// Runs `state` (a scale kernel) on 0, 1, ... 63 with `by` = 2.
    std::vector<float> runScale(MTL::ComputePipelineState* state) {
        MTL::Buffer* out = device_->newBuffer(64 * sizeof(float), MTL::ResourceStorageModeShared);
        float* values = static_cast<float*>(out->contents());
        for (int i = 0; i < 64; ++i) values[i] = float(i);
        const float by = 2.0f;
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->setBytes(&by, sizeof by, 1);
        encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(16, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
        std::vector<float> result(values, values + 64);
        out->release();
        return result;
    }
};

const char kCompiledCode[] = "compiled the machine code of kernel ";

// Test that a library of many kernels lists them all and makes functions without compiling any
// kernel's code; that a pipeline compiles its kernel's code and runs it; that a second pipeline
// of the kernel reuses that code; that the static threadgroup memory is the kernel's.
TEST_F(DeferredCodeTest, PipelinesCompileTheirKernelOnce) {
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    MTL::Library* library = compile(deferredKernels());
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(library->functionNames()->count(), 42u);
    MTL::Function* function = library->newFunction(NS::String::string("scale_5", NS::UTF8StringEncoding));
    ASSERT_NE(function, nullptr);
    EXPECT_EQ(function->functionType(), MTL::FunctionTypeKernel);
    function->release();
    EXPECT_EQ(log.count(kCompiledCode), 0u) << log.text();

    for (int round = 0; round < 2; ++round) {
        MTL::ComputePipelineState* state = pipeline(library, "scale_5");
        ASSERT_NE(state, nullptr);
        const std::vector<float> result = runScale(state);
        for (int i = 0; i < 64; ++i) ASSERT_EQ(result[i], float(i) * 2.0f + 5.0f) << i;
        state->release();
        EXPECT_EQ(log.count(std::string(kCompiledCode) + "scale_5"), 1u) << "round " << round << ": " << log.text();
    }
    MTL::ComputePipelineState* reverse = pipeline(library, "reverse");
    ASSERT_NE(reverse, nullptr);
    EXPECT_EQ(reverse->staticThreadgroupMemoryLength(), 32u * 4);
    reverse->release();
    EXPECT_EQ(log.count(kCompiledCode), 2u) << log.text();
    library->release();
}

// Test that a kernel whose code does not compile, which newLibrary could not see, fails its
// pipeline with an NS::Error holding the compiler's message and the kernel's line, and that the
// library's other kernels still make pipelines.
TEST_F(DeferredCodeTest, KernelThatDoesNotCompileFailsItsPipeline) {
    MTL::Library* library = compile(deferredKernels());
    ASSERT_NE(library, nullptr);
    MTL::Function* function = library->newFunction(NS::String::string("scale_bad", NS::UTF8StringEncoding));
    ASSERT_NE(function, nullptr);
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* state = device_->newComputePipelineState(function, &error);
    EXPECT_EQ(state, nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("Compute function 'scale_bad': its machine code, compiled when its first pipeline is made"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("program_source:8:"), std::string::npos) << message;
    EXPECT_NE(message.find("scale_bad cannot be compiled"), std::string::npos) << message;
    function->release();
    MTL::ComputePipelineState* good = pipeline(library, "scale_3");
    ASSERT_NE(good, nullptr);
    EXPECT_EQ(runScale(good)[10], 23.0f);
    good->release();
    library->release();
}

// Test that a deferred kernel's validated pipeline runs its instrumented flavour, which it
// compiles alone, without the kernel's plain code (which it would not run), and gives the plain
// pipeline's results and static threadgroup memory; that a plain pipeline made after it then
// compiles the plain code.
TEST_F(DeferredCodeTest, ValidatedPipelineOfADeferredKernel) {
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    MTL::Library* library = compile(deferredKernels());
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "scale_9", /*validated=*/true);
    ASSERT_NE(state, nullptr);
    const std::vector<float> result = runScale(state);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(result[i], float(i) * 2.0f + 9.0f) << i;
    state->release();
    EXPECT_EQ(log.count("pipeline for kernel 'scale_9' (shader validation)"), 1u) << log.text();
    EXPECT_EQ(log.count("compiled the shader-validation flavour into"), 1u) << log.text();
    EXPECT_EQ(log.count(kCompiledCode), 0u) << log.text();

    MTL::ComputePipelineState* validatedReverse = pipeline(library, "reverse", /*validated=*/true);
    ASSERT_NE(validatedReverse, nullptr);
    EXPECT_EQ(validatedReverse->staticThreadgroupMemoryLength(), 32u * 4);
    validatedReverse->release();
    EXPECT_EQ(log.count(kCompiledCode), 0u) << log.text();
    MTL::ComputePipelineState* plainReverse = pipeline(library, "reverse");
    ASSERT_NE(plainReverse, nullptr);
    EXPECT_EQ(plainReverse->staticThreadgroupMemoryLength(), 32u * 4);
    plainReverse->release();
    EXPECT_EQ(log.count(std::string(kCompiledCode) + "reverse"), 1u) << log.text();
    library->release();
}

// Test that with deferral off the same library compiles every kernel at newLibrary: the kernel
// that does not compile fails it there, as on Metal.
TEST_F(DeferredCodeTest, DeferralOffFailsAtNewLibrary) {
    ScopedEnvironmentVariable off("METALCPU_DEFERRED_CODE_KERNELS", "-1");
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(NS::String::string(deferredKernels().c_str(), NS::UTF8StringEncoding),
                                                nullptr, &error);
    EXPECT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("scale_bad cannot be compiled"), std::string::npos)
        << text(error->localizedDescription());
}

} // namespace
} // namespace metalcpu::testing
