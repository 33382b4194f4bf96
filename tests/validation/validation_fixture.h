#pragma once

// Fixtures for shader-validation tests that run kernels: labelled pipelines in a chosen
// validation state, buffers released after the test, dispatches with an encoder label, and
// (ValidationFixture) the reports the dispatches made.

#include "runtime/metal_test.h"
#include "validation/settings.h"

#include <metalcpu/ValidationTesting.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {

/// The line of the first line of `source` holding `text` (0 when none): tests find a kernel's
/// sites by their text, so that they do not depend on line numbers.
inline unsigned lineHolding(const std::string& source, const char* text) {
    const std::size_t at = source.find(text);
    return at == std::string::npos ? 0 : unsigned(1 + std::count(source.begin(), source.begin() + at, '\n'));
}

/// A grid of `gx` x `gy` threads dispatched in groups of `sx` x `sy`, and its test name.
struct GridShape {
    std::uint32_t gx, gy, sx, sy;
};
inline std::string gridShapeName(const ::testing::TestParamInfo<GridShape>& info) {
    const GridShape s = info.param;
    return std::to_string(s.gx) + "x" + std::to_string(s.gy) + "_by" + std::to_string(s.sx) + "x" + std::to_string(s.sy);
}

/// The reports of a kernel's accesses through a cheaper check and those of their twins, the
/// same accesses one line below through the general path: the same reports but for the line
/// (every field, through the text and the JSON line, but the line and the command buffer's
/// index).
inline void expectTwinReports(const std::vector<validation::ShaderValidationReport>& cheaper,
                              const std::vector<validation::ShaderValidationReport>& general) {
    ASSERT_EQ(cheaper.size(), general.size());
    for (std::size_t r = 0; r < cheaper.size(); ++r) {
        const validation::ShaderValidationReport& mine = cheaper[r];
        validation::ShaderValidationReport twin = general[r];
        EXPECT_EQ(twin.location.line, mine.location.line + 1);
        twin.location.line = mine.location.line;
        twin.commandBufferIndex = mine.commandBufferIndex;
        EXPECT_EQ(mine.text(), twin.text());
        EXPECT_EQ(mine.json(), twin.json());
    }
}

/// Pipelines, buffers and dispatches; reports go wherever the test's sinks take them.
class KernelFixture : public MetalTest {
protected:
    void TearDown() override {
        for (MTL::Buffer* buffer : buffers_) buffer->release();
        buffers_.clear();
        MetalTest::TearDown();
    }

    /// A pipeline (autoreleased) for `name` in `library`, labelled `label` when not null;
    /// fails the test and returns nullptr when there is none.
    MTL::ComputePipelineState* pipeline(MTL::Library* library, const char* name, const char* label = nullptr,
                                        MTL::ShaderValidation validation = MTL::ShaderValidationDefault) {
        MTL::Function* function = kernelNamed(library, name);
        if (!function) return nullptr;
        std::string why;
        MTL::ComputePipelineState* made = pipelineOf(device_, function, validation, &why, label);
        if (!made) ADD_FAILURE() << "pipeline failed: " << why;
        function->release();
        return made ? made->autorelease() : nullptr;
    }

    /// A shared buffer of `bytes` bytes, labelled `label` when not null, released by TearDown.
    MTL::Buffer* buffer(std::size_t bytes, const char* label = nullptr) {
        MTL::Buffer* made = device_->newBuffer(bytes, MTL::ResourceStorageModeShared);
        if (label) made->setLabel(NS::String::string(label, NS::UTF8StringEncoding));
        buffers_.push_back(made);
        return made;
    }

    /// Two live buffers of `count` floats each: `low`, at the lower address, and `high`,
    /// which starts `index` floats after `low` does. Storing `low[index]` through `low`'s
    /// binding is invalid (past its buffer), yet lands in memory, in `high[0]`, as on a GPU:
    /// what allow mode and unchecked stores show. (An access below a binding's offset but
    /// inside its buffer is valid.)
    struct Neighbours {
        MTL::Buffer* low = nullptr;
        MTL::Buffer* high = nullptr;
        int index = 0;
    };
    Neighbours neighbours(std::size_t count) {
        MTL::Buffer* a = buffer(count * sizeof(float), "first");
        MTL::Buffer* b = buffer(count * sizeof(float), "second");
        const auto address = [](MTL::Buffer* x) { return reinterpret_cast<std::uintptr_t>(x->contents()); };
        Neighbours n;
        n.low = address(a) < address(b) ? a : b;
        n.high = n.low == a ? b : a;
        const std::uintptr_t distance = address(n.high) - address(n.low);
        EXPECT_EQ(distance % sizeof(float), 0u);
        EXPECT_LT(distance / sizeof(float), std::uintptr_t(1) << 30) << "buffers too far apart for an int index";
        n.index = static_cast<int>(distance / sizeof(float));
        return n;
    }

    /// Encodes one dispatch of `count` threads in groups of `group` per pipeline of
    /// `pipelines` into one encoder (labelled `encoderLabel` when not null), `bind` setting the
    /// arguments of each (it gets the encoder and the dispatch's index); commits and waits.
    template <class Bind>
    MTL::CommandBuffer* dispatchAll(const std::vector<MTL::ComputePipelineState*>& pipelines, NS::UInteger count,
                                    NS::UInteger group, Bind&& bind, const char* encoderLabel = nullptr) {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        if (encoderLabel) encoder->setLabel(NS::String::string(encoderLabel, NS::UTF8StringEncoding));
        for (std::size_t i = 0; i < pipelines.size(); ++i) {
            encoder->setComputePipelineState(pipelines[i]);
            bind(encoder, i);
            encoder->dispatchThreads(MTL::Size(count, 1, 1), MTL::Size(group, 1, 1));
        }
        encoder->endEncoding();
        run(commands);
        return commands;
    }

    /// One dispatch of `pipeline`, as dispatchAll.
    template <class Bind>
    MTL::CommandBuffer* dispatch(MTL::ComputePipelineState* pipeline, NS::UInteger count, NS::UInteger group,
                                 Bind&& bind) {
        return dispatchAll({pipeline}, count, group, [&](MTL::ComputeCommandEncoder* e, std::size_t) { bind(e); });
    }

    std::vector<MTL::Buffer*> buffers_;
};

/// KernelFixture that collects every report made during the test.
class ValidationFixture : public KernelFixture {
protected:
    /// The reports delivered since the last call.
    std::vector<validation::ShaderValidationReport> reports() { return collector_.take(); }

    ValidationReportCollector collector_;
};

/// Shader validation on for the process during each test (as MTL_SHADER_VALIDATION=1 makes
/// it), whatever the environment says; configure() changes the settings for one test.
class ValidationOnFixture : public ValidationFixture {
protected:
    void SetUp() override {
        ValidationFixture::SetUp();
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        configure(settings);
    }
    void TearDown() override {
        val::overrideShaderValidationSettings(std::nullopt);
        ValidationFixture::TearDown();
    }
    static void configure(const val::ShaderValidationSettings& settings) {
        val::overrideShaderValidationSettings(settings);
    }
};

/// The threads of a dispatch and of each threadgroup, for tests run over several of them.
struct Shape {
    NS::UInteger count, group;
};

/// Names the instances of a test run over shapes: "37threads_by8".
inline std::string shapeName(const ::testing::TestParamInfo<Shape>& info) {
    return std::to_string(info.param.count) + "threads_by" + std::to_string(info.param.group);
}

/// ValidationOnFixture run over shapes, with outputs between canary words and one library per
/// test suite, compiled from `*Source` (the suite's kernels) before its first test.
template <const char* const* Source>
class ShapedValidationFixture : public ValidationOnFixture, public ::testing::WithParamInterface<Shape> {
protected:
    static void SetUpTestSuite() { library_ = compile(*Source); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }
    static inline MTL::Library* library_ = nullptr;

    static constexpr std::uint32_t kCanary = 0xC0FFEE11u;

    /// An output of `words` words between two `canary` words, labelled "out", to be bound at
    /// the first word after the leading canary; every word starts as `fill`. A binding ends
    /// where its buffer does: the trailing canary is inside it, as on Metal.
    MTL::Buffer* output(std::size_t words, std::uint32_t fill = 0xFFFFFFFFu, std::uint32_t canary = kCanary) {
        MTL::Buffer* out = buffer((words + 2) * sizeof(std::uint32_t), "out");
        auto* w = static_cast<std::uint32_t*>(out->contents());
        for (std::size_t i = 0; i < words + 2; ++i) w[i] = i == 0 || i == words + 1 ? canary : fill;
        return out;
    }
    void expectCanaries(MTL::Buffer* out, std::size_t words, std::uint32_t canary = kCanary) {
        const auto* w = static_cast<const std::uint32_t*>(out->contents());
        EXPECT_EQ(w[0], canary);
        EXPECT_EQ(w[words + 1], canary);
    }
};

inline float* floats(MTL::Buffer* buffer) { return static_cast<float*>(buffer->contents()); }

/// The 1-based column of `name` in line `line` of `source` (0 when it is not there): where a
/// report of the call of `name` on that line points.
inline unsigned columnOf(const std::string& source, unsigned line, const std::string& name) {
    std::size_t start = 0;
    for (unsigned l = 1; l < line; ++l) start = source.find('\n', start) + 1;
    const std::size_t end = source.find('\n', start);
    const std::size_t at = source.substr(start, end - start).find(name);
    return at == std::string::npos ? 0u : static_cast<unsigned>(at + 1);
}
inline std::uint32_t* words(MTL::Buffer* buffer) { return static_cast<std::uint32_t*>(buffer->contents()); }

} // namespace metalcpu::testing
