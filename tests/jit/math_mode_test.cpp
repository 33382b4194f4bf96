// The math modes end to end: MTL::CompileOptions and the `metal` tool's flags change the code
// kernels are compiled to, in the plain and in the shader-validation flavour.
#include "jit/isa.h"
#include "jit/kernel_compiler.h"
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/files.h"
#include "support/process.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace metalcpu::jit {
namespace {

/// The probe kernel (math_probe.metal): each output is a floating-point behaviour the modes
/// disagree on.
const std::string kProbe = support::readFile(METALCPU_MATH_PROBE).value_or("");

struct Probe {
    float nanCompares = 0;  ///< out[0]
    float zeroSum = 0;      ///< out[1]
    float fmaxResult = 0;   ///< out[2]
    float preciseFmax = 0;  ///< out[3]
    float isnanResult = 0;  ///< out[4]
    float fastMath = 0;     ///< out[5]: __FAST_MATH__ was defined
    float finiteMath = 0;   ///< out[6]: __FINITE_MATH_ONLY__
};

class MathModeTest : public testing::MetalTest {
protected:
    /// Runs `kernel` of `library` on one thread with `inputs` at [[buffer(0)]] and `outputs`
    /// floats at [[buffer(1)]] (shader-validated when `validated`), and returns those.
    std::vector<float> runOneThread(MTL::Library* library, const char* kernel, const std::vector<float>& inputs,
                                    std::size_t outputs, bool validated) {
        MTL::ComputePipelineState* state = library ? pipeline(library, kernel, validated) : nullptr;
        if (!state) {
            ADD_FAILURE() << "no pipeline for " << kernel;
            return std::vector<float>(outputs);
        }
        MTL::Buffer* in = device_->newBuffer(inputs.data(), inputs.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* out = device_->newBuffer(outputs * sizeof(float), MTL::ResourceStorageModeShared);
        std::memset(out->contents(), 0x55, outputs * sizeof(float));
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(in, 0, 0);
        encoder->setBuffer(out, 0, 1);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(testing::MetalTest::run(commands), MTL::CommandBufferStatusCompleted);
        const float* values = static_cast<const float*>(out->contents());
        std::vector<float> result(values, values + outputs);
        in->release();
        out->release();
        state->release();
        return result;
    }

    /// Runs the probe kernel of `library`, with shader validation when `validated`.
    Probe run(MTL::Library* library, bool validated = false) {
        const std::vector<float> v = runOneThread(library, "probe", {std::nanf(""), -0.0f, 1.0f}, 7, validated);
        return Probe{v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
    }

    /// The probe compiled at run time with `options` (nullptr: Metal's defaults), run plain
    /// and with shader validation; both must agree.
    Probe runFromSource(MTL::CompileOptions* options) {
        NS::Error* error = nullptr;
        MTL::Library* library =
            device_->newLibrary(NS::String::string(kProbe.c_str(), NS::UTF8StringEncoding), options, &error);
        if (!library) {
            ADD_FAILURE() << "compile failed: " << (error ? error->localizedDescription()->utf8String() : "?");
            return {};
        }
        Probe plain = run(library);
        Probe validated = run(library, true);
        library->release();
        EXPECT_TRUE(same(plain.nanCompares, validated.nanCompares)) << "the validation flavour has another math mode";
        EXPECT_TRUE(same(plain.zeroSum, validated.zeroSum)) << "the validation flavour has another math mode";
        // fmax of a NaN under finite math only is undefined (the compiler may take either
        // operand, and does so differently in code shaped differently, as the validated
        // flavour's is): compared where NaNs are honoured.
        if (plain.finiteMath == 0.0f) {
            EXPECT_TRUE(same(plain.fmaxResult, validated.fmaxResult)) << "the validation flavour has other functions";
        }
        return plain;
    }

    static bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

    /// The probe compiled with the given math mode and FP32 functions.
    Probe runWith(MTL::MathMode mode, MTL::MathFloatingPointFunctions functions) {
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setMathMode(mode);
        options->setMathFloatingPointFunctions(functions);
        Probe probe = runFromSource(options);
        options->release();
        return probe;
    }
};

// Test that the default is Metal's fast math (the compiler is told so: __FAST_MATH__, finite
// math only), while metal::isnan and precise:: still see the NaN.
TEST_F(MathModeTest, DefaultIsFastMath) {
    Probe probe = runFromSource(nullptr);
    EXPECT_EQ(probe.fastMath, 1.0f) << "the kernel was not compiled with fast math";
    EXPECT_EQ(probe.finiteMath, 1.0f);
    EXPECT_EQ(probe.preciseFmax, 1.0f);
    EXPECT_EQ(probe.isnanResult, 1.0f);
}

// Test that MathModeSafe with precise functions gives IEEE 754 results.
TEST_F(MathModeTest, SafeModeIsIEEE) {
    Probe probe = runWith(MTL::MathModeSafe, MTL::MathFloatingPointFunctionsPrecise);
    EXPECT_EQ(probe.fastMath, 0.0f);
    EXPECT_EQ(probe.finiteMath, 0.0f);
    EXPECT_EQ(probe.nanCompares, 1.0f);
    EXPECT_EQ(probe.zeroSum, 0.0f);
    EXPECT_FALSE(std::signbit(probe.zeroSum)) << "IEEE 754: -0 + +0 is +0";
    EXPECT_EQ(probe.fmaxResult, 1.0f) << "with precise functions, metal::fmax ignores a NaN argument";
    EXPECT_EQ(probe.preciseFmax, 1.0f);
    EXPECT_EQ(probe.isnanResult, 1.0f);
}

// Test that setFastMathEnabled(false) turns fast math off as Metal does: safe arithmetic and
// precise functions.
TEST_F(MathModeTest, FastMathDisabledIsIEEE) {
    MTL::CompileOptions* off = MTL::CompileOptions::alloc()->init();
    off->setFastMathEnabled(false);
    EXPECT_FALSE(off->fastMathEnabled());
    EXPECT_EQ(off->mathMode(), MTL::MathModeSafe);
    EXPECT_EQ(off->mathFloatingPointFunctions(), MTL::MathFloatingPointFunctionsPrecise);
    Probe probe = runFromSource(off);
    off->release();
    EXPECT_EQ(probe.nanCompares, 1.0f);
    EXPECT_FALSE(std::signbit(probe.zeroSum)) << "IEEE 754: -0 + +0 is +0";
    EXPECT_EQ(probe.fmaxResult, 1.0f) << "with precise functions, metal::fmax ignores a NaN argument";
}

// Test that MathModeRelaxed is fast math that keeps infinities and NaNs: x != x holds for a NaN.
TEST_F(MathModeTest, RelaxedModeHonoursNaN) {
    Probe probe = runWith(MTL::MathModeRelaxed, MTL::MathFloatingPointFunctionsFast);
    EXPECT_EQ(probe.nanCompares, 1.0f);
    EXPECT_EQ(probe.finiteMath, 0.0f) << "relaxed keeps infinities and NaNs";
}

// Test that the FP32 functions are chosen apart from the math mode: fast math with precise
// functions makes metal::fmax the precise one.
TEST_F(MathModeTest, PreciseFunctionsUnderFastMath) {
    Probe probe = runWith(MTL::MathModeFast, MTL::MathFloatingPointFunctionsPrecise);
    EXPECT_EQ(probe.fastMath, 1.0f);
    EXPECT_EQ(probe.fmaxResult, 1.0f);
}

// Test that `metal -fno-fast-math` and `metal -fmetal-math-mode=...` reach the compiled
// code of a library built with the tools, as metal_add_library() builds them.
TEST_F(MathModeTest, MetalToolFlags) {
    std::string dir = support::makeTemporaryDirectory("metalcpu-math-tool-");
    ASSERT_FALSE(dir.empty());
    ASSERT_TRUE(support::writeFileAtomically(dir + "/probe.metal", kProbe));
    auto build = [&](const std::vector<std::string>& flags, const std::string& name) -> MTL::Library* {
        std::vector<std::string> compile = {METAL_TOOL, "-c", "probe.metal", "-o", name + ".air"};
        compile.insert(compile.end(), flags.begin(), flags.end());
        support::ProcessResult compiled = support::runProcess(compile, dir);
        EXPECT_EQ(compiled.exitCode, 0) << compiled.output;
        support::ProcessResult linked =
            support::runProcess({METALLIB_TOOL, name + ".air", "-o", name + ".metallib"}, dir);
        EXPECT_EQ(linked.exitCode, 0) << linked.output;
        NS::Error* error = nullptr;
        std::string path = dir + "/" + name + ".metallib";
        MTL::Library* library = device_->newLibrary(NS::String::string(path.c_str(), NS::UTF8StringEncoding), &error);
        EXPECT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "?");
        return library;
    };

    MTL::Library* fast = build({}, "fast");
    Probe probe = run(fast);
    EXPECT_EQ(probe.fastMath, 1.0f) << "metal compiles with fast math by default";
    Probe validated = run(fast, true);
    EXPECT_EQ(validated.fastMath, 1.0f);
    if (fast) fast->release();

    MTL::Library* safe = build({"-fno-fast-math"}, "safe");
    probe = run(safe);
    EXPECT_EQ(probe.nanCompares, 1.0f) << "-fno-fast-math did not reach the compiled code";
    EXPECT_FALSE(std::signbit(probe.zeroSum));
    EXPECT_EQ(probe.fmaxResult, 1.0f) << "-fno-fast-math selects the precise functions";
    validated = run(safe, true);
    EXPECT_EQ(validated.nanCompares, 1.0f) << "the validation flavour lost -fno-fast-math";
    EXPECT_EQ(validated.fmaxResult, 1.0f);
    if (safe) safe->release();

    MTL::Library* relaxed = build({"-fmetal-math-mode=relaxed", "-fmetal-math-fp32-functions=precise"}, "relaxed");
    probe = run(relaxed);
    EXPECT_EQ(probe.nanCompares, 1.0f);
    EXPECT_EQ(probe.finiteMath, 0.0f);
    EXPECT_EQ(probe.fmaxResult, 1.0f);
    if (relaxed) relaxed->release();

    for (const char* wrong : {"-fmetal-math-mode=precise", "-fmetal-math-fp32-functions=safe"}) {
        support::ProcessResult refused = support::runProcess({METAL_TOOL, "-c", "probe.metal", wrong}, dir);
        EXPECT_NE(refused.exitCode, 0) << wrong;
        EXPECT_NE(refused.output.find(wrong), std::string::npos) << refused.output;
    }
    support::removeTree(dir);
}

// Test that metal_add_library(... OPTIONS -fno-fast-math) builds a library without fast math
// (tests/jit/CMakeLists.txt builds the probe so).
TEST_F(MathModeTest, MetalAddLibraryOptions) {
    ASSERT_FALSE(kProbe.empty()) << METALCPU_MATH_PROBE;
    NS::Error* error = nullptr;
    MTL::Library* safe = device_->newLibrary(NS::String::string(METALCPU_SAFE_PROBE_METALLIB, NS::UTF8StringEncoding), &error);
    ASSERT_NE(safe, nullptr) << (error ? error->localizedDescription()->utf8String() : "?");
    Probe probe = run(safe);
    EXPECT_EQ(probe.nanCompares, 1.0f) << "OPTIONS -fno-fast-math did not reach the compiled code";
    EXPECT_EQ(probe.fmaxResult, 1.0f);
    safe->release();
}

/// Sums whose result depends on the order of the additions. Metal adds in the order written in
/// every math mode; GCC's -ffast-math alone regroups them (a public 2-D Laplacian test missed
/// its 2.4e-7 tolerance that way).
const char* const kOrderedSums = R"(
kernel void sums(device const float* in [[buffer(0)]], device float* out [[buffer(1)]],
                 uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    const float one = in[0], big = in[1];
    out[0] = (one + big) - big;      // 0 in order (1 + 1e8 rounds to 1e8); 1 when regrouped
    float sum = 0.0f;
    for (int k = 0; k < 64; ++k) sum += in[2 + k];
    out[1] = sum;                    // 0 in order; 32 when vectorised in lanes
    // A 5-point stencil: centre, left, right, up, down.
    const float c = in[66], l = in[67], r = in[68], u = in[69], d = in[70];
    out[2] = l + r + u + d - 4.0f * c;
}
)";

// Test that no math mode reassociates additions: each sum comes out as when added in order.
TEST_F(MathModeTest, NoModeReassociates) {
    std::vector<float> inputs(71);
    inputs[0] = 1.0f;
    inputs[1] = 1e8f;
    for (int k = 0; k < 64; ++k) inputs[2 + k] = k % 2 == 0 ? 1.0f : (k % 4 == 1 ? -1e8f : 1e8f);
    const float stencil[5] = {0.1f, 1e7f, 0.3f, -1e7f, 0.7f};
    std::copy(stencil, stencil + 5, inputs.begin() + 66);
    volatile float l = stencil[1], r = stencil[2], u = stencil[3], d = stencil[4], c = stencil[0];
    const float inOrder = (((l + r) + u) + d) - 4.0f * c;
    for (MTL::MathMode mode : {MTL::MathModeFast, MTL::MathModeRelaxed, MTL::MathModeSafe}) {
        SCOPED_TRACE(mode == MTL::MathModeFast ? "fast" : mode == MTL::MathModeRelaxed ? "relaxed" : "safe");
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setMathMode(mode);
        NS::Error* error = nullptr;
        MTL::Library* library =
            device_->newLibrary(NS::String::string(kOrderedSums, NS::UTF8StringEncoding), options, &error);
        options->release();
        ASSERT_NE(library, nullptr) << (error ? error->localizedDescription()->utf8String() : "?");
        const std::vector<float> values = runOneThread(library, "sums", inputs, 3, false);
        library->release();
        EXPECT_EQ(values[0], 0.0f) << "(1 + 1e8) - 1e8 was regrouped";
        EXPECT_EQ(values[1], 0.0f) << "the loop's sum was reordered";
        EXPECT_EQ(values[2], inOrder) << "the stencil's sum was regrouped";
    }
}

// Test the flags each mode maps to, and that a translated file records its mode (also in
// the embedded validation flavour) for the compile step to read back.
TEST(MathModeFlags, MappingAndPreamble) {
#if defined(__x86_64__)
    const std::vector<std::string> exactDivision = {"-mrecip=!vec-div"}; // vectors divide as scalars do
#else
    const std::vector<std::string> exactDivision;
#endif
    std::vector<std::string> fast = {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast"};
    fast.insert(fast.end(), exactDivision.begin(), exactDivision.end());
    EXPECT_EQ(mathModeFlags(MathMode::Fast), fast);
    std::vector<std::string> relaxed = {"-ffast-math", "-fno-associative-math", "-ffp-contract=fast", "-fno-finite-math-only"};
    relaxed.insert(relaxed.end(), exactDivision.begin(), exactDivision.end());
    EXPECT_EQ(mathModeFlags(MathMode::Relaxed), relaxed);
    std::vector<std::string> safe = mathModeFlags(MathMode::Safe);
    for (const std::string& flag : safe) EXPECT_EQ(flag.find("fast-math"), std::string::npos) << flag;

    for (MathMode mode : {MathMode::Safe, MathMode::Relaxed, MathMode::Fast}) {
        std::string preamble = mathSettingsPreamble(mode, MathFunctions::Precise);
        EXPECT_EQ(recordedMathMode(preamble + "#include <metalcpu/kernel_prelude.h>\n"), mode);
        EXPECT_NE(preamble.find("#define METALCPU_MATH_FP32_FUNCTIONS 1\n"), std::string::npos);
    }
    EXPECT_EQ(recordedMathMode("#include <metalcpu/kernel_prelude.h>\n"), MathMode::Fast);

    std::string dir = support::makeTemporaryDirectory("metalcpu-math-preamble-");
    ASSERT_TRUE(support::writeFileAtomically(dir + "/k.metal", kProbe));
    KernelCompileSettings settings;
    settings.mathMode = MathMode::Safe;
    settings.mathFunctions = MathFunctions::Precise;
    CompileResult translated = translateFile(dir + "/k.metal", {}, settings, dir + "/k.cpp");
    ASSERT_TRUE(translated.ok) << translated.diagnostics;
    std::string cpp = support::readFile(dir + "/k.cpp").value_or("");
    EXPECT_EQ(cpp.rfind(mathSettingsPreamble(MathMode::Safe, MathFunctions::Precise), 0), 0u) << cpp.substr(0, 300);
    EXPECT_EQ(recordedMathMode(cpp), MathMode::Safe);
    std::string::size_type embedded = cpp.find("metalcpu_validation_source[] = R\"");
    ASSERT_NE(embedded, std::string::npos);
    const std::string preamble = mathSettingsPreamble(MathMode::Safe, MathFunctions::Precise);
    std::string::size_type open = cpp.find('(', embedded);
    EXPECT_EQ(cpp.compare(open + 1, preamble.size(), preamble), 0) << "the validation flavour does not record the math mode";
    support::removeTree(dir);
}

// Test that the math settings are part of the run-time cache key.
TEST(MathModeFlags, SettingsKeyIncludesTheMathSettings) {
    KernelCompileSettings fast, safe, precise;
    safe.mathMode = MathMode::Safe;
    precise.mathFunctions = MathFunctions::Precise;
    EXPECT_NE(fast.key(), safe.key());
    EXPECT_NE(fast.key(), precise.key());
    EXPECT_NE(safe.key(), precise.key());
}

// Test that every kernel compile caps value numbering's alias-oracle queries per load (half of
// the 8×4 matmul's compile went there: docs/compiler.md, "What a compile costs"), before
// METALCPU_KERNEL_FLAGS, whose own --param then wins (GCC takes the last).
TEST(KernelCodeFlags, ValueNumberingQueriesAreCappedBeforeTheUsersFlags) {
    const std::string capped = "--param=sccvn-max-alias-queries-per-access=100";
    const std::string raised = "--param=sccvn-max-alias-queries-per-access=1000";
    testing::ScopedEnvironmentVariable flags("METALCPU_KERNEL_FLAGS", raised);
    for (MathMode mode : {MathMode::Safe, MathMode::Fast}) {
        const std::vector<std::string> code = kernelCodeFlags(mode, baselineLevel());
        const auto cap = std::find(code.begin(), code.end(), capped);
        const auto user = std::find(code.begin(), code.end(), raised);
        ASSERT_NE(cap, code.end());
        ASSERT_NE(user, code.end());
        EXPECT_LT(cap, user) << "METALCPU_KERNEL_FLAGS must come after the cap";
    }
}

} // namespace
} // namespace metalcpu::jit
