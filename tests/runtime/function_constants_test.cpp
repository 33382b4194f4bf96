// Function constants end to end: Library::newFunction(name, constantValues, error) compiles the
// kernel with the values baked in (through the kernel cache), in both flavours, from a source
// string and from a .metallib; errors are Metal's.
#include "metal_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <gmock/gmock.h>
#include "runtime/debug_layer.h"
#include "runtime/lowering.h"
#include "scoped_state.h"
#include "support/files.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <tuple>

namespace metalcpu::testing {
namespace {

// llama.cpp style: a base index plus offsets, a loop bound, a flag that drops an argument;
// MLX style: derived program-scope constants (one computed by a math function), one of which an
// argument is present under; an optional constant; a vector constant.
const char kKernels[] = R"(
#include <metal_stdlib>
using namespace metal;

#define FC_REDUCE 100

constant bool has_bias [[function_constant(FC_REDUCE + 0)]];
constant int nsg [[function_constant(FC_REDUCE + 1)]];
constant float scale [[function_constant(2)]];
constant int span = nsg * 2 + 1;
// A derived constant computed by a math function, as metal-flash-attention's softmax scale.
constant float root = rsqrt(float(nsg));
// An argument present under a derived constant, as MLX's steel GEMM writes them.
constant bool bias_bound = has_bias && nsg > 0;
constant uint shift [[function_constant(3)]];
constant int2 offset [[function_constant(4)]];

kernel void reduce(device const float* in [[buffer(0)]],
                   device const float* bias [[buffer(1), function_constant(bias_bound)]],
                   device float* out [[buffer(2)]],
                   constant uint& count [[buffer(3)]],
                   constant float& bias_weight [[buffer(4), function_constant(bias_bound)]],
                   uint gid [[thread_position_in_grid]])
{
    if (gid >= count) return;
    float sum = 0;
    for (int i = 0; i < nsg; ++i) sum += in[gid * nsg + i];
    if (has_bias) sum += bias[gid] * bias_weight;
    uint extra = is_function_constant_defined(shift) ? shift : 1000u;
    out[gid] = sum * scale + float(span) + float(extra) + float(offset.x - offset.y) + root;
}

constant half h [[function_constant(10)]];
constant bool3 flags [[function_constant(11)]];
constant long big [[function_constant(12)]];
constant uchar small [[function_constant(13)]];
constant ushort4 quad [[function_constant(14)]];
constant bfloat brain [[function_constant(15)]];

kernel void types(device float* out [[buffer(0)]])
{
    out[0] = float(h);
    out[1] = float(flags.x) + 2.0f * float(flags.y) + 4.0f * float(flags.z);
    out[2] = float(big / 1000000000000l);
    out[3] = float(small);
    out[4] = float(quad.x + quad.y + quad.z + quad.w);
    out[5] = float(brain);
}

kernel void plain(device int* out [[buffer(0)]], uint gid [[thread_position_in_grid]])
{
    out[gid] = int(gid);
}

// A reference argument present only with the bias, in a kernel whose barrier helper keeps it on
// fibers, so that its arguments are made when each thread starts (candle's sdpa_vector).
struct Fence {
    static void wait() { threadgroup_barrier(mem_flags::mem_threadgroup); }
};
kernel void weighted_copy(device const float* in [[buffer(0)]], device float* out [[buffer(2)]],
                          constant float& weight [[buffer(4), function_constant(has_bias)]],
                          uint gid [[thread_position_in_grid]])
{
    Fence::wait();
    if (gid < 100) out[gid] = has_bias ? in[gid] * weight : in[gid];
}

// MLX's steel GEMM: a pointer argument present only with the bias is read before a barrier
// whatever the constant, and the value is used only with the bias. The kernel runs as work
// items, where the value waits out the barrier in a slot, so the read happens.
struct Weights { float weight; float unused[3]; };
struct Scale {
    float by;
    Scale(float w) : by(w) {}
    float apply(float x) const { return x * by; }
};
kernel void dead_read_of_absent(device const float* in [[buffer(0)]], device float* out [[buffer(2)]],
                                const constant Weights* weights [[buffer(4), function_constant(has_bias)]],
                                uint gid [[thread_position_in_grid]], uint lid [[thread_position_in_threadgroup]])
{
    threadgroup float staged[64];
    const Scale scale(weights->weight);
    staged[lid] = gid < 100 ? in[gid] : 0.0f;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (gid >= 100) return;
    out[gid] = has_bias ? scale.apply(staged[lid]) : staged[lid];
}
)";

/// One set of values for the constants of kKernels.
struct Values {
    bool hasBias = false;
    int nsg = 1;
    float scale = 1;
    bool defineShift = false;
    unsigned shift = 0;
    std::array<int, 2> offset{0, 0};
};

const Values kWithBias{true, 3, 2.0f, true, 5, {7, 2}};
const Values kWithoutBias{false, 5, 0.5f, false, 0, {-3, 4}};

MTL::FunctionConstantValues* constantValues(const Values& v) {
    MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
    values->setConstantValue(&v.hasBias, MTL::DataTypeBool, NS::UInteger(100));
    values->setConstantValue(&v.nsg, MTL::DataTypeInt, NS::UInteger(101));
    // By name, as a program may.
    values->setConstantValue(&v.scale, MTL::DataTypeFloat, NS::String::string("scale", NS::UTF8StringEncoding));
    if (v.defineShift) values->setConstantValue(&v.shift, MTL::DataTypeUInt, NS::UInteger(3));
    values->setConstantValue(v.offset.data(), MTL::DataTypeInt2, NS::UInteger(4));
    return values;
}

/// What `reduce` computes for thread `gid`.
float expected(const Values& v, const std::vector<float>& in, const std::vector<float>& bias, unsigned gid) {
    float sum = 0;
    for (int i = 0; i < v.nsg; ++i) sum += in[gid * v.nsg + i];
    if (v.hasBias) sum += bias[gid];
    return sum * v.scale + float(v.nsg * 2 + 1) + float(v.defineShift ? v.shift : 1000u) +
           float(v.offset[0] - v.offset[1]) + 1.0f / std::sqrt(float(v.nsg));
}

constexpr unsigned kCount = 100;  // threads: divides by none of the group sizes
constexpr unsigned kCanaries = 4; // words after the output that must stay untouched
constexpr float kCanary = -12345.0f;

class FunctionConstants : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    /// `reduce` specialised with `v` (+1), or nullptr with the error's text in `why`.
    MTL::Function* specialised(const Values& v, std::string* why = nullptr, const char* name = "reduce") {
        MTL::FunctionConstantValues* values = constantValues(v);
        NS::Error* error = nullptr;
        MTL::Function* function = library_->newFunction(NS::String::string(name, NS::UTF8StringEncoding), values, &error);
        values->release();
        if (!function && why) *why = text(error ? error->localizedDescription() : nullptr);
        return function;
    }

    MTL::ComputePipelineState* pipelineOf(MTL::Function* function, bool validated) {
        std::string why;
        MTL::ComputePipelineState* state = testing::pipelineOf(device_, function, shaderValidation(validated), &why);
        if (!state) ADD_FAILURE() << "pipeline failed: " << why;
        return state;
    }

    /// Runs `reduce` specialised with `v` in groups of `group` threads and checks every output
    /// and the canaries after them.
    void runAndCheck(const Values& v, unsigned group, bool validated, bool bindBias) {
        MTL::Function* function = specialised(v);
        ASSERT_NE(function, nullptr);
        MTL::ComputePipelineState* state = pipelineOf(function, validated);
        function->release();
        ASSERT_NE(state, nullptr);
        std::vector<float> in(kCount * v.nsg), bias(kCount);
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) * 0.25f;
        for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = float(i) * 0.5f;
        MTL::Buffer* inBuffer = device_->newBuffer(in.data(), in.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* biasBuffer = device_->newBuffer(bias.data(), bias.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* out = device_->newBuffer((kCount + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<float*>(out->contents()), kCount + kCanaries, kCanary);
        const unsigned count = kCount;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(inBuffer, 0, 0);
        if (bindBias) encoder->setBuffer(biasBuffer, 0, 1);
        encoder->setBuffer(out, 0, 2);
        encoder->setBytes(&count, sizeof count, 3);
        // A reference argument present only with the bias: absent, it is neither bound nor
        // loaded, and validation reports nothing.
        const float weight = 1.0f;
        if (bindBias) encoder->setBytes(&weight, sizeof weight, 4);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        metalcpu::testing::ValidationReportCollector reports;
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        EXPECT_THAT(reports.take(), ::testing::IsEmpty());
        const float* written = static_cast<const float*>(out->contents());
        for (unsigned i = 0; i < kCount; ++i) EXPECT_FLOAT_EQ(written[i], expected(v, in, bias, i)) << "thread " << i;
        for (unsigned i = kCount; i < kCount + kCanaries; ++i) EXPECT_EQ(written[i], kCanary) << "canary " << i;
        for (NS::Object* o : std::initializer_list<NS::Object*>{inBuffer, biasBuffer, out, state}) o->release();
    }

    static MTL::Library* library_;
};
MTL::Library* FunctionConstants::library_ = nullptr;

class FunctionConstantRuns : public FunctionConstants,
                             public ::testing::WithParamInterface<std::tuple<unsigned, bool>> {
protected:
    void weightedCopy(const char* kernel, bool workItems);
};

// Test that one library specialised with two value sets runs each correctly (loop bound,
// flag, derived constant, optional constant defined and not, a vector constant), at group
// sizes of 1, 7, 32 and 33 threads over a grid none divides, in both flavours.
TEST_P(FunctionConstantRuns, TwoValueSets) {
    const auto [group, validated] = GetParam();
    runAndCheck(kWithBias, group, validated, true);
    runAndCheck(kWithoutBias, group, validated, false);
}

// Runs `kernel` (a weighted copy of in to out, the weight at buffer 4 present only with the
// bias) specialised with and without the bias, binding the weight only where present, and
// checks the copy, the canaries, that validation reports nothing and, when `workItems`, that
// the kernel runs as work-item loops.
void FunctionConstantRuns::weightedCopy(const char* kernel, bool workItems) {
    const auto [group, validated] = GetParam();
    for (const Values& v : {kWithoutBias, kWithBias}) {
        SCOPED_TRACE(v.hasBias ? "with the argument" : "without it");
        MTL::Function* function = specialised(v, nullptr, kernel);
        ASSERT_NE(function, nullptr);
        MTL::ComputePipelineState* state = pipelineOf(function, validated);
        function->release();
        ASSERT_NE(state, nullptr);
        if (workItems) {
            EXPECT_EQ(ns::implOf<rt::ComputePipelineState>(state)->kernel().flags & MC_KERNEL_WORK_ITEM_LOOPS,
                      std::uint32_t(MC_KERNEL_WORK_ITEM_LOOPS));
        }
        std::vector<float> in(kCount);
        for (unsigned i = 0; i < kCount; ++i) in[i] = float(i) * 0.5f;
        MTL::Buffer* inBuffer = device_->newBuffer(in.data(), kCount * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* out = device_->newBuffer((kCount + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<float*>(out->contents()), kCount + kCanaries, kCanary);
        const float weights[4] = {2.0f, 0, 0, 0}; // a float, or the Weights struct
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(inBuffer, 0, 0);
        encoder->setBuffer(out, 0, 2);
        if (v.hasBias) encoder->setBytes(weights, sizeof weights, 4);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        metalcpu::testing::ValidationReportCollector reports;
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted)
            << (commandBuffer->error() ? commandBuffer->error()->localizedDescription()->utf8String() : "");
        EXPECT_THAT(reports.take(), ::testing::IsEmpty());
        const float* written = static_cast<const float*>(out->contents());
        for (unsigned i = 0; i < kCount; ++i) EXPECT_EQ(written[i], in[i] * (v.hasBias ? weights[0] : 1.0f)) << i;
        for (unsigned i = kCount; i < kCount + kCanaries; ++i) EXPECT_EQ(written[i], kCanary) << "canary " << i;
        for (NS::Object* o : std::initializer_list<NS::Object*>{inBuffer, out, state}) o->release();
    }
}

// Test that an argument a false function constant removes is neither needed nor loaded: unbound,
// the kernel runs and validation reports nothing (a validated kernel loaded every reference
// argument when its threads started, absent ones too); present and bound, it is used.
TEST_P(FunctionConstantRuns, AbsentReferenceArgument) { weightedCopy("weighted_copy", false); }

// Test that a pointer argument a false function constant removes reads as zeros where the
// kernel reads it and drops the value (MLX's steel GEMM), in work-item loops, plain and
// validated, with no report (it was a page fault, and a wild-pointer report); present and
// bound, it is used.
TEST_P(FunctionConstantRuns, DeadReadOfAnAbsentPointer) { weightedCopy("dead_read_of_absent", true); }

INSTANTIATE_TEST_SUITE_P(Groups, FunctionConstantRuns,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u, 33u), ::testing::Bool()),
                         [](const auto& info) {
                             return "group" + std::to_string(std::get<0>(info.param)) +
                                    (std::get<1>(info.param) ? "_validated" : "_plain");
                         });

// Test that specialising with the same values again uses the cached library (no new file
// in the cache), and that other values make a second one.
TEST_F(FunctionConstants, SpecialisationsAreCached) {
    TemporaryDirectory cache;
    ScopedEnvironmentVariable directory("METALCPU_CACHE_DIR", cache.path().string());
    MTL::Library* library = compile(kKernels);
    ASSERT_NE(library, nullptr);
    auto specialisedFiles = [&] {
        std::size_t n = 0;
        for (const auto& entry : std::filesystem::directory_iterator(cache.path() / "kernels"))
            if (entry.path().string().ends_with(".specialised.metallib")) ++n;
        return n;
    };
    auto make = [&](const Values& v) {
        MTL::FunctionConstantValues* values = constantValues(v);
        NS::Error* error = nullptr;
        MTL::Function* function = library->newFunction(NS::String::string("reduce", NS::UTF8StringEncoding), values, &error);
        values->release();
        EXPECT_NE(function, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (function) function->release();
    };
    make(kWithBias);
    EXPECT_EQ(specialisedFiles(), 1u);
    make(kWithBias);
    EXPECT_EQ(specialisedFiles(), 1u);
    make(kWithoutBias);
    EXPECT_EQ(specialisedFiles(), 2u);
    library->release();
}

// Test that an argument whose function constant is false need not be bound (the debug layer
// is silent), and one whose constant is true must be.
TEST_F(FunctionConstants, OptionalArgument) {
    std::vector<std::string> reports;
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::NSLog, [&](const std::string& line) { reports.push_back(line); });
    runAndCheck(kWithoutBias, 7, false, false);
    EXPECT_TRUE(reports.empty()) << reports.front();
    MTL::Function* function = specialised(kWithBias);
    ASSERT_NE(function, nullptr);
    MTL::ComputePipelineState* state = pipelineOf(function, false);
    function->release();
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffer = device_->newBuffer(64 * sizeof(float), MTL::ResourceStorageModeShared);
    const unsigned count = 1;
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(buffer, 0, 0);
    encoder->setBuffer(buffer, 0, 2);
    encoder->setBytes(&count, sizeof count, 3);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    rt::DebugLayer::setForTesting(rt::DebugLayer::Mode::Off);
    state->release();
    buffer->release();
    EXPECT_EQ(reports, std::vector<std::string>{"validateComputeFunctionArguments:1023: failed assertion `Compute "
                                                "Function(reduce): missing buffer binding at index 1 for bias[0].'"});
}

// Test Metal's errors: a required constant without a value, a value of another type, an
// unknown function.
TEST_F(FunctionConstants, Errors) {
    MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
    const bool yes = true;
    const float half = 0.5f;
    values->setConstantValue(&yes, MTL::DataTypeBool, NS::UInteger(100));
    values->setConstantValue(&half, MTL::DataTypeFloat, NS::UInteger(2));
    const int x[2] = {0, 0};
    values->setConstantValue(x, MTL::DataTypeInt2, NS::UInteger(4));
    NS::Error* error = nullptr;
    MTL::Function* function = library_->newFunction(NS::String::string("reduce", NS::UTF8StringEncoding), values, &error);
    EXPECT_EQ(function, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(text(error->domain()), "MTLLibraryErrorDomain");
    EXPECT_EQ(error->code(), MTL::LibraryErrorCompileFailure);
    EXPECT_NE(text(error->localizedDescription()).find("'nsg' (index 101, type int) has no value"), std::string::npos)
        << text(error->localizedDescription());

    const float wrong = 3;
    values->setConstantValue(&wrong, MTL::DataTypeFloat, NS::UInteger(101));
    error = nullptr;
    function = library_->newFunction(NS::String::string("reduce", NS::UTF8StringEncoding), values, &error);
    EXPECT_EQ(function, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(text(error->localizedDescription()).find("'nsg' (index 101, type int) is given a value of type float"),
              std::string::npos)
        << text(error->localizedDescription());

    error = nullptr;
    function = library_->newFunction(NS::String::string("nonexistent", NS::UTF8StringEncoding), values, &error);
    EXPECT_EQ(function, nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), MTL::LibraryErrorFunctionNotFound);
    values->release();
}

// Test that newFunction(name) gives the function unspecialised, with its constants in
// functionConstantsDictionary(), of which no pipeline can be made while it requires
// constants; a kernel without constants works either way.
TEST_F(FunctionConstants, Unspecialised) {
    MTL::Function* function = library_->newFunction(NS::String::string("reduce", NS::UTF8StringEncoding));
    ASSERT_NE(function, nullptr);
    NS::Dictionary* constants = function->functionConstantsDictionary();
    ASSERT_NE(constants, nullptr);
    EXPECT_EQ(constants->count(), 5u); // those `reduce` reaches
    auto* nsg = constants->object<MTL::FunctionConstant>(NS::String::string("nsg", NS::UTF8StringEncoding));
    ASSERT_NE(nsg, nullptr);
    EXPECT_EQ(text(nsg->name()), "nsg");
    EXPECT_EQ(nsg->index(), 101u);
    EXPECT_EQ(nsg->type(), MTL::DataTypeInt);
    EXPECT_TRUE(nsg->required());
    auto* offset = constants->object<MTL::FunctionConstant>(NS::String::string("offset", NS::UTF8StringEncoding));
    ASSERT_NE(offset, nullptr);
    EXPECT_EQ(offset->type(), MTL::DataTypeInt2);
    auto* shift = constants->object<MTL::FunctionConstant>(NS::String::string("shift", NS::UTF8StringEncoding));
    ASSERT_NE(shift, nullptr);
    EXPECT_FALSE(shift->required());
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* state = device_->newComputePipelineState(function, &error);
    function->release();
    EXPECT_EQ(state, nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("not specialized: 'has_bias', 'nsg', 'scale', 'offset'"), std::string::npos) << message;

    MTL::Function* plainFunction = specialised(kWithBias, nullptr, "plain");
    ASSERT_NE(plainFunction, nullptr);
    plainFunction->release();
    std::vector<int> written = runIntKernel(library_, "plain", 9);
    EXPECT_EQ(written, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

// Test constants of the other scalar sizes and vectors: half, bool3, long, uchar, ushort4, bfloat.
TEST_F(FunctionConstants, ScalarAndVectorTypes) {
    MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
    const std::uint16_t halfOfOneAndAHalf = 0x3e00;
    const bool flags[3] = {true, false, true};
    const long big = -3000000000000l;
    const unsigned char small = 250;
    const std::uint16_t quad[4] = {1, 2, 3, 60000};
    const std::uint16_t bfloatOfMinusTwoAndAQuarter = 0xc010;
    values->setConstantValue(&halfOfOneAndAHalf, MTL::DataTypeHalf, NS::UInteger(10));
    values->setConstantValue(flags, MTL::DataTypeBool3, NS::UInteger(11));
    values->setConstantValue(&big, MTL::DataTypeLong, NS::UInteger(12));
    values->setConstantValue(&small, MTL::DataTypeUChar, NS::UInteger(13));
    values->setConstantValue(quad, MTL::DataTypeUShort4, NS::UInteger(14));
    values->setConstantValue(&bfloatOfMinusTwoAndAQuarter, MTL::DataTypeBFloat, NS::UInteger(15));
    NS::Error* error = nullptr;
    MTL::Function* function = library_->newFunction(NS::String::string("types", NS::UTF8StringEncoding), values, &error);
    values->release();
    ASSERT_NE(function, nullptr) << text(error ? error->localizedDescription() : nullptr);
    MTL::ComputePipelineState* state = pipelineOf(function, false);
    function->release();
    ASSERT_NE(state, nullptr);
    MTL::Buffer* out = device_->newBuffer(8 * sizeof(float), MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
    const float* written = static_cast<const float*>(out->contents());
    EXPECT_EQ(std::vector<float>(written, written + 6), (std::vector<float>{1.5f, 5.0f, -3.0f, 250.0f, 60006.0f, -2.25f}));
    out->release();
    state->release();
}

// Test that the FunctionDescriptor form specialises as newFunction(name, values) does.
TEST_F(FunctionConstants, Descriptor) {
    MTL::FunctionDescriptor* descriptor = MTL::FunctionDescriptor::alloc()->init();
    MTL::FunctionConstantValues* values = constantValues(kWithBias);
    descriptor->setName(NS::String::string("reduce", NS::UTF8StringEncoding));
    descriptor->setConstantValues(values);
    values->release();
    NS::Error* error = nullptr;
    MTL::Function* function = library_->newFunction(descriptor, &error);
    descriptor->release();
    ASSERT_NE(function, nullptr) << text(error ? error->localizedDescription() : nullptr);
    MTL::ComputePipelineState* state = pipelineOf(function, false);
    EXPECT_NE(state, nullptr);
    if (state) state->release();
    function->release();
}

// Test that a .metallib built by metal_add_library() carries what specialisation needs.
TEST_F(FunctionConstants, FromMetallib) {
    NS::Error* error = nullptr;
    MTL::Library* library = device_->newLibrary(NS::String::string(FUNCTION_CONSTANT_METALLIB, NS::UTF8StringEncoding), &error);
    ASSERT_NE(library, nullptr);
    for (int factor : {2, 5}) {
        MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
        values->setConstantValue(&factor, MTL::DataTypeInt, NS::UInteger(0));
        MTL::Function* function =
            library->newFunction(NS::String::string("file_scaled", NS::UTF8StringEncoding), values, &error);
        values->release();
        ASSERT_NE(function, nullptr) << text(error ? error->localizedDescription() : nullptr);
        MTL::ComputePipelineState* state = device_->newComputePipelineState(function, &error);
        function->release();
        ASSERT_NE(state, nullptr);
        MTL::Buffer* out = device_->newBuffer(10 * sizeof(int), MTL::ResourceStorageModeShared);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(out, 0, 0);
        encoder->dispatchThreads(MTL::Size(9, 1, 1), MTL::Size(4, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        const int* written = static_cast<const int*>(out->contents());
        for (int i = 0; i < 9; ++i) EXPECT_EQ(written[i], i * factor);
        EXPECT_EQ(written[9], 0);
        out->release();
        state->release();
    }
    library->release();
}

// llama.cpp's shape: `short` constants at a macro base plus offsets, read into a local in a
// template helper of a kernel template instantiated with [[host_name]], used as a loop bound;
// a flag that drops a threadgroup argument.
const char kGgmlKernels[] = R"(
#include <metal_stdlib>
using namespace metal;

#define FC_MUL_MV 600
#define N_R0 2

constant short FC_mul_mv_nsg       [[function_constant(FC_MUL_MV + 0)]];
constant bool  FC_mul_mv_has_scale [[function_constant(FC_MUL_MV + 1)]];
constant bool  FC_mul_mv_use_shmem [[function_constant(FC_MUL_MV + 2)]];

typedef struct { int ne00; int ne01; float scale; } mul_mv_args;

template <int nr0>
void mul_mv_impl(constant mul_mv_args& args, device const float* src0, device const float* src1,
                 device float* dst, threadgroup float* shmem, uint row0, ushort tiitg) {
    const short NSG = FC_mul_mv_nsg;
    for (int r = 0; r < nr0; ++r) {
        const int row = row0 * nr0 + r;
        if (row >= args.ne01) return;
        float sum = 0;
        for (short sg = 0; sg < NSG; ++sg)
            for (int k = sg; k < args.ne00; k += NSG) sum += src0[row * args.ne00 + k] * src1[k];
        if (FC_mul_mv_has_scale) sum *= args.scale;
        if (FC_mul_mv_use_shmem) {
            shmem[tiitg] = sum;
            sum = shmem[tiitg] + 1.0f;
        }
        dst[row] = sum;
    }
}

template <int nr0>
kernel void kernel_mul_mv(constant mul_mv_args& args [[buffer(0)]],
                          device const float* src0 [[buffer(1)]],
                          device const float* src1 [[buffer(2)]],
                          device float* dst [[buffer(3)]],
                          threadgroup float* shmem [[threadgroup(0), function_constant(FC_mul_mv_use_shmem)]],
                          uint tgpig [[thread_position_in_grid]],
                          ushort tiitg [[thread_index_in_threadgroup]]) {
    mul_mv_impl<nr0>(args, src0, src1, dst, shmem, tgpig, tiitg);
}

typedef decltype(kernel_mul_mv<N_R0>) mul_mv_t;
template [[host_name("kernel_mul_mv_f32_r2")]] kernel mul_mv_t kernel_mul_mv<N_R0>;
)";

/// Kernel `name` of `library` specialised with `values` (which it releases), as a pipeline in
/// the validated or the plain flavour (+1); nullptr with the error's text in `why`.
MTL::ComputePipelineState* specialisedPipeline(MTL::Device* device, MTL::Library* library, const char* name,
                                               MTL::FunctionConstantValues* values, bool validated, std::string& why) {
    NS::Error* error = nullptr;
    MTL::Function* function = library->newFunction(NS::String::string(name, NS::UTF8StringEncoding), values, &error);
    values->release();
    if (!function) {
        why = text(error ? error->localizedDescription() : nullptr);
        return nullptr;
    }
    MTL::ComputePipelineState* state = pipelineOf(device, function, shaderValidation(validated), &why);
    function->release();
    return state;
}

struct GgmlValues {
    short nsg;
    bool hasScale;
    bool useShmem;
};

class GgmlStyle : public MetalTest, public ::testing::WithParamInterface<std::tuple<unsigned, bool>> {};

// Test a llama.cpp-style matrix-vector kernel specialised two ways (2 and 3 slices, scale and
// threadgroup scratch on and off), at several group sizes, in both flavours: the results match
// a CPU model, nothing past the output changes, and without the flag no threadgroup memory
// need be set.
TEST_P(GgmlStyle, MatrixVector) {
    const auto [group, validated] = GetParam();
    MTL::Library* library = compile(kGgmlKernels);
    ASSERT_NE(library, nullptr);
    constexpr int kRows = 37, kColumns = 19, kRowsPerThread = 2;
    struct Args {
        int ne00, ne01;
        float scale;
    } args{kColumns, kRows, 0.25f};
    std::vector<float> matrix(kRows * kColumns), vector(kColumns);
    for (std::size_t i = 0; i < matrix.size(); ++i) matrix[i] = float(int(i % 11) - 5);
    for (std::size_t i = 0; i < vector.size(); ++i) vector[i] = float(i % 7) * 0.5f;
    for (const GgmlValues& v : {GgmlValues{2, true, true}, GgmlValues{3, false, false}}) {
        MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
        values->setConstantValue(&v.nsg, MTL::DataTypeShort, NS::UInteger(600));
        values->setConstantValue(&v.hasScale, MTL::DataTypeBool, NS::UInteger(601));
        values->setConstantValue(&v.useShmem, MTL::DataTypeBool, NS::UInteger(602));
        std::string why;
        MTL::ComputePipelineState* state =
            specialisedPipeline(device_, library, "kernel_mul_mv_f32_r2", values, validated, why);
        ASSERT_NE(state, nullptr) << why;
        MTL::Buffer* src0 = device_->newBuffer(matrix.data(), matrix.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* src1 = device_->newBuffer(vector.data(), vector.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* dst = device_->newBuffer((kRows + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<float*>(dst->contents()), kRows + kCanaries, kCanary);
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBytes(&args, sizeof args, 0);
        encoder->setBuffer(src0, 0, 1);
        encoder->setBuffer(src1, 0, 2);
        encoder->setBuffer(dst, 0, 3);
        if (v.useShmem) encoder->setThreadgroupMemoryLength((group * sizeof(float) + 15) / 16 * 16, 0);
        encoder->dispatchThreads(MTL::Size((kRows + kRowsPerThread - 1) / kRowsPerThread, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        const float* written = static_cast<const float*>(dst->contents());
        for (int row = 0; row < kRows; ++row) {
            float sum = 0;
            for (int sg = 0; sg < v.nsg; ++sg)
                for (int k = sg; k < kColumns; k += v.nsg) sum += matrix[row * kColumns + k] * vector[k];
            if (v.hasScale) sum *= args.scale;
            if (v.useShmem) sum += 1.0f;
            EXPECT_FLOAT_EQ(written[row], sum) << "row " << row << ", nsg " << v.nsg;
        }
        for (int i = kRows; i < kRows + int(kCanaries); ++i) EXPECT_EQ(written[i], kCanary) << "canary " << i;
        for (NS::Object* o : std::initializer_list<NS::Object*>{src0, src1, dst, state}) o->release();
    }
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Groups, GgmlStyle, ::testing::Combine(::testing::Values(1u, 7u, 32u), ::testing::Bool()),
                         [](const auto& info) {
                             return "group" + std::to_string(std::get<0>(info.param)) +
                                    (std::get<1>(info.param) ? "_validated" : "_plain");
                         });

// llama.cpp's kernel templates take their dequantize function as a template argument
// (kernel_get_rows_q<block_q4_0, 2, dequantize_q4_0>) and may pass it on to a helper template:
// each instantiation reaches the constants of its own function only, and Metal (like
// llama.cpp) passes no others.
const char kFunctionArgumentKernels[] = R"(
#include <metal_stdlib>
using namespace metal;

constant float FC_scale_a [[function_constant(700)]];
constant int FC_offset_b [[function_constant(701)]];
constant short FC_unrelated [[function_constant(702)]];

kernel void unrelated(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = float(FC_unrelated);
}

void scale_a(device const float* x, uint i, thread float& r) { r = x[i] * FC_scale_a; }
void offset_b(device const float* x, uint i, thread float& r) { r = x[i] + float(FC_offset_b); }

// The parameter passed on to a helper template, as ggml's kernel_flash_attn_ext_impl gets it.
template <void (*F)(device const float*, uint, thread float&)>
void apply_impl(device const float* x, uint i, thread float& r) { F(x, i, r); }

template <void (*F)(device const float*, uint, thread float&)>
kernel void apply(device const float* x [[buffer(0)]], device float* y [[buffer(1)]],
                  constant uint& n [[buffer(2)]], uint i [[thread_position_in_grid]]) {
    if (i >= n) return;
    float r;
    apply_impl<F>(x, i, r);
    y[i] = r;
}

typedef decltype(apply<scale_a>) apply_t;
template [[host_name("apply_scale")]] kernel apply_t apply<scale_a>;
template [[host_name("apply_offset")]] kernel void apply<offset_b>(device const float*, device float*, constant uint&, uint);
)";

class FunctionArgumentConstants : public MetalTest,
                                  public ::testing::WithParamInterface<std::tuple<unsigned, bool>> {};

// Test that each instantiation of a kernel template with a function-pointer template parameter
// lists only the constant its function uses, is specialised with that constant alone (the
// others of the file have no value: no error, as on Metal), and computes with it, at several
// group sizes in both flavours; without its own constant the error names that one only.
TEST_P(FunctionArgumentConstants, OnlyTheNamedFunctionsConstants) {
    const auto [group, validated] = GetParam();
    MTL::Library* library = compile(kFunctionArgumentKernels);
    ASSERT_NE(library, nullptr);
    struct Case {
        const char* kernel;
        const char* constant;
        NS::UInteger index;
        MTL::DataType type;
    };
    const float scale = 2.5f;
    const int offset = -7;
    std::vector<float> x(kCount);
    for (unsigned i = 0; i < kCount; ++i) x[i] = float(i % 9) - 3.0f;
    for (const Case& c : {Case{"apply_scale", "FC_scale_a", 700, MTL::DataTypeFloat},
                          Case{"apply_offset", "FC_offset_b", 701, MTL::DataTypeInt}}) {
        const NS::String* name = NS::String::string(c.kernel, NS::UTF8StringEncoding);
        MTL::Function* unspecialised = library->newFunction(name);
        ASSERT_NE(unspecialised, nullptr) << c.kernel;
        NS::Dictionary* constants = unspecialised->functionConstantsDictionary();
        ASSERT_NE(constants, nullptr);
        EXPECT_EQ(constants->count(), 1u) << c.kernel;
        EXPECT_NE(constants->object(NS::String::string(c.constant, NS::UTF8StringEncoding)), nullptr) << c.kernel;
        unspecialised->release();

        MTL::FunctionConstantValues* none = MTL::FunctionConstantValues::alloc()->init();
        NS::Error* error = nullptr;
        EXPECT_EQ(library->newFunction(name, none, &error), nullptr);
        none->release();
        ASSERT_NE(error, nullptr);
        const std::string message = text(error->localizedDescription());
        EXPECT_NE(message.find(std::string("'") + c.constant + "'"), std::string::npos) << message;
        EXPECT_EQ(message.find("FC_unrelated"), std::string::npos) << message;

        MTL::FunctionConstantValues* values = MTL::FunctionConstantValues::alloc()->init();
        if (c.index == 700) values->setConstantValue(&scale, c.type, c.index);
        else values->setConstantValue(&offset, c.type, c.index);
        std::string why;
        MTL::ComputePipelineState* state = specialisedPipeline(device_, library, c.kernel, values, validated, why);
        ASSERT_NE(state, nullptr) << why;
        MTL::Buffer* in = device_->newBuffer(x.data(), x.size() * sizeof(float), MTL::ResourceStorageModeShared);
        MTL::Buffer* out = device_->newBuffer((kCount + kCanaries) * sizeof(float), MTL::ResourceStorageModeShared);
        std::fill_n(static_cast<float*>(out->contents()), kCount + kCanaries, kCanary);
        const unsigned count = kCount;
        MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(in, 0, 0);
        encoder->setBuffer(out, 0, 1);
        encoder->setBytes(&count, sizeof count, 2);
        encoder->dispatchThreads(MTL::Size(kCount, 1, 1), MTL::Size(group, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commandBuffer), MTL::CommandBufferStatusCompleted);
        const float* written = static_cast<const float*>(out->contents());
        for (unsigned i = 0; i < kCount; ++i)
            EXPECT_FLOAT_EQ(written[i], c.index == 700 ? x[i] * scale : x[i] + float(offset)) << c.kernel << " " << i;
        for (unsigned i = kCount; i < kCount + kCanaries; ++i) EXPECT_EQ(written[i], kCanary) << "canary " << i;
        for (NS::Object* o : std::initializer_list<NS::Object*>{in, out, state}) o->release();
    }
    library->release();
}

INSTANTIATE_TEST_SUITE_P(Groups, FunctionArgumentConstants,
                         ::testing::Combine(::testing::Values(1u, 7u, 32u), ::testing::Bool()), [](const auto& info) {
                             return "group" + std::to_string(std::get<0>(info.param)) +
                                    (std::get<1>(info.param) ? "_validated" : "_plain");
                         });

} // namespace
} // namespace metalcpu::testing
