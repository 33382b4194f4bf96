// Shader validation of tensor operations in compiled kernels: a validated kernel's
// `matmul2d::run` checks each tensor operand's footprint against the memory its pointer came
// from, once per scope, and reports an operand that leaves it at the line of `run` (a load for
// an input, a store for the destination); the product is then skipped, so nothing is written
// outside the destination. Cooperative tensors' stores are reported as stores at the line of
// `store`. Correct code stays silent. Inline tensors over device buffers and threadgroup arrays
// overrun when their extents claim more than the memory holds; host-bound tensors
// (tensor_handle) cannot, since Buffer::newTensor refuses a tensor its buffer does not hold and
// slices are clipped, so they are shown to stay silent and right.
#include "guarded_buffer.h"
#include "mtl4_test.h"

#include <metalcpu/ValidationTesting.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using validation::AddressSpace;

const char* const kKernels = R"(
#include <metal_stdlib>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>
using namespace metal;
using namespace mpp::tensor_ops;

struct Gemm { int m, n, k; };
constexpr auto kTile = matmul2d_descriptor(16, 16, dynamic_length_v<int>);

// D = A x B for one 16 x 16 tile by one SIMD-group. The tensors' extents come from g and their
// buffers are what the host bound: a g larger than a buffer overruns it.
kernel void inline_product(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                           constant Gemm& g [[buffer(3)]]) {
    auto A = tensor(a, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    matmul2d<kTile, execution_simdgroups<1>> op;
    op.run(A, B, D); // inline_product run
}

// The same through a helper, with A staged in a threadgroup array of `rows` rows that the
// tensor claims g.m rows of; the barrier and `run` in the body make it a coroutine kernel.
kernel void staged_product(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                           constant Gemm& g [[buffer(3)]], ushort tid [[thread_index_in_threadgroup]]) {
    threadgroup half staged[16 * 8];
    for (int i = tid; i < 16 * 8; i += 32) staged[i] = a[i];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    auto A = tensor(staged, dextents<int32_t, 2>(g.k, g.m));
    auto B = tensor(b, dextents<int32_t, 2>(g.n, g.k));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    matmul2d<kTile, execution_simdgroups<1>> op;
    op.run(A, B, D); // staged_product run
}

// The product in a function template: reports name the instantiation with its template
// arguments, as Apple's frames do.
template <int Rows>
void multiply_rows(device half* a, device half* b, device half* d, int columns) {
    auto A = tensor(a, dextents<int32_t, 2>(16, Rows));
    auto B = tensor(b, dextents<int32_t, 2>(columns, 16));
    auto D = tensor(d, dextents<int32_t, 2>(columns, Rows));
    matmul2d<kTile, execution_simdgroups<1>> op;
    op.run(A, B, D); // multiply_rows run
}
kernel void helper_product(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                           constant Gemm& g [[buffer(3)]]) {
    multiply_rows<16>(a, b, d, g.n);
}

// Host-bound tensors.
kernel void handle_product(tensor<device half, dextents<int32_t, 2>> A [[buffer(0)]],
                           tensor<device half, dextents<int32_t, 2>> B [[buffer(1)]],
                           tensor<device half, dextents<int32_t, 2>> D [[buffer(2)]]) {
    matmul2d<kTile, execution_simdgroups<1>> op;
    op.run(A, B, D);
}

// D = A x B through a cooperative destination stored into D (g.n x g.m claimed).
kernel void cooperative_store(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                              constant Gemm& g [[buffer(3)]]) {
    auto A = tensor(a, dextents<int32_t, 2>(16, 16));
    auto B = tensor(b, dextents<int32_t, 2>(16, 16));
    auto D = tensor(d, dextents<int32_t, 2>(g.n, g.m));
    matmul2d<kTile, execution_simdgroups<1>> op;
    auto cD = op.get_destination_cooperative_tensor<decltype(A), decltype(B), half>();
    op.run(A, B, cD);
    cD.store(D); // cooperative_store store
}

// A cooperative tensor loaded from A (g.n x g.m claimed) and stored into D (16 x 16).
kernel void cooperative_load(device half* a [[buffer(0)]], device half* b [[buffer(1)]], device half* d [[buffer(2)]],
                             constant Gemm& g [[buffer(3)]]) {
    auto D = tensor(d, dextents<int32_t, 2>(16, 16));
    matmul2d<kTile, execution_simdgroups<1>> op;
    auto cA = op.get_destination_cooperative_tensor<decltype(D), decltype(D), half>();
    cA.load(tensor(a, dextents<int32_t, 2>(g.n, g.m))); // cooperative_load load
    cA.store(D);
}
)";

/// The line of `marker` in kKernels (1-based, as the reports count).
std::uint32_t lineOf(const char* marker) {
    const std::string source = kKernels;
    const std::size_t at = source.find(marker);
    EXPECT_NE(at, std::string::npos) << marker;
    std::uint32_t line = 1;
    for (std::size_t i = 0; i < at && i < source.size(); ++i) line += source[i] == '\n';
    return line;
}

constexpr int kTileSize = 16;
constexpr std::size_t kTileBytes = kTileSize * kTileSize * sizeof(_Float16);
struct Gemm {
    std::int32_t m, n, k;
};
const Gemm kFullTile{kTileSize, kTileSize, kTileSize};

/// Small integers: every product and sum is exact in half.
std::vector<_Float16> integers(unsigned seed) {
    std::vector<_Float16> values(kTileSize * kTileSize);
    for (unsigned i = 0; i < values.size(); ++i) values[i] = _Float16(float(int((i * 5 + seed) % 7) - 3));
    return values;
}

/// D = A x B for 16 x 16 row-major halves.
std::vector<float> product(const std::vector<_Float16>& a, const std::vector<_Float16>& b) {
    std::vector<float> d(kTileSize * kTileSize);
    for (int i = 0; i < kTileSize; ++i)
        for (int j = 0; j < kTileSize; ++j) {
            float sum = 0;
            for (int k = 0; k < kTileSize; ++k) sum += float(a[i * kTileSize + k]) * float(b[k * kTileSize + j]);
            d[i * kTileSize + j] = sum;
        }
    return d;
}

/// Host memory for a buffer made over it (newBuffer with a deallocator): `bytes` of element
/// memory, then canary words that belong to no buffer, where an unchecked overrun would land.
class ShortBuffer {
public:
    static constexpr unsigned kTailWords = 64;

    ShortBuffer(MTL::Device* device, std::size_t bytes, std::uint16_t fill) : bytes_(bytes) {
        memory_.assign((bytes + 3) / 4 + kTailWords, 0);
        std::uint16_t* halves = reinterpret_cast<std::uint16_t*>(memory_.data());
        std::fill(halves, halves + bytes / 2, fill);
        std::fill(memory_.begin() + std::ptrdiff_t((bytes + 3) / 4), memory_.end(), kCanary);
        buffer_ = device->newBuffer(memory_.data(), bytes, MTL::ResourceStorageModeShared,
                                    [](void*, NS::UInteger) {});
    }
    ~ShortBuffer() { buffer_->release(); }
    ShortBuffer(const ShortBuffer&) = delete;
    ShortBuffer& operator=(const ShortBuffer&) = delete;

    MTL::Buffer* buffer() const { return buffer_; }
    /// How many of the buffer's halves differ from `fill`.
    int changed(std::uint16_t fill) const {
        const std::uint16_t* halves = reinterpret_cast<const std::uint16_t*>(memory_.data());
        int n = 0;
        for (std::size_t i = 0; i < bytes_ / 2; ++i) n += halves[i] != fill;
        return n;
    }
    void expectTailIntact() const {
        for (std::size_t i = (bytes_ + 3) / 4; i < memory_.size(); ++i)
            ASSERT_EQ(memory_[i], kCanary) << "word " << i << " past the buffer";
    }

private:
    std::size_t bytes_;
    std::vector<std::uint32_t> memory_;
    MTL::Buffer* buffer_ = nullptr;
};

class TensorValidation : public MetalTest {
protected:
    static void SetUpTestSuite() {
        NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
        options->setLanguageVersion(MTL::LanguageVersion4_0);
        NS::Error* error = nullptr;
        library_ = device->newLibrary(NS::String::string(kKernels, NS::UTF8StringEncoding), options, &error);
        if (!library_) ADD_FAILURE() << "compile failed: " << text(error ? error->localizedDescription() : nullptr);
        options->release();
        device->release();
        pool->release();
    }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    MTL::Buffer* halves(const std::vector<_Float16>& values, std::size_t bytes) {
        MTL::Buffer* made = device_->newBuffer(bytes, MTL::ResourceStorageModeShared);
        std::memcpy(made->contents(), values.data(), std::min(bytes, values.size() * sizeof(_Float16)));
        owned_.push_back(made);
        return made;
    }
    void TearDown() override {
        for (MTL::Buffer* buffer : owned_) buffer->release();
        MetalTest::TearDown();
    }

    /// Runs `kernel` (validated) over one threadgroup of `threads` (one SIMD-group by default)
    /// with a, b, d (at `dOffset`) and g bound.
    void dispatch(const char* kernel, MTL::Buffer* a, MTL::Buffer* b, MTL::Buffer* d, NS::UInteger dOffset,
                  Gemm g, NS::UInteger threads = 32) {
        MTL::ComputePipelineState* state = pipeline(library_, kernel, true);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(a, 0, 0);
        encoder->setBuffer(b, 0, 1);
        encoder->setBuffer(d, dOffset, 2);
        encoder->setBytes(&g, sizeof g, 3);
        encoder->dispatchThreadgroups(MTL::Size(1, 1, 1), MTL::Size(threads, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        state->release();
    }

    std::vector<MTL::Buffer*> owned_;
    inline static MTL::Library* library_ = nullptr;
};

constexpr std::uint16_t kUntouched = 0x7E00; // a half NaN no product makes

// Test that a destination tensor claiming more rows than its buffer holds is reported once, as
// a store of the whole footprint through d at the line of `run`, and that the product is
// skipped: the buffer keeps its contents and the memory after it its canaries.
TEST_F(TensorValidation, DestinationOverrunIsOneStoreAtRun) {
    const std::vector<_Float16> a = integers(1), b = integers(2);
    ShortBuffer d(device_, kTileBytes - kTileSize * sizeof(_Float16), kUntouched); // 15 rows
    ValidationReportCollector reports;
    dispatch("inline_product", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), 0, kFullTile);
    const auto seen = reports.take();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_THAT(seen[0], AllOf(InvalidStore("inline_product", 2), AtLine(lineOf("op.run(A, B, D); // inline_product")),
                               AtOffset(0), InAddressSpace(AddressSpace::Device), WithCount(1u)));
    EXPECT_EQ(seen[0].size, kTileBytes);
    EXPECT_EQ(seen[0].argumentName, "d");
    EXPECT_THAT(seen[0].text(), StartsWith("Invalid device store at offset 0, executing kernel function: "
                                           "\"inline_product\"\n"));
    EXPECT_THAT(seen[0].text(), HasSubstr("\t* frame #0: inline_product() - /program_source:" +
                                          std::to_string(lineOf("op.run(A, B, D); // inline_product")) + ":0\n"));
    EXPECT_EQ(d.changed(kUntouched), 0);
    d.expectTailIntact();
}

// Test that an input overrunning its buffer is one load through that argument at `run`, and
// that the destination is left as it was.
TEST_F(TensorValidation, InputOverrunIsOneLoadAtRun) {
    const std::vector<_Float16> a = integers(3), b = integers(4);
    GuardedBuffer d(device_, kTileBytes);
    ValidationReportCollector reports;
    dispatch("inline_product", halves(a, kTileBytes), halves(b, kTileBytes - 2), d.buffer(), GuardedBuffer::offset(),
             kFullTile);
    EXPECT_THAT(reports.take(), ElementsAre(AllOf(InvalidLoad("inline_product", 1),
                                                  AtLine(lineOf("op.run(A, B, D); // inline_product")),
                                                  AtOffset(0), WithCount(1u))));
    for (int i = 0; i < kTileSize * kTileSize; ++i)
        ASSERT_EQ(d.data<std::uint32_t>()[i / 2], kCanary) << "element " << i << " was written";
    d.expectCanariesIntact();
}

// Test that in a group of 48 threads (a whole SIMD-group and a partial one) each scope runs the
// product and checks it: still one report for the site, counting both.
TEST_F(TensorValidation, EveryScopeCountsInTheOneReport) {
    const std::vector<_Float16> a = integers(15), b = integers(16);
    ShortBuffer d(device_, kTileBytes - kTileSize * sizeof(_Float16), kUntouched);
    ValidationReportCollector reports;
    dispatch("inline_product", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), 0, kFullTile, 48);
    EXPECT_THAT(reports.take(), ElementsAre(AllOf(InvalidStore("inline_product", 2), WithCount(2u))));
    EXPECT_EQ(d.changed(kUntouched), 0);
    d.expectTailIntact();
}

// Test that an overrun in a function template is reported in that function, named as written
// (the stdlib takes the name from __builtin_FUNCTION, which adds template arguments).
TEST_F(TensorValidation, OverrunInAFunctionTemplateNamesIt) {
    const std::vector<_Float16> a = integers(13), b = integers(14);
    GuardedBuffer d(device_, kTileBytes);
    ValidationReportCollector reports;
    dispatch("helper_product", halves(a, kTileBytes), halves(b, kTileBytes - 2), d.buffer(), GuardedBuffer::offset(),
             kFullTile);
    const auto seen = reports.take();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_THAT(seen[0], AllOf(InvalidLoad("helper_product", 1), AtLine(lineOf("op.run(A, B, D); // multiply_rows"))));
    EXPECT_EQ(seen[0].location.function, "multiply_rows<16>");
    EXPECT_THAT(seen[0].text(), HasSubstr("\t* frame #0: multiply_rows<16>() - /program_source:"));
    d.expectCanariesIntact();
}

// Test that a tensor over a threadgroup array claiming more than the array is one threadgroup
// load at `run` in a coroutine kernel (the co_await'ed form keeps the site), without a buffer.
TEST_F(TensorValidation, ThreadgroupOverrunIsOneLoadAtRun) {
    const std::vector<_Float16> a = integers(5), b = integers(6);
    GuardedBuffer d(device_, kTileBytes);
    ValidationReportCollector reports;
    dispatch("staged_product", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), GuardedBuffer::offset(),
             kFullTile);
    const auto seen = reports.take();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_THAT(seen[0], AllOf(InKernel("staged_product"), AtLine(lineOf("op.run(A, B, D); // staged_product")),
                               InAddressSpace(AddressSpace::Threadgroup), WithCount(1u)));
    EXPECT_EQ(seen[0].access, validation::Access::Load);
    EXPECT_FALSE(seen[0].hasBuffer);
    d.expectCanariesIntact();
}

// Test that the same kernels stay silent and right when every tensor fits: 8 staged rows with
// g.m 8, a full tile otherwise.
TEST_F(TensorValidation, FittingOperandsAreSilent) {
    const std::vector<_Float16> a = integers(7), b = integers(8);
    const std::vector<float> expected = product(a, b);
    ValidationReportCollector reports;
    {
        GuardedBuffer d(device_, kTileBytes);
        dispatch("inline_product", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), GuardedBuffer::offset(),
                 kFullTile);
        for (int i = 0; i < kTileSize * kTileSize; ++i) ASSERT_EQ(float(d.data<_Float16>()[i]), expected[i]) << i;
        d.expectCanariesIntact();
    }
    {
        GuardedBuffer d(device_, kTileBytes / 2);
        dispatch("staged_product", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), GuardedBuffer::offset(),
                 Gemm{8, kTileSize, kTileSize});
        for (int i = 0; i < kTileSize * 8; ++i) ASSERT_EQ(float(d.data<_Float16>()[i]), expected[i]) << i;
        d.expectCanariesIntact();
    }
    EXPECT_THAT(reports.take(), IsEmpty());
}

// Test that a cooperative tensor stored past its destination's buffer is reported as a store
// at the line of `store`, with the buffer's own elements written and nothing past it.
TEST_F(TensorValidation, CooperativeStoreOverrunIsAStoreAtStore) {
    const std::vector<_Float16> a = integers(9), b = integers(10);
    const std::vector<float> expected = product(a, b);
    ShortBuffer d(device_, kTileBytes - kTileSize * sizeof(_Float16), kUntouched); // 15 rows
    ValidationReportCollector reports;
    dispatch("cooperative_store", halves(a, kTileBytes), halves(b, kTileBytes), d.buffer(), 0, kFullTile);
    const auto seen = reports.take();
    ASSERT_FALSE(seen.empty());
    unsigned stores = 0;
    for (const auto& report : seen) {
        EXPECT_THAT(report, AllOf(InvalidStore("cooperative_store", 2), AtLine(lineOf("cD.store(D); // cooperative_store"))));
        EXPECT_GE(report.offset, kTileBytes - kTileSize * sizeof(_Float16));
        stores += unsigned(report.count);
    }
    EXPECT_EQ(stores, unsigned(kTileSize)); // one per element of the 16th row
    EXPECT_THAT(seen[0].text(), StartsWith("Invalid device store at offset "));
    EXPECT_THAT(seen[0].text(), HasSubstr("\t* frame #0: cooperative_store() - /program_source:" +
                                          std::to_string(lineOf("cD.store(D); // cooperative_store")) + ":0\n"));
    EXPECT_THAT(seen[0].text(), HasSubstr("2-byte store"));
    const auto* written = reinterpret_cast<const _Float16*>(d.buffer()->contents());
    for (int i = 0; i < kTileSize * (kTileSize - 1); ++i) ASSERT_EQ(float(written[i]), expected[i]) << i;
    d.expectTailIntact();
}

// Test that a cooperative load past its source's buffer is reported as a load at the line of
// `load`, and that the elements it could not read arrive as zeros.
TEST_F(TensorValidation, CooperativeLoadOverrunIsALoadAtLoad) {
    const std::vector<_Float16> a = integers(17);
    GuardedBuffer d(device_, kTileBytes);
    ValidationReportCollector reports;
    dispatch("cooperative_load", halves(a, kTileBytes - kTileSize * sizeof(_Float16)), halves(a, kTileBytes), d.buffer(),
             GuardedBuffer::offset(), kFullTile);
    const auto seen = reports.take();
    ASSERT_FALSE(seen.empty());
    unsigned loads = 0;
    for (const auto& report : seen) {
        EXPECT_THAT(report, AllOf(InvalidLoad("cooperative_load", 0), AtLine(lineOf("cA.load("))));
        loads += unsigned(report.count);
    }
    EXPECT_EQ(loads, unsigned(kTileSize));
    for (int i = 0; i < kTileSize * kTileSize; ++i)
        ASSERT_EQ(float(d.data<_Float16>()[i]), i < kTileSize * (kTileSize - 1) ? float(a[i]) : 0.0f) << i;
    d.expectCanariesIntact();
}


/// handle_product through the MTL4 path with tensors over buffers, validated.
class TensorHandleValidation : public Mtl4Test {};

// Test that host-bound tensors multiply right and silently in a validated kernel.
TEST_F(TensorHandleValidation, HandlesAreSilentAndRight) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init()->autorelease();
    options->setLanguageVersion(MTL::LanguageVersion4_0);
    NS::Error* error = nullptr;
    MTL::Library* library =
        own(device_->newLibrary(NS::String::string(kKernels, NS::UTF8StringEncoding), options, &error));
    ASSERT_NE(library, nullptr) << text(error ? error->localizedDescription() : nullptr);
    MTL::ComputePipelineState* state = own(pipeline(library, "handle_product", true));
    ASSERT_NE(state, nullptr);
    const std::vector<_Float16> a = integers(11), b = integers(12);
    const std::vector<float> expected = product(a, b);
    MTL::Buffer* buffers[3] = {buffer(kTileBytes), buffer(kTileBytes), buffer(kTileBytes)};
    std::memcpy(buffers[0]->contents(), a.data(), kTileBytes);
    std::memcpy(buffers[1]->contents(), b.data(), kTileBytes);
    MTL4::ArgumentTable* arguments = table(3);
    for (int i = 0; i < 3; ++i) {
        MTL::TensorDescriptor* descriptor = MTL::TensorDescriptor::alloc()->init()->autorelease();
        const NS::Integer dims[2] = {kTileSize, kTileSize};
        descriptor->setDimensions(MTL::TensorExtents::alloc()->init(2, dims)->autorelease());
        descriptor->setDataType(MTL::TensorDataTypeFloat16);
        MTL::Tensor* made = own(buffers[i]->newTensor(descriptor, 0, &error));
        ASSERT_NE(made, nullptr) << text(error ? error->localizedDescription() : nullptr);
        arguments->setResource(made->gpuResourceID(), NS::UInteger(i));
    }
    ValidationReportCollector reports;
    record(state, arguments, MTL::Size(32, 1, 1), MTL::Size(32, 1, 1), {residencySet({buffers[0], buffers[1], buffers[2]})});
    const CommitResult result = commit({commandBuffer_});
    ASSERT_FALSE(result.failed) << result.error;
    const auto* d = static_cast<const _Float16*>(buffers[2]->contents());
    for (int i = 0; i < kTileSize * kTileSize; ++i) ASSERT_EQ(float(d[i]), expected[i]) << i;
    EXPECT_THAT(reports.take(), IsEmpty());
    pool->release();
}

} // namespace
} // namespace metalcpu::testing
