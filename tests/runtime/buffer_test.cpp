#include "metal_test.h"

#include <cstring>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace metalcpu::testing {
namespace {

using BufferTest = MetalTest;

// Test that new buffers are zero-filled and contents() is stable, writable memory.
TEST_F(BufferTest, NewBuffersAreZeroFilled) {
    MTL::Buffer* buffer = device_->newBuffer(4096, MTL::ResourceStorageModeShared);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(buffer->length(), 4096u);
    auto* bytes = static_cast<unsigned char*>(buffer->contents());
    ASSERT_NE(bytes, nullptr);
    for (int i = 0; i < 4096; ++i) ASSERT_EQ(bytes[i], 0);
    bytes[4095] = 7;
    EXPECT_EQ(buffer->contents(), bytes);
    EXPECT_EQ(buffer->gpuAddress(), reinterpret_cast<MTL::GPUAddress>(bytes));
    buffer->release();
}

// Test that newBuffer(bytes, …) copies the bytes.
TEST_F(BufferTest, NewBufferWithBytesCopies) {
    float values[4] = {1, 2, 3, 4};
    MTL::Buffer* buffer = device_->newBuffer(values, sizeof values, MTL::ResourceStorageModeShared);
    values[0] = 99;
    EXPECT_EQ(static_cast<float*>(buffer->contents())[0], 1.0f);
    EXPECT_EQ(std::memcmp(static_cast<float*>(buffer->contents()) + 1, values + 1, 3 * sizeof(float)), 0);
    buffer->release();
}

// Test that a no-copy buffer uses the program's memory and calls the deallocator once.
TEST_F(BufferTest, NoCopyBufferUsesProgramMemory) {
    alignas(64) static float memory[256];
    static int deallocations = 0;
    MTL::Buffer* buffer = device_->newBuffer(memory, sizeof memory, MTL::ResourceStorageModeShared,
                                             [](void* pointer, NS::UInteger length) {
                                                 EXPECT_EQ(pointer, memory);
                                                 EXPECT_EQ(length, sizeof memory);
                                                 ++deallocations;
                                             });
    EXPECT_EQ(buffer->contents(), memory);
    buffer->release();
    EXPECT_EQ(deallocations, 1);
}

// Test that storage modes are reported and private buffers have no CPU pointer.
TEST_F(BufferTest, StorageModes) {
    MTL::Buffer* shared = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    MTL::Buffer* managed = device_->newBuffer(64, MTL::ResourceStorageModeManaged);
    MTL::Buffer* hidden = device_->newBuffer(64, MTL::ResourceStorageModePrivate);
    EXPECT_EQ(shared->storageMode(), MTL::StorageModeShared);
    EXPECT_EQ(managed->storageMode(), MTL::StorageModeManaged);
    EXPECT_EQ(hidden->storageMode(), MTL::StorageModePrivate);
    EXPECT_NE(managed->contents(), nullptr);
    managed->didModifyRange(NS::Range::Make(0, 64)); // legal, and not needed
    EXPECT_EQ(hidden->contents(), nullptr);
    EXPECT_NE(hidden->gpuAddress(), 0u);
    for (MTL::Buffer* buffer : {shared, managed, hidden}) buffer->release();
}

// Test that labels are copied and readable.
TEST_F(BufferTest, Labels) {
    MTL::Buffer* buffer = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    EXPECT_EQ(buffer->label(), nullptr);
    buffer->setLabel(NS::String::string("weights", NS::UTF8StringEncoding));
    EXPECT_EQ(text(buffer->label()), "weights");
    EXPECT_EQ(buffer->device(), device_);
    buffer->release();
}

// Test that zero-length and impossible buffers are nullptr, not a crash.
TEST_F(BufferTest, InvalidLengthsGiveNull) {
    EXPECT_EQ(device_->newBuffer(0, MTL::ResourceStorageModeShared), nullptr);
    EXPECT_EQ(device_->newBuffer(device_->maxBufferLength() + 1, MTL::ResourceStorageModeShared), nullptr);
}

// Test that newBuffer(nullptr, length, …) is nullptr: there is nothing to copy.
TEST_F(BufferTest, NewBufferWithNullBytesIsNull) {
    EXPECT_EQ(device_->newBuffer(nullptr, 16, MTL::ResourceStorageModeShared), nullptr);
}

/// Apple silicon's 16 KiB page, or the host's page where that is larger (64 KiB on some Arm
/// kernels).
NS::UInteger pageGranule() {
    const long host = sysconf(_SC_PAGESIZE);
    return host > 16384 ? NS::UInteger(host) : NS::UInteger(16384);
}

// Test that a buffer occupies whole 16 KiB pages, as on Apple silicon, and says so.
TEST_F(BufferTest, AllocatedSizeIsWholePages) {
    const NS::UInteger g = pageGranule();
    for (auto [length, pages] : {std::pair<NS::UInteger, NS::UInteger>{1, 1}, {16, 1}, {g, 1}, {g + 1, 2},
                                 {6 * g + 1, 7}}) {
        const NS::UInteger before = device_->currentAllocatedSize();
        MTL::Buffer* buffer = device_->newBuffer(length, MTL::ResourceStorageModeShared);
        ASSERT_NE(buffer, nullptr);
        EXPECT_EQ(buffer->length(), length);
        EXPECT_EQ(buffer->allocatedSize(), pages * g) << "length " << length;
        EXPECT_EQ(device_->currentAllocatedSize(), before + pages * g) << "length " << length;
        // The whole allocation is usable and zero-filled, as the GPU's page would be.
        auto* bytes = static_cast<unsigned char*>(buffer->contents());
        EXPECT_EQ(bytes[buffer->allocatedSize() - 1], 0);
        bytes[buffer->allocatedSize() - 1] = 1;
        buffer->release();
        EXPECT_EQ(device_->currentAllocatedSize(), before);
    }
}

// Test that a no-copy buffer's allocated size is the program's memory, which it allocated.
TEST_F(BufferTest, NoCopyAllocatedSizeIsItsLength) {
    alignas(4096) static unsigned char memory[8192];
    MTL::Buffer* buffer = device_->newBuffer(memory, sizeof memory, MTL::ResourceStorageModeShared, nullptr);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(buffer->allocatedSize(), sizeof memory);
    buffer->release();
}

// Test that a kernel storing far past a small buffer's end without shader validation (a
// public sample dispatches 1024 threads over 4-element buffers) writes only its own pages:
// the next buffer and the heap are untouched, as on a Mac.
TEST_F(BufferTest, StoresPastTheEndStayInTheBuffersPages) {
    MTL::ComputePipelineState* state = pipeline(R"(
        #include <metal_stdlib>
        using namespace metal;
        kernel void fill(device int* out [[buffer(0)]], uint i [[thread_position_in_grid]]) { out[i] = int(i) + 1; }
    )", "fill");
    ASSERT_NE(state, nullptr);
    std::vector<MTL::Buffer*> buffers;
    for (int i = 0; i < 4; ++i) buffers.push_back(device_->newBuffer(4 * sizeof(int), MTL::ResourceStorageModeShared));
    std::vector<int>* heapCanary = new std::vector<int>(16, 42);

    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(buffers[1], 0, 0);
    encoder->dispatchThreads(MTL::Size::Make(1024, 1, 1), MTL::Size::Make(64, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);

    const int* written = static_cast<const int*>(buffers[1]->contents());
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(written[i], i + 1) << i;
    for (MTL::Buffer* other : {buffers[0], buffers[2], buffers[3]}) {
        const int* untouched = static_cast<const int*>(other->contents());
        for (int i = 0; i < 4; ++i) EXPECT_EQ(untouched[i], 0);
    }
    EXPECT_EQ(*heapCanary, std::vector<int>(16, 42));
    delete heapCanary;
    for (MTL::Buffer* buffer : buffers) buffer->release();
    state->release();
}

// Test that the memory right after a buffer's last page (and right before its first) is not
// another object's: touching it faults instead of corrupting something.
TEST_F(BufferTest, MemoryBeyondTheWholePagesFaults) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    MTL::Buffer* buffer = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    volatile unsigned char* bytes = static_cast<unsigned char*>(buffer->contents());
    const NS::UInteger size = buffer->allocatedSize();
    EXPECT_DEATH(bytes[size] = 1, "");
    EXPECT_DEATH(bytes[-1] = 1, "");
    buffer->release();
}

// Test that many live buffers do not use up the process's memory mappings (vm.max_map_count):
// past the guarded budget they share large mappings, and the process can still make threads,
// allocate and map. Recycled memory reads as zeros again.
TEST_F(BufferTest, ManyBuffersLeaveTheProcessItsMappings) {
    constexpr int kBuffers = 40000;
    std::vector<MTL::Buffer*> buffers;
    buffers.reserve(kBuffers);
    for (int i = 0; i < kBuffers; ++i) {
        MTL::Buffer* buffer = device_->newBuffer(16, MTL::ResourceStorageModeShared);
        ASSERT_NE(buffer, nullptr) << "buffer " << i;
        auto* bytes = static_cast<unsigned char*>(buffer->contents());
        ASSERT_EQ(bytes[0], 0) << "buffer " << i;
        bytes[0] = 1;
        bytes[buffer->allocatedSize() - 1] = 1; // the whole granule is the buffer's
        buffers.push_back(buffer);
    }
    std::thread([] {}).join();
    std::vector<char> large(64 << 20, 1);
    EXPECT_EQ(large.back(), 1);
    MTL::Buffer* big = device_->newBuffer(8 << 20, MTL::ResourceStorageModeShared);
    EXPECT_NE(big, nullptr);
    if (big) big->release();

    for (int i = 0; i < kBuffers; i += 2) buffers[i]->release();
    for (int i = 0; i < kBuffers; i += 2) {
        buffers[i] = device_->newBuffer(16, MTL::ResourceStorageModeShared);
        ASSERT_NE(buffers[i], nullptr);
        const auto* bytes = static_cast<const unsigned char*>(buffers[i]->contents());
        ASSERT_EQ(bytes[0], 0) << "recycled buffer " << i;
        ASSERT_EQ(bytes[buffers[i]->allocatedSize() - 1], 0) << "recycled buffer " << i;
    }
    for (MTL::Buffer* buffer : buffers) buffer->release();
}

METALCPU_NIL_TEST_BODY void messageNilBuffer() {
    MTL::Buffer* buffer = nil<MTL::Buffer>();
    EXPECT_EQ(buffer->contents(), nullptr);
    EXPECT_EQ(buffer->length(), 0u);
    EXPECT_EQ(buffer->gpuAddress(), 0u);
    EXPECT_EQ(buffer->label(), nullptr);
    buffer->setLabel(nullptr);
    buffer->release();
}

// Test that buffer methods on null return zero.
TEST(BufferNil, MethodsOnNullReturnZero) { messageNilBuffer(); }

} // namespace
} // namespace metalcpu::testing
