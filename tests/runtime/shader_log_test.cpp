// Shader logging: os_log in kernels, delivered to an MTL::LogState's handlers after the
// command buffer ran, or to stderr (MTL_LOG_TO_STDERR). Many threads of many groups log at
// once: every message must arrive exactly once, with its exact text, and the messages of one
// thread in the order it logged them; run plain and shader-validated, over group sizes of 1
// thread, non-multiples of 32 and grids that do not divide evenly. As in Metal, a library logs
// only when compiled with CompileOptions::enableLogging.
#include "metal_test.h"
#include "scoped_state.h"

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
#include <metal_logging>
using namespace metal;

// As MLX's kernels/logging.h spells it.
#define KERNEL_LOG_FAULT(fmt, ...) os_log_default.log_fault(fmt, ##__VA_ARGS__)

constant os_log logger("com.example.metalcpu", "tests");

kernel void log_each(constant uint& n [[buffer(0)]],
                     uint i [[thread_position_in_grid]],
                     uint g [[threadgroup_position_in_grid]]) {
    if (i >= n) return;
    constant char* parity = (i & 1) ? "odd" : "even"; // a checked pointer when validated
    logger.log_info("thread %u of group %u: %d %.2f %s %s %x%%", i, g, -int(i), float(i) * 0.5f, "ok", parity, i);
    logger.log_info("then %u", i);
}

kernel void log_levels(uint i [[thread_position_in_grid]]) {
    if (i != 0) return;
    os_log_default.log_debug("debug");
    os_log_default.log_info("info");
    os_log_default.log("notice");
    os_log_default.log_error("error");
    KERNEL_LOG_FAULT("fault %d", 5);
}

kernel void log_fixed(uint i [[thread_position_in_grid]]) {
    logger.log("message %04u", i % 10000u);
}
)";

/// Compiles `source` (+1) with `options` set up by `configure`; nullptr and `error` when it
/// does not compile.
template <class Configure>
MTL::Library* compileWith(MTL::Device* device, const char* source, Configure configure, NS::Error** error) {
    MTL::CompileOptions* options = MTL::CompileOptions::alloc()->init();
    configure(options);
    MTL::Library* library = device->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), options, error);
    options->release();
    return library;
}

/// kKernels compiled with logging on (+1).
MTL::Library* compileLogging(MTL::Device* device) {
    NS::Error* error = nullptr;
    MTL::Library* library =
        compileWith(device, kKernels, [](MTL::CompileOptions* o) { o->setEnableLogging(true); }, &error);
    if (!library) ADD_FAILURE() << text(error ? error->localizedDescription() : nullptr);
    return library;
}

struct Received {
    std::string subsystem, category, text;
    MTL::LogLevel level;
};

/// A log state whose handler collects every message (thread-safe).
class Collector {
public:
    Collector(MTL::Device* device, MTL::LogLevel level, NS::Integer bufferSize) {
        MTL::LogStateDescriptor* descriptor = MTL::LogStateDescriptor::alloc()->init();
        descriptor->setLevel(level);
        descriptor->setBufferSize(bufferSize);
        NS::Error* error = nullptr;
        state = device->newLogState(descriptor, &error);
        descriptor->release();
        EXPECT_NE(state, nullptr) << text(error ? error->localizedDescription() : nullptr);
        if (state)
            state->addLogHandler([this](NS::String* subsystem, NS::String* category, MTL::LogLevel level,
                                        NS::String* message) {
                std::lock_guard lock(mutex);
                received.push_back({text(subsystem), text(category), text(message), level});
            });
    }
    ~Collector() {
        if (state) state->release();
    }
    /// A command buffer of `queue` that logs to this state.
    MTL::CommandBuffer* commandBuffer(MTL::CommandQueue* queue) {
        MTL::CommandBufferDescriptor* descriptor = MTL::CommandBufferDescriptor::alloc()->init();
        descriptor->setLogState(state);
        MTL::CommandBuffer* made = queue->commandBuffer(descriptor);
        descriptor->release();
        return made;
    }

    MTL::LogState* state = nullptr;
    std::mutex mutex;
    std::vector<Received> received;
};

class ShaderLog : public ShapedKernelTest<kKernels> {
protected:
    static void SetUpTestSuite() {
        MTL::Device* device = MTL::CreateSystemDefaultDevice();
        library_ = compileLogging(device);
        device->release();
    }

    /// Runs `name` over `threads` threads into a command buffer logging to `collector`.
    void runLogging(const char* name, unsigned threads, Collector& collector) {
        MTL::ComputePipelineState* state = kernel(name);
        ASSERT_NE(state, nullptr);
        MTL::CommandBuffer* commands = collector.commandBuffer(queue_);
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setBytes(&threads, sizeof threads, 0);
        dispatch(state, encoder, commands, threads);
        state->release();
    }
};

// Test that every message of every thread arrives once, with its exact text, subsystem,
// category and level, and that each thread's two messages arrive in the order it logged them.
TEST_P(ShaderLog, EveryThreadsMessagesArriveOnceInOrder) {
    Collector collector(device_, MTL::LogLevelDebug, 1 << 20);
    const unsigned threads = 300;
    runLogging("log_each", threads, collector);

    std::map<std::string, int> seen;
    std::map<unsigned, std::size_t> firstAt, thenAt;
    for (std::size_t at = 0; at < collector.received.size(); ++at) {
        const Received& r = collector.received[at];
        EXPECT_EQ(r.subsystem, "com.example.metalcpu");
        EXPECT_EQ(r.category, "tests");
        EXPECT_EQ(r.level, MTL::LogLevelInfo);
        ++seen[r.text];
        unsigned i = 0;
        if (std::sscanf(r.text.c_str(), "then %u", &i) == 1) thenAt[i] = at;
        else if (std::sscanf(r.text.c_str(), "thread %u", &i) == 1) firstAt[i] = at;
    }
    ASSERT_EQ(collector.received.size(), 2u * threads);
    for (unsigned i = 0; i < threads; ++i) {
        char expected[128];
        std::snprintf(expected, sizeof expected, "thread %u of group %u: %d %.2f ok %s %x%%", i, i / groupSize(),
                      -int(i), double(i) * 0.5, (i & 1) ? "odd" : "even", i);
        EXPECT_EQ(seen[expected], 1) << expected;
        EXPECT_EQ(seen["then " + std::to_string(i)], 1) << i;
        EXPECT_LT(firstAt[i], thenAt[i]) << "thread " << i << "'s messages out of order";
    }
}

// Test that messages below the log state's level are not delivered, and that the others
// keep their levels; os_log_default has an empty subsystem and category.
TEST_P(ShaderLog, MessagesBelowTheLevelAreFilteredOut) {
    Collector collector(device_, MTL::LogLevelError, 1 << 20);
    runLogging("log_levels", 1, collector);
    ASSERT_EQ(collector.received.size(), 2u);
    EXPECT_EQ(collector.received[0].text, "error");
    EXPECT_EQ(collector.received[0].level, MTL::LogLevelError);
    EXPECT_EQ(collector.received[1].text, "fault 5");
    EXPECT_EQ(collector.received[1].level, MTL::LogLevelFault);
    EXPECT_EQ(collector.received[1].subsystem, "");
    EXPECT_EQ(collector.received[1].category, "");

    Collector all(device_, MTL::LogLevelDebug, 1 << 20);
    runLogging("log_levels", 1, all);
    ASSERT_EQ(all.received.size(), 5u);
    EXPECT_EQ(all.received[2].text, "notice");
    EXPECT_EQ(all.received[2].level, MTL::LogLevelNotice);
}

// Test that the messages that do not fit the buffer are dropped and the others delivered whole.
TEST_P(ShaderLog, MessagesThatDoNotFitTheBufferAreDropped) {
    Collector collector(device_, MTL::LogLevelDebug, 1024);
    const unsigned threads = 200;
    runLogging("log_fixed", threads, collector);
    // Each message holds subsystem, category and "message NNNN".
    const std::size_t bytes = std::string("com.example.metalcpu").size() + std::string("tests").size() + 12;
    ASSERT_EQ(collector.received.size(), 1024 / bytes);
    for (const Received& r : collector.received) EXPECT_EQ(r.text.size(), 12u) << r.text;
}

INSTANTIATE_TEST_SUITE_P(Shapes, ShaderLog, ::testing::Combine(::testing::Values(1u, 7u, 33u, 64u), ::testing::Bool()),
                         kernelShapeName);

class ShaderLogState : public MetalTest {};

// Test that newLogState refuses a buffer too small, with Apple's domain and code.
TEST_F(ShaderLogState, TooSmallBufferIsAnError) {
    MTL::LogStateDescriptor* descriptor = MTL::LogStateDescriptor::alloc()->init();
    EXPECT_EQ(descriptor->level(), MTL::LogLevelDebug);
    descriptor->setBufferSize(16);
    NS::Error* error = nullptr;
    EXPECT_EQ(device_->newLogState(descriptor, &error), nullptr);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(text(error->domain()), "MTLLogStateErrorDomain");
    EXPECT_EQ(error->code(), MTL::LogStateErrorInvalidSize);
    descriptor->release();
}

// Test that a queue's log state reaches its command buffers, and that a command buffer
// descriptor's wins over it.
TEST_F(ShaderLogState, QueueStateIsSharedAndBufferStateWins) {
    MTL::Library* library = compileLogging(device_);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "log_levels");
    Collector ofQueue(device_, MTL::LogLevelDebug, 4096), ofBuffer(device_, MTL::LogLevelFault, 4096);
    MTL::CommandQueueDescriptor* queueDescriptor = MTL::CommandQueueDescriptor::alloc()->init();
    queueDescriptor->setLogState(ofQueue.state);
    EXPECT_EQ(queueDescriptor->logState(), ofQueue.state);
    MTL::CommandQueue* queue = device_->newCommandQueue(queueDescriptor);
    queueDescriptor->release();

    for (MTL::CommandBuffer* commands : {queue->commandBuffer(), ofBuffer.commandBuffer(queue)}) {
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    }
    EXPECT_EQ(ofQueue.received.size(), 5u);
    ASSERT_EQ(ofBuffer.received.size(), 1u);
    EXPECT_EQ(ofBuffer.received[0].text, "fault 5");
    queue->release();
    state->release();
    library->release();
}

// Test that logging a vector is a compile error at the kernel's line that names os_log.
TEST_F(ShaderLogState, VectorArgumentIsACompileErrorNamingOsLog) {
    const char* source = R"(#include <metal_stdlib>
using namespace metal;
kernel void log_vector(uint i [[thread_position_in_grid]]) {
    os_log_default.log("%f", float2(1.0f, 2.0f));
}
)";
    NS::Error* error = nullptr;
    MTL::Library* library =
        device_->newLibrary(NS::String::string(source, NS::UTF8StringEncoding), nullptr, &error);
    ASSERT_EQ(library, nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("os_log: metalcpu logs scalars and strings only"), std::string::npos) << message;
    EXPECT_NE(message.find("program_source:4"), std::string::npos) << message;
}

// Test that os_log exists from MSL 3.2, as in Metal: compiled for 3.1 it is undeclared, at
// the kernel's line; the same source compiles for 3.2.
TEST_F(ShaderLogState, OsLogNeedsMetal3_2) {
    const char* source = R"(#include <metal_stdlib>
using namespace metal;
kernel void logged(uint i [[thread_position_in_grid]]) {
    os_log_default.log("%u", i);
}
)";
    NS::Error* error = nullptr;
    MTL::Library* old = compileWith(
        device_, source, [](MTL::CompileOptions* o) { o->setLanguageVersion(MTL::LanguageVersion3_1); }, &error);
    ASSERT_EQ(old, nullptr);
    ASSERT_NE(error, nullptr);
    const std::string message = text(error->localizedDescription());
    EXPECT_NE(message.find("os_log_default"), std::string::npos) << message;
    EXPECT_NE(message.find("program_source:4"), std::string::npos) << message;
    error = nullptr;
    MTL::Library* current = compileWith(
        device_, source, [](MTL::CompileOptions* o) { o->setLanguageVersion(MTL::LanguageVersion3_2); }, &error);
    EXPECT_NE(current, nullptr) << text(error ? error->localizedDescription() : nullptr);
    if (current) current->release();
}

// Test that a library compiled without enableLogging logs nothing, as in Metal.
TEST_F(ShaderLogState, LoggingNeedsEnableLogging) {
    MTL::Library* quiet = compile(kKernels);
    ASSERT_NE(quiet, nullptr);
    MTL::ComputePipelineState* state = pipeline(quiet, "log_levels");
    Collector collector(device_, MTL::LogLevelDebug, 4096);
    MTL::CommandBuffer* commands = collector.commandBuffer(queue_);
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    EXPECT_TRUE(collector.received.empty());
    state->release();
    quiet->release();
}

/// Everything written to stderr while it lives, read back by text().
class CapturedStderr {
public:
    CapturedStderr() : file_(std::tmpfile()), saved_(dup(2)) {
        std::fflush(stderr);
        dup2(fileno(file_), 2);
    }
    ~CapturedStderr() {
        restore();
        std::fclose(file_);
    }
    std::string text() {
        restore();
        std::rewind(file_);
        std::string all;
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) all.append(buffer, n);
        return all;
    }

private:
    void restore() {
        if (saved_ < 0) return;
        std::fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        saved_ = -1;
    }
    std::FILE* file_;
    int saved_;
};

// Test that without a log state, MTL_LOG_TO_STDERR prints each message as a line on stderr,
// filtered by MTL_LOG_LEVEL, and that nothing is printed when neither is set.
TEST_F(ShaderLogState, EnvironmentSendsMessagesToStderr) {
    MTL::Library* library = compileLogging(device_);
    ASSERT_NE(library, nullptr);
    MTL::ComputePipelineState* state = pipeline(library, "log_levels");
    const auto runOnce = [&] {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
        encoder->endEncoding();
        EXPECT_EQ(run(commands), MTL::CommandBufferStatusCompleted);
    };
    {
        ScopedEnvironmentVariable toStderr("MTL_LOG_TO_STDERR", "1");
        ScopedEnvironmentVariable level("MTL_LOG_LEVEL", "MTLLogLevelInfo");
        CapturedStderr captured;
        runOnce();
        EXPECT_EQ(captured.text(), "info\nnotice\nerror\nfault 5\n");
    }
    {
        ScopedEnvironmentVariable toStderr("MTL_LOG_TO_STDERR", std::nullopt);
        ScopedEnvironmentVariable level("MTL_LOG_LEVEL", std::nullopt);
        ScopedEnvironmentVariable size("MTL_LOG_BUFFER_SIZE", std::nullopt);
        CapturedStderr captured;
        runOnce();
        EXPECT_EQ(captured.text(), "");
    }
    state->release();
    library->release();
}

} // namespace
} // namespace metalcpu::testing
