// The Metal 4 descriptors that src/api holds as settings.
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace {

NS::SharedPtr<NS::String> text(const char* utf8) {
    return NS::TransferPtr(NS::String::alloc()->init(utf8, NS::UTF8StringEncoding));
}

bool hasClass(NS::Object* object, const char* className) {
    return std::strstr(object->description()->utf8String(), className) != nullptr;
}

// Test that a Metal 4 compute pipeline descriptor keeps its settings and those of its base
// class, copies its function descriptor, retains its options, and resets to the defaults.
TEST(Metal4PipelineTest, ComputePipelineDescriptor) {
    auto descriptor = NS::TransferPtr(MTL4::ComputePipelineDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->label(), nullptr);
    EXPECT_EQ(descriptor->options(), nullptr);
    EXPECT_EQ(descriptor->computeFunctionDescriptor(), nullptr);
    EXPECT_EQ(descriptor->maxTotalThreadsPerThreadgroup(), 0u);
    EXPECT_FALSE(descriptor->supportBinaryLinking());
    EXPECT_EQ(descriptor->supportIndirectCommandBuffers(), MTL4::IndirectCommandBufferSupportStateDisabled);

    auto options = NS::TransferPtr(MTL4::PipelineOptions::alloc()->init());
    EXPECT_EQ(options->shaderReflection(), MTL4::ShaderReflectionNone);
    EXPECT_EQ(options->shaderValidation(), MTL::ShaderValidationDefault);
    options->setShaderValidation(MTL::ShaderValidationEnabled);
    auto function = NS::TransferPtr(MTL4::LibraryFunctionDescriptor::alloc()->init());
    function->setName(text("add_arrays").get());

    descriptor->setLabel(text("add").get());
    descriptor->setOptions(options.get());
    descriptor->setComputeFunctionDescriptor(function.get());
    descriptor->setMaxTotalThreadsPerThreadgroup(256);
    descriptor->setRequiredThreadsPerThreadgroup(MTL::Size(8, 8, 1));
    descriptor->setThreadGroupSizeIsMultipleOfThreadExecutionWidth(true);
    descriptor->setSupportBinaryLinking(true);
    descriptor->setSupportIndirectCommandBuffers(MTL4::IndirectCommandBufferSupportStateEnabled);

    EXPECT_STREQ(descriptor->label()->utf8String(), "add");
    EXPECT_EQ(descriptor->options(), options.get());
    MTL4::FunctionDescriptor* kept = descriptor->computeFunctionDescriptor();
    ASSERT_NE(kept, nullptr);
    EXPECT_NE(kept, function.get());
    EXPECT_TRUE(hasClass(kept, "MTL4LibraryFunctionDescriptor"));
    EXPECT_STREQ(static_cast<MTL4::LibraryFunctionDescriptor*>(kept)->name()->utf8String(), "add_arrays");
    EXPECT_EQ(descriptor->maxTotalThreadsPerThreadgroup(), 256u);
    EXPECT_EQ(descriptor->requiredThreadsPerThreadgroup().width, 8u);
    EXPECT_TRUE(descriptor->threadGroupSizeIsMultipleOfThreadExecutionWidth());

    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_STREQ(copy->label()->utf8String(), "add");
    EXPECT_EQ(copy->maxTotalThreadsPerThreadgroup(), 256u);
    EXPECT_EQ(copy->supportIndirectCommandBuffers(), MTL4::IndirectCommandBufferSupportStateEnabled);

    descriptor->reset();
    EXPECT_EQ(descriptor->label(), nullptr);
    EXPECT_EQ(descriptor->options(), nullptr);
    EXPECT_EQ(descriptor->computeFunctionDescriptor(), nullptr);
    EXPECT_EQ(descriptor->maxTotalThreadsPerThreadgroup(), 0u);
    EXPECT_EQ(copy->maxTotalThreadsPerThreadgroup(), 256u);
}

// Test that the base pipeline descriptor and the function descriptors can be made and copied.
TEST(Metal4PipelineTest, FunctionDescriptors) {
    auto pipeline = NS::TransferPtr(MTL4::PipelineDescriptor::alloc()->init());
    pipeline->setLabel(text("base").get());
    EXPECT_STREQ(NS::TransferPtr(pipeline->copy())->label()->utf8String(), "base");

    auto base = NS::TransferPtr(MTL4::FunctionDescriptor::alloc()->init());
    EXPECT_TRUE(hasClass(NS::TransferPtr(base->copy()).get(), "MTL4FunctionDescriptor"));

    auto constants = NS::TransferPtr(MTL::FunctionConstantValues::alloc()->init());
    auto specialized = NS::TransferPtr(MTL4::SpecializedFunctionDescriptor::alloc()->init());
    specialized->setFunctionDescriptor(base.get());
    specialized->setConstantValues(constants.get());
    specialized->setSpecializedName(text("fast").get());
    EXPECT_NE(specialized->functionDescriptor(), nullptr);
    EXPECT_NE(specialized->constantValues(), nullptr);
    EXPECT_STREQ(specialized->specializedName()->utf8String(), "fast");
}

// Test that a library descriptor copies its compile options and keeps its source and name.
TEST(Metal4PipelineTest, LibraryDescriptor) {
    auto descriptor = NS::TransferPtr(MTL4::LibraryDescriptor::alloc()->init());
    auto options = NS::TransferPtr(MTL::CompileOptions::alloc()->init());
    options->setFastMathEnabled(false);
    descriptor->setSource(text("kernel void k() {}").get());
    descriptor->setName(text("lib").get());
    descriptor->setOptions(options.get());
    EXPECT_STREQ(descriptor->source()->utf8String(), "kernel void k() {}");
    EXPECT_STREQ(descriptor->name()->utf8String(), "lib");
    ASSERT_NE(descriptor->options(), nullptr);
    EXPECT_FALSE(descriptor->options()->fastMathEnabled());
}

// Test that the linking descriptors keep their arrays and call-stack depth.
TEST(Metal4PipelineTest, LinkingDescriptors) {
    auto empty = NS::TransferPtr(NS::Array::alloc()->init());
    auto statics = NS::TransferPtr(MTL4::StaticLinkingDescriptor::alloc()->init());
    statics->setFunctionDescriptors(empty.get());
    EXPECT_NE(statics->functionDescriptors(), nullptr);
    EXPECT_EQ(statics->privateFunctionDescriptors(), nullptr);
    EXPECT_EQ(statics->groups(), nullptr);

    auto dynamic = NS::TransferPtr(MTL4::PipelineStageDynamicLinkingDescriptor::alloc()->init());
    EXPECT_EQ(dynamic->maxCallStackDepth(), 1u);
    dynamic->setMaxCallStackDepth(4);
    dynamic->setPreloadedLibraries(empty.get());
    auto copy = NS::TransferPtr(dynamic->copy());
    EXPECT_EQ(copy->maxCallStackDepth(), 4u);
    EXPECT_NE(copy->preloadedLibraries(), nullptr);
}

// Test that an argument table descriptor has no slots and no initialisation by default, and
// keeps what it is given.
TEST(Metal4DescriptorTest, ArgumentTableDescriptor) {
    auto descriptor = NS::TransferPtr(MTL4::ArgumentTableDescriptor::alloc()->init());
    EXPECT_EQ(descriptor->maxBufferBindCount(), 0u);
    EXPECT_EQ(descriptor->maxTextureBindCount(), 0u);
    EXPECT_EQ(descriptor->maxSamplerStateBindCount(), 0u);
    EXPECT_FALSE(descriptor->initializeBindings());
    EXPECT_FALSE(descriptor->supportAttributeStrides());
    descriptor->setLabel(text("bindings").get());
    descriptor->setMaxBufferBindCount(31);
    descriptor->setMaxTextureBindCount(128);
    descriptor->setMaxSamplerStateBindCount(16);
    descriptor->setInitializeBindings(true);
    descriptor->setSupportAttributeStrides(true);
    auto copy = NS::TransferPtr(descriptor->copy());
    EXPECT_STREQ(copy->label()->utf8String(), "bindings");
    EXPECT_EQ(copy->maxBufferBindCount(), 31u);
    EXPECT_EQ(copy->maxTextureBindCount(), 128u);
    EXPECT_EQ(copy->maxSamplerStateBindCount(), 16u);
    EXPECT_TRUE(copy->initializeBindings());
    EXPECT_TRUE(copy->supportAttributeStrides());
}

// Test that the queue, allocator, command buffer, compiler and serializer descriptors keep
// their settings.
TEST(Metal4DescriptorTest, CommandAndCompilerDescriptors) {
    auto queue = NS::TransferPtr(MTL4::CommandQueueDescriptor::alloc()->init());
    queue->setLabel(text("queue").get());
    EXPECT_STREQ(NS::TransferPtr(queue->copy())->label()->utf8String(), "queue");

    auto allocator = NS::TransferPtr(MTL4::CommandAllocatorDescriptor::alloc()->init());
    allocator->setLabel(text("allocator").get());
    EXPECT_STREQ(allocator->label()->utf8String(), "allocator");

    auto options = NS::TransferPtr(MTL4::CommandBufferOptions::alloc()->init());
    EXPECT_EQ(options->logState(), nullptr);

    auto counters = NS::TransferPtr(MTL4::CounterHeapDescriptor::alloc()->init());
    EXPECT_EQ(counters->type(), MTL4::CounterHeapTypeInvalid);
    counters->setType(MTL4::CounterHeapTypeTimestamp);
    counters->setCount(64);
    EXPECT_EQ(counters->type(), MTL4::CounterHeapTypeTimestamp);
    EXPECT_EQ(counters->count(), 64u);

    auto compiler = NS::TransferPtr(MTL4::CompilerDescriptor::alloc()->init());
    compiler->setLabel(text("compiler").get());
    EXPECT_STREQ(compiler->label()->utf8String(), "compiler");
    EXPECT_EQ(compiler->pipelineDataSetSerializer(), nullptr);

    auto task = NS::TransferPtr(MTL4::CompilerTaskOptions::alloc()->init());
    EXPECT_EQ(task->lookupArchives(), nullptr);

    auto serializer = NS::TransferPtr(MTL4::PipelineDataSetSerializerDescriptor::alloc()->init());
    serializer->setConfiguration(MTL4::PipelineDataSetSerializerConfigurationCaptureBinaries);
    EXPECT_EQ(serializer->configuration(), MTL4::PipelineDataSetSerializerConfigurationCaptureBinaries);

    auto binary = NS::TransferPtr(MTL4::BinaryFunctionDescriptor::alloc()->init());
    binary->setName(text("bin").get());
    binary->setOptions(MTL4::BinaryFunctionOptionPipelineIndependent);
    EXPECT_STREQ(binary->name()->utf8String(), "bin");
    EXPECT_EQ(binary->options(), MTL4::BinaryFunctionOptionPipelineIndependent);
}

// Test that commit options accept feedback handlers of both kinds of callable.
TEST(Metal4DescriptorTest, CommitOptionsTakeHandlers) {
    auto options = NS::TransferPtr(MTL4::CommitOptions::alloc()->init());
    ASSERT_NE(options.get(), nullptr);
    options->addFeedbackHandler([](MTL4::CommitFeedback*) {});
    options->addFeedbackHandler(MTL4::CommitFeedbackHandlerFunction());
}

} // namespace
