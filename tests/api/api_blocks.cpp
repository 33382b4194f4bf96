// Compile-only, with clang -fblocks: the Objective-C block overloads that the headers declare
// when __BLOCKS__ is defined, next to the std::function overloads that always exist.

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#if !defined(__BLOCKS__)
#error "compile this file with -fblocks"
#endif

namespace api_blocks {

void blocks(MTL::Device* device, MTL::CommandBuffer* commandBuffer, MTL::Library* library, void* memory) {
    commandBuffer->addCompletedHandler(^(MTL::CommandBuffer* done) { (void)done; });
    const MTL::CommandBufferHandler scheduled = ^(MTL::CommandBuffer*) {};
    commandBuffer->addScheduledHandler(scheduled);
    // A lambda still selects the std::function overload.
    commandBuffer->addCompletedHandler([](MTL::CommandBuffer*) {});

    // nullptr selects the block deallocator (a standard conversion beats std::function's).
    MTL::Buffer* wrapped = device->newBuffer(memory, 4096, MTL::ResourceStorageModeShared, nullptr);
    MTL::Buffer* owned =
        device->newBuffer(memory, 4096, MTL::ResourceStorageModeShared, ^(void* pointer, NS::UInteger length) {
            (void)pointer, (void)length;
        });

    device->newLibrary(MTLSTR("kernel void k() {}"), nullptr, ^(MTL::Library* compiled, NS::Error* error) {
        (void)compiled, (void)error;
    });
    MTL::Function* function = library->newFunction(MTLSTR("k"));
    device->newComputePipelineState(function, ^(MTL::ComputePipelineState* state, NS::Error* error) {
        (void)state, (void)error;
    });
    library->newFunction(MTLSTR("k"), nullptr, ^(MTL::Function* result, NS::Error* error) { (void)result, (void)error; });

    MTL::SharedEvent* event = device->newSharedEvent();
    event->notifyListener(MTL::SharedEventListener::sharedListener(), 1,
                          ^(MTL::SharedEvent* signalled, std::uint64_t value) { (void)signalled, (void)value; });

    MTL4::CommitOptions* options = MTL4::CommitOptions::alloc()->init();
    options->addFeedbackHandler(^(MTL4::CommitFeedback* feedback) { (void)feedback; });

    NS::Object* observer = nullptr;
    NS::Array* devices = MTL::CopyAllDevicesWithObserver(
        &observer, ^(MTL::Device* changed, MTL::DeviceNotificationName name) { (void)changed, (void)name; });

    devices->release();
    options->release();
    event->release();
    function->release();
    owned->release();
    wrapped->release();
}

} // namespace api_blocks
