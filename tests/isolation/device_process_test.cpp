// The device process through the public API (issue 12): a kernel's fault or hang ends its
// command buffer with Metal's error, the program goes on, and the next command buffer runs in
// a new device process; kernels cannot reach the program's memory or the user's files. Tests
// of spinning kernels and DeviceProcessTimeout run with METALCPU_GPU_TIMEOUT=2, the others
// with 600 (tests/isolation/CMakeLists.txt).
#include "isolation/device_process.h"
#include "isolation/shared_arena.h"

#include "runtime/guarded_buffer.h"
#include "runtime/metal_test.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace metalcpu::testing {
namespace {

const char* const kKernels = R"(
#include <metal_stdlib>
using namespace metal;

kernel void add_one(device int* data [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    data[i] = data[i] + 1;
}

// Stores through an address it reads from memory: out[0] holds it.
kernel void store_through(device ulong* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device uint* target = (device uint*)(out[0]);
    target[i] = 0xdead;
}

// Copies what an address read from memory points at into out[1].
kernel void load_through(device ulong* out [[buffer(0)]]) {
    device ulong* source = (device ulong*)(out[0]);
    out[1] = source[0];
}

// Calls the function whose address out[0] holds (a host function's) with a command line.
typedef int (*command_fn)(const char*);
union function_bits { ulong bits; command_fn call; };
kernel void call_through(device ulong* out [[buffer(0)]]) {
    function_bits f;
    f.bits = out[0];
    out[1] = (ulong)f.call("touch /tmp/metalcpu-isolation-planted");
}

// Recurses for ever (out[1] is never 12345); not a tail call, so each level keeps its frame.
void descend(device uint* out, uint depth) {
    volatile uint frame[1024];
    frame[depth % 1024] = depth;
    if (out[1] != 12345) descend(out, depth + 1);
    out[0] += frame[(depth * 7) % 1024];
}
kernel void overflow(device uint* out [[buffer(0)]]) { descend(out, 0); }

// Adds one to the ints whose address table[0] holds (an argument buffer's way).
kernel void add_one_through(device const ulong* table [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    device int* data = (device int*)(table[0]);
    data[i] = data[i] + 1;
}

kernel void copy_ints(const device int* in [[buffer(0)]], device int* out [[buffer(1)]],
                      uint i [[thread_position_in_grid]]) {
    out[i] = in[i];
}

// Stores a float4 through a float4* made from a float* one float past a 16-byte boundary, as
// ggml's mul_mm does for rows whose length is not a multiple of 4 (Apple's GPUs tolerate it);
// one iteration, the count the host compiler's vector loop leaves to an aligned store.
// data[15] is how many float4 to copy.
kernel void misaligned_float4(device float* data [[buffer(0)]]) {
    device float4* row = (device float4*)(data + 2);
    device const float4* source = (device const float4*)(data + 8);
    for (int i = 0; i < int(data[15]); ++i) row[i] = source[i];
}

// What a learner writes for a float4 view of a float array; the host binds it at an offset
// that is not a multiple of 16.
kernel void scale_float4(device float4* v [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    v[i] = v[i] * 2.0f;
}

// Uses threadgroup memory that the host must size with setThreadgroupMemoryLength.
kernel void uses_threadgroup_argument(device float* out [[buffer(0)]], threadgroup float* scratch [[threadgroup(0)]],
                                      uint i [[thread_position_in_threadgroup]]) {
    scratch[i] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = scratch[i];
}

// Reads `reach` floats past the start of one of its buffers (which: 1 for b, 2 for c) and
// never touches `scratch`, as llama.cpp's q4_0 mat-vec reads rows past the last.
kernel void read_past(device const float* a [[buffer(0)]], device const float* b [[buffer(1)]],
                      constant float* c [[buffer(2)]], device float* out [[buffer(3)]],
                      constant ulong2& reach [[buffer(4)]], threadgroup float* scratch [[threadgroup(0)]],
                      uint i [[thread_position_in_grid]]) {
    const ulong at = ulong(i) + reach.x;
    out[i] = a[i] + (reach.y == 1 ? b[at] : c[at]);
}

kernel void spin(device atomic_uint* counter [[buffer(0)]]) {
    for (;;) atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
}
)";

/// What the tests here make go wrong.
enum class Misdeed { WildStore, HostLoad, HostStore, HostCall, StackOverflow, Spin };

const char* nameOf(Misdeed misdeed) {
    switch (misdeed) {
    case Misdeed::WildStore: return "WildStore";
    case Misdeed::HostLoad: return "HostLoad";
    case Misdeed::HostStore: return "HostStore";
    case Misdeed::HostCall: return "HostCall";
    case Misdeed::StackOverflow: return "StackOverflow";
    case Misdeed::Spin: return "Spin";
    }
    return "?";
}

class DeviceProcessTest : public MetalTest {
protected:
    static void SetUpTestSuite() { library_ = compile(kKernels); }
    static void TearDownTestSuite() {
        if (library_) library_->release();
        library_ = nullptr;
    }

    static iso::DeviceProcess* deviceProcess() { return iso::DeviceProcess::forExecution(); }

    /// Encodes `kernel` over `threads` threads with `buffer` at index 0 into a new command
    /// buffer, commits it and waits.
    MTL::CommandBuffer* runKernel(MTL::ComputePipelineState* state, MTL::Buffer* buffer, unsigned threads,
                                  MTL::CommandQueue* queue = nullptr) {
        MTL::CommandBuffer* commands = (queue ? queue : queue_)->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(buffer, 0, 0);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(std::min(threads, 32u), 1, 1));
        encoder->endEncoding();
        commands->commit();
        commands->waitUntilCompleted();
        return commands;
    }

    /// Runs add_one over 1000 ints and checks every one and the canary after them.
    void expectWorkingCommandBuffer() {
        MTL::ComputePipelineState* state = pipeline(library_, "add_one", false);
        ASSERT_NE(state, nullptr);
        MTL::Buffer* data = device_->newBuffer(1001 * sizeof(int), MTL::ResourceStorageModeShared);
        int* values = static_cast<int*>(data->contents());
        for (int i = 0; i < 1000; ++i) values[i] = i;
        values[1000] = 0x5eed;
        MTL::CommandBuffer* commands = runKernel(state, data, 1000);
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted)
            << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
        for (int i = 0; i < 1000; ++i) ASSERT_EQ(values[i], i + 1) << i;
        EXPECT_EQ(values[1000], 0x5eed);
        data->release();
        state->release();
    }

    inline static MTL::Library* library_ = nullptr;
};

// Test that kernels run in a device process here (this program does not set
// METALCPU_ISOLATION, and this machine can start one), which is confined.
TEST_F(DeviceProcessTest, KernelsRunInAConfinedDeviceProcess) {
    expectWorkingCommandBuffer();
    iso::DeviceProcess* process = deviceProcess();
    ASSERT_NE(process, nullptr);
    const pid_t pid = process->pid();
    ASSERT_GT(pid, 0);
    EXPECT_NE(pid, getpid());
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::stringstream content;
    content << status.rdbuf();
    EXPECT_NE(content.str().find("NoNewPrivs:\t1"), std::string::npos) << content.str();
    EXPECT_NE(content.str().find("Seccomp:\t2"), std::string::npos) << content.str();
}

/// (what goes wrong, shader validation on).
using MisdeedCase = std::tuple<Misdeed, bool>;

class DeviceProcessFaults : public DeviceProcessTest, public ::testing::WithParamInterface<MisdeedCase> {};

// Test that each kind of fault or hang ends its command buffer with Metal's error (or, where
// shader validation catches the access first, with a report and a completed command buffer),
// that the program's memory and files are untouched, and that the next command buffer runs
// normally in a new device process.
TEST_P(DeviceProcessFaults, EndTheCommandBufferAndTheNextOneRuns) {
    const auto [misdeed, validated] = GetParam();
    expectWorkingCommandBuffer();
    ASSERT_NE(deviceProcess(), nullptr);
    const std::uint64_t generation = deviceProcess()->generation();

    static std::uint64_t hostWord = 0x1234;
    hostWord = 0x1234;
    const char* kernel = "store_through";
    unsigned threads = 1;
    std::uint64_t address = 0;
    switch (misdeed) {
    case Misdeed::WildStore: address = 0x10; break;
    case Misdeed::HostLoad: kernel = "load_through"; address = reinterpret_cast<std::uint64_t>(&hostWord); break;
    case Misdeed::HostStore: address = reinterpret_cast<std::uint64_t>(&hostWord); break;
    case Misdeed::HostCall: kernel = "call_through"; address = reinterpret_cast<std::uint64_t>(&system); break;
    case Misdeed::StackOverflow: kernel = "overflow"; break;
    case Misdeed::Spin: kernel = "spin"; break;
    }
    std::remove("/tmp/metalcpu-isolation-planted");
    MTL::ComputePipelineState* state = pipeline(library_, kernel, validated);
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffer = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    auto* words = static_cast<std::uint64_t*>(buffer->contents());
    words[0] = address;
    words[1] = 0;
    MTL::CommandBuffer* commands = runKernel(state, buffer, threads);

    // What validation catches: an access through an address read from memory is checked
    // against the buffers it could be in, reported and dropped.
    const bool caughtByValidation =
        validated && (misdeed == Misdeed::WildStore || misdeed == Misdeed::HostLoad || misdeed == Misdeed::HostStore);
    if (caughtByValidation) {
        EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        EXPECT_EQ(deviceProcess()->generation(), generation) << "the device process was replaced";
    } else {
        ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
        NS::Error* error = commands->error();
        ASSERT_NE(error, nullptr);
        const std::string message = text(error->localizedDescription());
        EXPECT_EQ(text(error->domain()), "MTLCommandBufferErrorDomain");
        EXPECT_NE(message.find(kernel), std::string::npos) << message;
        switch (misdeed) {
        case Misdeed::StackOverflow:
            EXPECT_EQ(error->code(), MTL::CommandBufferErrorStackOverflow) << message;
            break;
        case Misdeed::Spin:
            EXPECT_EQ(error->code(), MTL::CommandBufferErrorTimeout) << message;
            EXPECT_NE(message.find("kIOGPUCommandBufferCallbackErrorTimeout"), std::string::npos) << message;
            break;
        default:
            EXPECT_EQ(error->code(), MTL::CommandBufferErrorPageFault) << message;
            EXPECT_NE(message.find("kIOGPUCommandBufferCallbackErrorPageFault"), std::string::npos) << message;
        }
    }
    EXPECT_EQ(hostWord, 0x1234u);
    if (misdeed == Misdeed::HostLoad) {
        EXPECT_EQ(words[1], 0u) << "the kernel read the program's memory";
    }
    struct stat planted{};
    EXPECT_NE(stat("/tmp/metalcpu-isolation-planted", &planted), 0) << "the kernel ran a command";
    buffer->release();
    state->release();
    expectWorkingCommandBuffer();
}

INSTANTIATE_TEST_SUITE_P(Misdeeds, DeviceProcessFaults,
                         ::testing::Combine(::testing::Values(Misdeed::WildStore, Misdeed::HostLoad,
                                                              Misdeed::HostStore, Misdeed::HostCall,
                                                              Misdeed::StackOverflow, Misdeed::Spin),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<MisdeedCase>& info) {
                             return std::string(nameOf(std::get<0>(info.param))) +
                                    (std::get<1>(info.param) ? "_validated" : "_plain");
                         });

// Test that a vector store through a misaligned pointer, which x86-64 refuses with a
// general-protection fault that has no address, fails its command buffer with a message that
// names the likely cause instead of "address 0x0".
TEST_F(DeviceProcessTest, MisalignedVectorStoreNamesTheCause) {
    MTL::ComputePipelineState* state = pipeline(library_, "misaligned_float4", false);
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffer = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    static_cast<float*>(buffer->contents())[15] = 1.0f;
    MTL::CommandBuffer* commands = runKernel(state, buffer, 1);
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
    ASSERT_NE(commands->error(), nullptr);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorPageFault) << message;
    EXPECT_NE(message.find("a vector type accessed through a pointer not aligned to it"), std::string::npos) << message;
    buffer->release();
    state->release();
    expectWorkingCommandBuffer();
}

class DeviceProcessValidatedTest : public DeviceProcessTest, public ::testing::WithParamInterface<bool> {};

// Test that a float4 argument bound at an offset that is not a multiple of 16, which the
// debug layer rejects and Apple's GPUs tolerate, fails with a message naming the argument and
// its offset when its aligned vector access faults, with or without shader validation
// (shader validation is no worse than the plain run: both access the float4 as the type says).
TEST_P(DeviceProcessValidatedTest, MisalignedFloat4ArgumentIsNamedInTheFault) {
    MTL::ComputePipelineState* state = pipeline(library_, "scale_float4", GetParam());
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffer = device_->newBuffer(4096, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(buffer, 4, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1)); // one thread: no vector loop
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorPageFault) << message;
    EXPECT_NE(message.find("argument 'v' [[buffer(0)]] is bound at offset 4, which is not a multiple of 16"),
              std::string::npos)
        << message;
    buffer->release();
    state->release();
    expectWorkingCommandBuffer();
}

INSTANTIATE_TEST_SUITE_P(Flavours, DeviceProcessValidatedTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "validated" : "plain"; });

// Test that a kernel touching a threadgroup argument whose length was never set faults with a
// message naming the argument and the missing setThreadgroupMemoryLength, as a missing
// buffer's fault names the buffer.
TEST_F(DeviceProcessTest, MissingThreadgroupLengthIsNamedInTheFault) {
    MTL::ComputePipelineState* state = pipeline(library_, "uses_threadgroup_argument", false);
    ASSERT_NE(state, nullptr);
    MTL::Buffer* buffer = device_->newBuffer(4096, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commands = runKernel(state, buffer, 33);
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorPageFault) << message;
    EXPECT_NE(message.find("argument 'scratch' [[threadgroup(0)]] has no threadgroup memory "
                           "(setThreadgroupMemoryLength was not called for index 0)"),
              std::string::npos)
        << message;
    buffer->release();
    state->release();
    expectWorkingCommandBuffer();
}

/// (the index of the buffer read past, whether threadgroup memory is set, threads).
using ReadPastCase = std::tuple<unsigned, bool, unsigned>;

class DeviceProcessReadPast : public DeviceProcessTest, public ::testing::WithParamInterface<ReadPastCase> {
protected:
    /// The message of read_past's command buffer when it reads `reach` floats past the start
    /// of buffer `which` (1 or 2) of four buffers of 4096 bytes; empty if it did not fail.
    std::string readPast(unsigned which, std::uint64_t reach, bool threadgroupMemory, unsigned threads) {
        MTL::ComputePipelineState* state = pipeline(library_, "read_past", false);
        EXPECT_NE(state, nullptr);
        if (!state) return {};
        MTL::Buffer* buffers[4];
        for (MTL::Buffer*& buffer : buffers) buffer = device_->newBuffer(4096, MTL::ResourceStorageModeShared);
        const std::uint64_t parameters[2] = {reach, which};
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        for (unsigned i = 0; i < 4; ++i) encoder->setBuffer(buffers[i], 0, i);
        encoder->setBytes(parameters, sizeof parameters, 4);
        if (threadgroupMemory) encoder->setThreadgroupMemoryLength(64 * sizeof(float), 0);
        encoder->dispatchThreads(MTL::Size(threads, 1, 1), MTL::Size(std::min(threads, 32u), 1, 1));
        encoder->endEncoding();
        commands->commit();
        commands->waitUntilCompleted();
        std::string message;
        if (commands->status() == MTL::CommandBufferStatusError) {
            EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorPageFault);
            message = text(commands->error()->localizedDescription());
        }
        for (MTL::Buffer* buffer : buffers) buffer->release();
        state->release();
        return message;
    }
};

// Test that a kernel reading past the end of buffer N (into the free granule after its 16 KiB)
// faults with a message naming that argument and how far past its end the address is, not
// the untouched threadgroup argument, whether or not it has memory.
TEST_P(DeviceProcessReadPast, TheBufferReadPastIsNamed) {
    const auto [which, threadgroupMemory, threads] = GetParam();
    const std::string argument = which == 1 ? "argument 'b' [[buffer(1)]]" : "argument 'c' [[buffer(2)]]";
    // 16 KiB + 4 bytes past the buffer's start: 12292 bytes past its 4096-byte end for thread 0.
    const std::string message = readPast(which, 4097, threadgroupMemory, threads);
    ASSERT_FALSE(message.empty()) << "the read past the buffer did not fault";
    EXPECT_NE(message.find("; the address is "), std::string::npos) << message;
    EXPECT_NE(message.find(" bytes past the end of " + argument + " (a buffer of 4096 bytes, bound at offset 0)"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("scratch"), std::string::npos) << message;
    expectWorkingCommandBuffer();
}

INSTANTIATE_TEST_SUITE_P(Cases, DeviceProcessReadPast,
                         ::testing::Combine(::testing::Values(1u, 2u), ::testing::Bool(), ::testing::Values(1u, 33u)),
                         [](const ::testing::TestParamInfo<ReadPastCase>& info) {
                             return "buffer" + std::to_string(std::get<0>(info.param)) +
                                    (std::get<1>(info.param) ? "_threadgroupMemory" : "_noThreadgroupMemory") +
                                    "_threads" + std::to_string(std::get<2>(info.param));
                         });

// Test that a fault far from every argument's memory (64 GiB past a buffer, in the arena where
// nothing is allocated) is charged to no argument, the threadgroup argument without memory
// included, and the message says so.
TEST_F(DeviceProcessReadPast, AnAddressNearNoArgumentIsChargedToNone) {
    const std::string message = readPast(1, std::uint64_t(16) << 30, false, 1);
    ASSERT_FALSE(message.empty()) << "the read far past the buffer did not fault";
    EXPECT_NE(message.find("the address is in no argument's memory nor within 16 KiB past it, so no argument is "
                           "charged with it"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find("scratch"), std::string::npos) << message;
    EXPECT_EQ(message.find("past the end of"), std::string::npos) << message;
    expectWorkingCommandBuffer();
}

// MLX sort.h's merge step before its pull request #2506: the value-only sort loads a dropped
// index through a null threadgroup pointer. A GPU reads its group's memory there; split into
// work items, where the value waits out the barrier in a slot, the load faults at address 0,
// and the command buffer's error says what a null threadgroup pointer is. (In the program's
// own process, METALCPU_ISOLATION=none, the fault would end the program: no test there.)
const char* const kNullThreadgroupLoad = R"(
#include <metal_stdlib>
using namespace metal;
void merge_step(const threadgroup float* as, const threadgroup uint* as_idx, thread float (&vals)[2],
                thread uint (&idxs)[2]) {
    for (short k = 0; k < 2; ++k) {
        vals[k] = as[k];
        idxs[k] = as_idx[k];
    }
}
kernel void null_threadgroup_indices(device float* out [[buffer(0)]], device const float* in [[buffer(1)]],
                                     uint i [[thread_position_in_grid]], uint l [[thread_position_in_threadgroup]]) {
    threadgroup float vals[2 * 64];
    vals[2 * l] = in[i];
    vals[2 * l + 1] = in[i] + 1.0f;
    thread float mine[2];
    thread uint mine_idx[2];
    threadgroup_barrier(mem_flags::mem_threadgroup);
    const threadgroup uint* idx = nullptr;
    merge_step(vals + 2 * l, idx, mine, mine_idx);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    out[i] = mine[0] + mine[1];
}
)";

TEST_F(DeviceProcessTest, LoadThroughANullThreadgroupPointerSaysWhatItIs) {
    MTL::ComputePipelineState* state = pipeline(kNullThreadgroupLoad, "null_threadgroup_indices");
    ASSERT_NE(state, nullptr);
    GuardedBuffer out(device_, 64 * 4), in(device_, 64 * 4);
    MTL::CommandBuffer* commandBuffer = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    out.bind(encoder, 0);
    in.bind(encoder, 1);
    encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(32, 1, 1));
    encoder->endEncoding();
    ASSERT_EQ(run(commandBuffer), MTL::CommandBufferStatusError);
    const std::string error = text(commandBuffer->error()->localizedDescription());
    EXPECT_NE(error.find("a threadgroup pointer made from nullptr is one"), std::string::npos) << error;
    state->release();
    expectWorkingCommandBuffer();
}

/// Waits until the spin kernel's counter in `buffer` moves: the kernel is running (a fatal
/// failure when it does not within a minute).
void awaitSpinning(MTL::Buffer* buffer) {
    auto* counter = static_cast<volatile std::uint32_t*>(buffer->contents());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (*counter == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_NE(*counter, 0u) << "the spin kernel did not start";
}

// Test that a device process killed from outside while a command buffer runs ends that
// command buffer with an error saying so, and that the next one runs in a new process.
TEST_F(DeviceProcessTest, KilledFromOutsideMidCommandBuffer) {
    expectWorkingCommandBuffer();
    MTL::ComputePipelineState* state = pipeline(library_, "spin", false);
    ASSERT_NE(state, nullptr);
    MTL::Buffer* counter = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(counter, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    commands->commit();
    ASSERT_NO_FATAL_FAILURE(awaitSpinning(counter));
    const pid_t pid = deviceProcess()->pid();
    ASSERT_GT(pid, 0);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    commands->waitUntilCompleted();
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_EQ(commands->error()->code(), MTL::CommandBufferErrorInternal);
    EXPECT_NE(message.find("killed by SIGKILL"), std::string::npos) << message;
    counter->release();
    state->release();
    expectWorkingCommandBuffer();
    EXPECT_NE(deviceProcess()->pid(), pid);
}

// Test that a command buffer running on another queue when a kernel faults is discarded as
// a victim of that fault, in Apple's words, and the program goes on.
TEST_F(DeviceProcessTest, OtherQueuesWorkIsDiscardedAsAVictim) {
    expectWorkingCommandBuffer();
    MTL::ComputePipelineState* spinning = pipeline(library_, "spin", false);
    MTL::ComputePipelineState* faulting = pipeline(library_, "store_through", false);
    ASSERT_NE(spinning, nullptr);
    ASSERT_NE(faulting, nullptr);
    MTL::CommandQueue* other = device_->newCommandQueue();
    MTL::Buffer* counter = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    MTL::CommandBuffer* victim = other->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = victim->computeCommandEncoder();
    encoder->setComputePipelineState(spinning);
    encoder->setBuffer(counter, 0, 0);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    victim->commit();
    ASSERT_NO_FATAL_FAILURE(awaitSpinning(counter));

    MTL::Buffer* wild = device_->newBuffer(64, MTL::ResourceStorageModeShared);
    static_cast<std::uint64_t*>(wild->contents())[0] = 0x10;
    MTL::CommandBuffer* culprit = runKernel(faulting, wild, 1);
    victim->waitUntilCompleted();
    EXPECT_EQ(culprit->error() ? culprit->error()->code() : 0, MTL::CommandBufferErrorPageFault);
    ASSERT_EQ(victim->status(), MTL::CommandBufferStatusError);
    const std::string message = text(victim->error()->localizedDescription());
    EXPECT_NE(message.find("kIOGPUCommandBufferCallbackErrorInnocentVictim"), std::string::npos) << message;
    wild->release();
    counter->release();
    other->release();
    faulting->release();
    spinning->release();
    expectWorkingCommandBuffer();
}

// Test that many queues committing from many threads at once lose no completion: every
// command buffer completes, its handler runs once, and every result is right.
TEST_F(DeviceProcessTest, ManyQueuesAndThreadsLoseNoCompletion) {
    MTL::ComputePipelineState* state = pipeline(library_, "add_one", false);
    ASSERT_NE(state, nullptr);
    constexpr int kThreads = 6, kCommandBuffers = 60;
    std::atomic<int> handled{0}, wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
            MTL::CommandQueue* queue = device_->newCommandQueue();
            MTL::Buffer* data = device_->newBuffer(256 * sizeof(int), MTL::ResourceStorageModeShared);
            int* values = static_cast<int*>(data->contents());
            for (int i = 0; i < 256; ++i) values[i] = t * 1000 + i;
            MTL::CommandBuffer* last = nullptr;
            for (int n = 0; n < kCommandBuffers; ++n) {
                MTL::CommandBuffer* commands = queue->commandBuffer();
                MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
                encoder->setComputePipelineState(state);
                encoder->setBuffer(data, 0, 0);
                encoder->dispatchThreads(MTL::Size(256, 1, 1), MTL::Size(64, 1, 1));
                encoder->endEncoding();
                commands->addCompletedHandler([&](MTL::CommandBuffer* done) {
                    if (done->status() != MTL::CommandBufferStatusCompleted) ++wrong;
                    ++handled;
                });
                commands->commit();
                last = commands;
            }
            last->waitUntilCompleted();
            for (int i = 0; i < 256; ++i)
                if (values[i] != t * 1000 + i + kCommandBuffers) ++wrong;
            data->release();
            queue->release();
            pool->release();
        });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(handled.load(), kThreads * kCommandBuffers);
    EXPECT_EQ(wrong.load(), 0);
    state->release();
}

using DeviceProcessTimeout = DeviceProcessTest;

// Test that METALCPU_GPU_TIMEOUT (2 s here) counts only the time kernels run: a command
// buffer that first waits 3 s for an event the program signals is not stopped as a hang.
TEST_F(DeviceProcessTimeout, WaitingForAnEventIsNotRunTime) {
    MTL::ComputePipelineState* state = pipeline(library_, "add_one", false);
    ASSERT_NE(state, nullptr);
    MTL::SharedEvent* event = device_->newSharedEvent();
    MTL::Buffer* data = device_->newBuffer(64 * sizeof(int), MTL::ResourceStorageModeShared);
    int* values = static_cast<int*>(data->contents());
    for (int i = 0; i < 64; ++i) values[i] = i;
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    commands->encodeWait(event, 1);
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(data, 0, 0);
    encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(64, 1, 1));
    encoder->endEncoding();
    commands->commit();
    std::this_thread::sleep_for(std::chrono::seconds(3));
    event->setSignaledValue(1);
    commands->waitUntilCompleted();
    EXPECT_EQ(commands->status(), MTL::CommandBufferStatusCompleted)
        << text(commands->error() ? commands->error()->localizedDescription() : nullptr);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(values[i], i + 1) << i;
    data->release();
    event->release();
    state->release();
}

// Test that once the memory shared with the device process is full, new buffers fail as
// Metal's do (nil, and a bytesNoCopy buffer too, whose copy would be there), and setBytes
// fails its command buffer, instead of memory the kernels cannot reach; and that all works
// again once buffers are released.
TEST_F(DeviceProcessTest, AFullArenaRefusesBuffersInsteadOfUsingOtherMemory) {
    expectWorkingCommandBuffer();
    iso::SharedArena* arena = iso::SharedArena::host();
    ASSERT_NE(arena, nullptr);
    const std::uint64_t length = device_->maxBufferLength();
    std::vector<MTL::Buffer*> buffers;
    const std::uint64_t enough = arena->bytes() / length + 2;
    while (buffers.size() < enough) {
        MTL::Buffer* buffer = device_->newBuffer(length, MTL::ResourceStorageModeShared);
        if (!buffer) break;
        buffers.push_back(buffer);
    }
    EXPECT_LT(buffers.size(), enough) << "buffers beyond the arena were made elsewhere";
    // Fill the rest with small buffers, down to the last granule.
    for (std::uint64_t size = length / 2; size >= 16384; size /= 2)
        while (MTL::Buffer* buffer = device_->newBuffer(size, MTL::ResourceStorageModeShared)) buffers.push_back(buffer);
    EXPECT_EQ(device_->newBuffer(64, MTL::ResourceStorageModeShared), nullptr);
    alignas(16384) static int memory[4096];
    EXPECT_EQ(device_->newBuffer(memory, sizeof memory, MTL::ResourceStorageModeShared, nullptr), nullptr);

    MTL::ComputePipelineState* state = pipeline(library_, "add_one", false);
    ASSERT_NE(state, nullptr);
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    int values[4] = {1, 2, 3, 4};
    encoder->setBytes(values, sizeof values, 0);
    encoder->dispatchThreads(MTL::Size(4, 1, 1), MTL::Size(4, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusError);
    const std::string message = text(commands->error()->localizedDescription());
    EXPECT_NE(message.find("setBytes"), std::string::npos) << message;

    for (MTL::Buffer* buffer : buffers) buffer->release();
    state->release();
    expectWorkingCommandBuffer();
}

// Test that a buffer over the program's own memory (bytesNoCopy) is seen by kernels and gets
// their results back when its command buffer completes.
TEST_F(DeviceProcessTest, BytesNoCopyBuffersAreStaged) {
    MTL::ComputePipelineState* state = pipeline(library_, "add_one", false);
    ASSERT_NE(state, nullptr);
    alignas(16384) static int memory[4096 + 1];
    std::vector<int> expected(4096);
    for (int i = 0; i < 4096; ++i) memory[i] = expected[i] = 3 * i;
    memory[4096] = 0x5eed;
    MTL::Buffer* buffer = device_->newBuffer(memory, 4096 * sizeof(int), MTL::ResourceStorageModeShared, nullptr);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(buffer->contents(), memory);
    for (int round = 0; round < 3; ++round) {
        MTL::CommandBuffer* commands = runKernel(state, buffer, 4096);
        ASSERT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
        for (int i = 0; i < 4096; ++i) ASSERT_EQ(memory[i], ++expected[i]) << i;
        // A change the program makes between command buffers is seen by the next one.
        memory[7] += 100;
        expected[7] += 100;
    }
    EXPECT_EQ(memory[4096], 0x5eed);
    buffer->release();
    state->release();
}

// Test that a bytesNoCopy buffer that kernels reach only through an address in another buffer
// (an argument buffer) is staged when the encoder names it with useResource: each command
// buffer sees the program's changes and gives the kernel's writes back. Textures and tensors
// over such a buffer take the same path (memoryOf in compute_command_encoder.cpp).
TEST_F(DeviceProcessTest, ResourcesNamedByUseResourceAreStaged) {
    MTL::ComputePipelineState* state = pipeline(library_, "add_one_through", false);
    ASSERT_NE(state, nullptr);
    alignas(16384) static int memory[256 + 1];
    std::vector<int> expected(256);
    for (int i = 0; i < 256; ++i) memory[i] = expected[i] = 5 * i;
    memory[256] = 0x5eed;
    MTL::Buffer* data = device_->newBuffer(memory, 256 * sizeof(int), MTL::ResourceStorageModeShared, nullptr);
    MTL::Buffer* table = device_->newBuffer(sizeof(std::uint64_t), MTL::ResourceStorageModeShared);
    ASSERT_NE(data, nullptr);
    ASSERT_NE(table, nullptr);
    *static_cast<std::uint64_t*>(table->contents()) = data->gpuAddress();
    for (int round = 0; round < 3; ++round) {
        MTL::CommandBuffer* commands = queue_->commandBuffer();
        MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
        encoder->setComputePipelineState(state);
        encoder->setBuffer(table, 0, 0);
        const MTL::Resource* used[] = {data};
        if (round == 1) encoder->useResources(used, 1, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
        else encoder->useResource(data, MTL::ResourceUsageRead | MTL::ResourceUsageWrite);
        encoder->dispatchThreads(MTL::Size(256, 1, 1), MTL::Size(64, 1, 1));
        encoder->endEncoding();
        commands->commit();
        commands->waitUntilCompleted();
        ASSERT_EQ(commands->status(), MTL::CommandBufferStatusCompleted) << round;
        for (int i = 0; i < 256; ++i) ASSERT_EQ(memory[i], ++expected[i]) << "round " << round << ", int " << i;
        memory[9] += 100; // the next command buffer sees it
        expected[9] += 100;
    }
    EXPECT_EQ(memory[256], 0x5eed);
    table->release();
    data->release();
    state->release();
}

// Test that a bytesNoCopy buffer is copied in when the first command that uses it runs, after
// the event waits before it (the program's writes until then are seen), and that one kernels
// only read is not copied back (the program's writes while the command buffer ran stay).
TEST_F(DeviceProcessTest, StagingFollowsEventWaitsAndCopiesBackOnlyWrites) {
    MTL::ComputePipelineState* state = pipeline(library_, "copy_ints", false);
    ASSERT_NE(state, nullptr);
    alignas(16384) static int memory[64];
    for (int i = 0; i < 64; ++i) memory[i] = i;
    MTL::Buffer* in = device_->newBuffer(memory, sizeof memory, MTL::ResourceStorageModeShared, nullptr);
    MTL::Buffer* out = device_->newBuffer(sizeof memory, MTL::ResourceStorageModeShared);
    ASSERT_NE(in, nullptr);
    MTL::SharedEvent* event = device_->newSharedEvent();
    MTL::CommandBuffer* commands = queue_->commandBuffer();
    commands->encodeWait(event, 1);
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(in, 0, 0);
    encoder->setBuffer(out, 0, 1);
    encoder->dispatchThreads(MTL::Size(64, 1, 1), MTL::Size(16, 1, 1));
    encoder->endEncoding();
    commands->encodeSignalEvent(event, 2);
    commands->encodeWait(event, 3);
    commands->commit();

    memory[0] = 100; // before the kernel's wait ends
    event->setSignaledValue(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (event->signaledValue() < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_EQ(event->signaledValue(), 2u);
    memory[1] = 200; // after the kernel read it, before the command buffer ends
    event->setSignaledValue(3);
    commands->waitUntilCompleted();
    ASSERT_EQ(commands->status(), MTL::CommandBufferStatusCompleted);
    const int* copied = static_cast<const int*>(out->contents());
    EXPECT_EQ(copied[0], 100);
    for (int i = 1; i < 64; ++i) ASSERT_EQ(copied[i], i) << i;
    EXPECT_EQ(memory[1], 200) << "the copy back undid the program's write";
    event->release();
    out->release();
    in->release();
    state->release();
}

} // namespace
} // namespace metalcpu::testing
