#include "metal_test.h"

#include <cstring>

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
