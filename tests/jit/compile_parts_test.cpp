// A translated file compiled in parts (jit/compile_parts.h): which kernels each part builds,
// what a part's text changes, and that a library compiled in parts runs every kernel as a
// library compiled whole does, validated and specialised too.
#include "jit/compile_parts.h"

#include "compiler/translate.h"
#include "jit/kernel_compiler.h"
#include "log_capture.h"
#include "runtime/metal_test.h"
#include "scoped_state.h"
#include "support/hash.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::jit {
namespace {

using Parts = std::vector<std::vector<std::string>>;

/// The start of a translated file that lists five kernels, then a carried validation text
/// (with a registration of its own) and the file's registration.
const std::string kTranslated = "// metalcpu math settings: MTLMathMode, MTLMathFloatingPointFunctions\n"
                                "#define METALCPU_MATH_MODE 2\n"
                                "// metalcpu kernels: a b c d e\n"
                                "// metalcpu source root: /one/place\n"
                                "#include <metalcpu/kernel_prelude.h>\n"
                                "static const char v[] = R\"mcv(\nMETALCPU_REGISTER_MODULE(inner)\n)mcv\";\n"
                                "int user;\n"
                                "METALCPU_REGISTER_MODULE(__mc_kernels, 5)\n";

// Test that the preamble line lists each kernel's selector, and is read back.
TEST(CompileParts, KernelSelectorsAreRecordedInThePreamble) {
    const std::string line = kernelSelectorsPreamble({"first", "second"});
    EXPECT_EQ(line, "// metalcpu kernels: " + msl::kernelSelector("first") + " " + msl::kernelSelector("second") + "\n");
    EXPECT_EQ(recordedKernelSelectors(kTranslated), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
    EXPECT_EQ(kernelSelectorsPreamble({}), "");
    // Only the preamble counts: the same line after the prelude is the user's.
    EXPECT_TRUE(recordedKernelSelectors("#include <metalcpu/kernel_prelude.h>\n// metalcpu kernels: a b\n").empty());
}

// Test that a part's kernels are named by the symbols their selectors guard (an encoded name
// decoded), and that a selector without one stands for itself.
TEST(CompileParts, KernelsAreNamedByTheirSymbols) {
    // As entry_points.cpp writes a kernel's symbol, under its selector.
    const auto symbol = [](const std::string& name) {
        return "#if METALCPU_SELECTS_KERNEL(" + msl::kernelSelector(name) + ")\n" +
               "__attribute__((used, visibility(\"hidden\"))) char __mc_name __asm__(\"" + msl::kernelSymbol(name) +
               "\") = 0;\n#endif\n";
    };
    const std::string translated = kTranslated + "#if METALCPU_SELECTS_KERNEL(" + msl::kernelSelector("first") +
                                   ")\nvoid __mc_0_run_group();\n#endif\n" + symbol("first") + symbol("a b");
    EXPECT_EQ(kernelNames(translated, {msl::kernelSelector("a b"), msl::kernelSelector("first"), "0x1ull"}),
              (std::vector<std::string>{"a b", "first", "0x1ull"}));
}

// Test that kernels are dealt out in turn to as many parts as jobs per image, at most one per
// kernel, and that small code, one job per image, a text of one kernel or one without the
// preamble line is compiled whole.
TEST(CompileParts, KernelsAreDealtOutToTheJobsOfEachImage) {
    EXPECT_EQ(compileParts(kTranslated, 1, kPartCodeBytes, 2), (Parts{{"a", "c", "e"}, {"b", "d"}}));
    EXPECT_EQ(compileParts(kTranslated, 1, kPartCodeBytes, 8), (Parts{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}));
    EXPECT_EQ(compileParts(kTranslated, 3, kPartCodeBytes, 6), (Parts{{"a", "c", "e"}, {"b", "d"}}));
    EXPECT_EQ(compileParts(kTranslated, 3, kPartCodeBytes, 5), Parts{});
    EXPECT_EQ(compileParts(kTranslated, 1, kPartCodeBytes, 1), Parts{});
    EXPECT_EQ(compileParts(kTranslated, 1, kPartCodeBytes - 1, 8), Parts{});
    const std::string oneKernel = insertAfterPrelude(kTranslated, "#undef METALCPU_ONLY_KERNEL\n#define METALCPU_ONLY_KERNEL a\n");
    EXPECT_EQ(compileParts(oneKernel, 1, kPartCodeBytes, 8), Parts{});
    EXPECT_EQ(compileParts("#include <metalcpu/kernel_prelude.h>\nint user;\n", 1, kPartCodeBytes, 8), Parts{});
}

// Test that a part selects its kernels after the prelude, and that the carried texts are
// defined once, by the first part, under a symbol the later parts' modules point at (their own
// copies left unused), placed after the definitions and before the file's own registration,
// not the one inside a carried text.
TEST(CompileParts, APartSelectsItsKernelsAndTheFirstDefinesTheCarriedTexts) {
    const std::string selects = "#undef METALCPU_IN_PARTITION\n#define METALCPU_IN_PARTITION(s) ((s) == b || (s) == d)\n";
    EXPECT_EQ(partSource(kTranslated, {"b", "d"}, true), insertAfterPrelude(kTranslated, selects));

    const std::string carried = insertAfterPrelude(
        kTranslated, "#undef METALCPU_VALIDATION_SOURCE\n#define METALCPU_VALIDATION_SOURCE metalcpu_validation_source\n"
                     "static const char metalcpu_validation_source[] = R\"mcv(\nMETALCPU_REGISTER_MODULE(inner)\n)mcv\";\n");
    const std::string symbol = "__asm__(\"metalcpu.metalcpu_validation_source." + support::Hasher().add(carried).hex() + "\")";
    const std::string shared = "extern __attribute__((visibility(\"hidden\"))) const char ";
    const std::string first = partSource(carried, {"b", "d"}, true);
    EXPECT_NE(first.find("\n" + shared + "metalcpu_validation_source[] " + symbol +
                         ";\nconst char metalcpu_validation_source[] = R\"mcv("),
              std::string::npos) << first;
    EXPECT_EQ(first.find("static const char metalcpu_validation_source"), std::string::npos) << first;
    const std::string later = partSource(carried, {"b", "d"}, false);
    EXPECT_NE(later.find("\nstatic const char metalcpu_validation_source[] = R\"mcv("), std::string::npos) << later;
    EXPECT_NE(later.find("int user;\n" + shared + "metalcpu_validation_source_of_first_part[] " + symbol +
                         ";\n#undef METALCPU_VALIDATION_SOURCE\n"
                         "#define METALCPU_VALIDATION_SOURCE metalcpu_validation_source_of_first_part\n"
                         "METALCPU_REGISTER_MODULE(__mc_kernels, 5)\n"),
              std::string::npos)
        << later;
    // Without carried texts (a validation flavour) only the selection changes.
    EXPECT_EQ(partSource(kTranslated, {"b"}, false), insertAfterPrelude(kTranslated, "#undef METALCPU_IN_PARTITION\n#define METALCPU_IN_PARTITION(s) ((s) == b)\n"));
}

/// Kernels of an own cache at each number of METALCPU_COMPILE_JOBS: 1 compiles whole; 2 and 3
/// in as many parts (three kernels, more than kPartCodeBytes of code: a big table).
class CompilePartsLibrary : public testing::MetalTest, public ::testing::WithParamInterface<int> {
protected:
    static constexpr unsigned kThreads = 61;  ///< over groups of 7: a last group of 5
    static constexpr unsigned kCanaries = 4;  ///< words after the output that no kernel may touch
    static constexpr float kCanary = -1234.5f;

    static std::string source() {
        std::string table = "constant float kTable[8000] = {";
        for (int i = 0; i < 8000; ++i) table += std::to_string(i) + ".25f, ";
        table += "};\n";
        // `twice` has external linkage and two kernels in different parts reach it; `second`
        // (the second part's) reads a function constant.
        return "#include <metal_stdlib>\nusing namespace metal;\n" + table +
               "constant int kBias [[function_constant(0)]];\n"
               "float twice(float x) { return 2.0f * x; }\n"
               "kernel void first(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
               "    out[i] = twice(kTable[i]);\n}\n"
               "kernel void second(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
               "    out[i] = twice(kTable[i]) + float(kBias);\n}\n"
               "kernel void third(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
               "    out[i] = 3.0f * kTable[i];\n}\n";
    }

    /// Runs `function` over kThreads threads in groups of 7 and returns what it wrote; the
    /// canaries after it must be intact.
    std::vector<float> run(MTL::Function* function, bool validated) {
        if (!function) {
            ADD_FAILURE() << "no function";
            return {};
        }
        std::string why;
        MTL::ComputePipelineState* state =
            testing::pipelineOf(device_, function, testing::shaderValidation(validated), &why);
        if (!state) {
            ADD_FAILURE() << "pipeline failed: " << why;
            return {};
        }
        MTL::Buffer* out = device_->newBuffer((kThreads + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<float*>(out->contents()), kThreads + kCanaries, kCanary);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(kThreads, 1, 1), MTL::Size(7, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(MetalTest::run(commands), MTL::CommandBufferStatusCompleted);
        const float* written = static_cast<const float*>(out->contents());
        std::vector<float> values(written, written + kThreads);
        for (unsigned c = 0; c < kCanaries; ++c) EXPECT_EQ(written[kThreads + c], kCanary) << "canary " << c;
        out->release();
        state->release();
        return values;
    }

    static std::vector<float> expected(float scale, float bias) {
        std::vector<float> values;
        for (unsigned i = 0; i < kThreads; ++i) values.push_back(scale * (static_cast<float>(i) + 0.25f) + bias);
        return values;
    }

    testing::TemporaryDirectory cache_;
    testing::ScopedEnvironmentVariable cacheDirectory_{"METALCPU_CACHE_DIR", cache_.path().string()};
    testing::ScopedEnvironmentVariable jobs_{"METALCPU_COMPILE_JOBS", std::to_string(GetParam())};
    testing::ScopedLogLevel debug_{spdlog::level::debug}; // where compiling in parts is said
};

// Test that the library has every kernel and each computes what it does compiled whole —
// `second` specialised with a function constant, plain and validated: its part has no
// validation text of its own, the first part's is the whole file's — and that compiling in
// parts happened (and did not fall back to compiling whole) exactly when there were jobs for it.
TEST_P(CompilePartsLibrary, EveryKernelRunsAsCompiledWhole) {
    testing::LogCapture log;
    NS::Error* error = nullptr;
    const std::string text = source();
    MTL::Library* library = device_->newLibrary(NS::String::string(text.c_str(), NS::UTF8StringEncoding), nullptr, &error);
    ASSERT_NE(library, nullptr) << testing::text(error ? error->localizedDescription() : nullptr);
    const std::size_t parts = GetParam() > 1 ? static_cast<std::size_t>(GetParam()) : 0;
    EXPECT_EQ(log.count(" in " + std::to_string(parts) + " parts at once"), parts ? 1u : 0u) << log.text();
    EXPECT_EQ(log.count(" parts at once"), parts ? 1u : 0u) << log.text();
    EXPECT_EQ(log.count(" whole: "), 0u) << log.text();

    MTL::Function* first = library->newFunction(NS::String::string("first", NS::UTF8StringEncoding));
    MTL::Function* third = library->newFunction(NS::String::string("third", NS::UTF8StringEncoding));
    EXPECT_EQ(run(first, false), expected(2.0f, 0.0f));
    EXPECT_EQ(run(third, false), expected(3.0f, 0.0f));
    EXPECT_EQ(run(third, true), expected(3.0f, 0.0f));

    MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
    const int bias = 5;
    values->setConstantValue(&bias, MTL::DataTypeInt, NS::UInteger(0));
    MTL::Function* second = library->newFunction(NS::String::string("second", NS::UTF8StringEncoding), values, &error);
    EXPECT_NE(second, nullptr) << testing::text(error ? error->localizedDescription() : nullptr);
    EXPECT_EQ(run(second, false), expected(2.0f, 5.0f));
    EXPECT_EQ(run(second, true), expected(2.0f, 5.0f));
    if (second) second->release();
    values->release();
    third->release();
    first->release();
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Jobs, CompilePartsLibrary, ::testing::Values(1, 2, 3));

} // namespace
} // namespace metalcpu::jit
