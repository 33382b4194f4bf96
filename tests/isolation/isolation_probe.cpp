// Runs one kernel and prints how it went, for isolation_modes_test: the isolation mode is read
// once per process, so each mode needs a process of its own.
//   isolation_probe [--deny-processes | --scan-stack]
// --deny-processes: once the kernel is compiled, this process may start no other (as where a
// sandbox forbids it), so no device process can start.
// --scan-stack: a kernel copies up to 8192 words of its thread's stack, above its own frame,
// into a buffer; the probe says whether it saw the address of the command buffer running it
// (which the thread running the buffer holds on its stack while the kernel runs in the
// program's process: the queue's thread, or the thread waiting for it, which may run it
// itself). In the program's process the copy stops at the end of the mapping that holds the
// kernel's frame, which may be less than 8192 words above it (reading past it would crash the
// probe): the kernel is given every mapping of the program, since which thread runs it is
// known only once it runs.
#include "isolation/device_process.h"

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <seccomp.h>
#include <sched.h>
#include <string>
#include <vector>

namespace {

const char* const kSource = R"(
#include <metal_stdlib>
kernel void add_one(device int* data [[buffer(0)]], uint i [[thread_position_in_grid]]) { data[i] += 1; }
kernel void scan_stack(device ulong* out [[buffer(0)]], constant ulong* mappings [[buffer(1)]],
                       constant uint& mappingCount [[buffer(2)]]) {
    ulong local = 0;
    thread ulong* volatile frame = &local;
    const ulong address = ulong(frame);
    ulong words = 8192;
    for (uint m = 0; m < mappingCount; ++m)
        if (address >= mappings[2 * m] && address < mappings[2 * m + 1] && (mappings[2 * m + 1] - address) / 8 < words)
            words = (mappings[2 * m + 1] - address) / 8;
    for (uint i = 0; i < words; ++i) out[i] = frame[i];
}
)";

bool denyNewProcesses() {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (!filter) return false;
    // clone without CLONE_THREAD makes a process; clone3's flags cannot be seen, so it is
    // refused as unknown (glibc then uses clone).
    bool ok = seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) == 0 &&
              seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0 &&
              seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0) == 0 &&
              seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0) == 0 &&
              seccomp_load(filter) == 0;
    seccomp_release(filter);
    return ok;
}

} // namespace

/// Every mapping of this process as begin and end addresses, in a buffer.
MTL::Buffer* newMappingsBuffer(MTL::Device* device, unsigned* count) {
    std::vector<unsigned long long> bounds;
    if (FILE* maps = std::fopen("/proc/self/maps", "r")) {
        unsigned long long begin = 0, end = 0;
        char line[512];
        while (std::fgets(line, sizeof line, maps))
            if (std::sscanf(line, "%llx-%llx", &begin, &end) == 2) bounds.insert(bounds.end(), {begin, end});
        std::fclose(maps);
    }
    *count = static_cast<unsigned>(bounds.size() / 2);
    bounds.resize(bounds.size() + 2); // never an empty buffer
    return device->newBuffer(bounds.data(), bounds.size() * sizeof bounds[0], MTL::ResourceStorageModeShared);
}

/// Whether the scan_stack kernel, run on one thread in a command buffer of its own, sees that
/// command buffer's address on its stack.
bool stackShowsTheProgram(MTL::Device* device, MTL::Library* library, MTL::CommandQueue* queue) {
    MTL::Buffer* out = device->newBuffer(8192 * sizeof(unsigned long long), MTL::ResourceStorageModeShared);
    auto* words = static_cast<unsigned long long*>(out->contents());
    std::memset(words, 0, 8192 * sizeof(unsigned long long));
    unsigned count = 0;
    MTL::Buffer* mappings = newMappingsBuffer(device, &count);
    MTL::Function* function = library->newFunction(NS::String::string("scan_stack", NS::UTF8StringEncoding));
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* state = device->newComputePipelineState(function, &error);
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(out, 0, 0);
    encoder->setBuffer(mappings, 0, 1);
    encoder->setBytes(&count, sizeof count, 2);
    encoder->dispatchThreads(MTL::Size(1, 1, 1), MTL::Size(1, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    bool seen = false;
    for (int i = 0; i < 8192; ++i) seen = seen || words[i] == reinterpret_cast<unsigned long long>(commands);
    state->release();
    function->release();
    mappings->release();
    out->release();
    return seen;
}

int main(int argc, char** argv) {
    const bool deny = argc > 1 && std::string(argv[1]) == "--deny-processes";
    const bool scan = argc > 1 && std::string(argv[1]) == "--scan-stack";
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    NS::Error* error = nullptr;
    MTL::Library* library = device->newLibrary(NS::String::string(kSource, NS::UTF8StringEncoding), nullptr, &error);
    if (!library) {
        std::printf("compile failed\n");
        return 2;
    }
    MTL::Function* function = library->newFunction(NS::String::string("add_one", NS::UTF8StringEncoding));
    MTL::ComputePipelineState* state = device->newComputePipelineState(function, &error);
    if (deny && !denyNewProcesses()) {
        std::printf("cannot install the filter\n");
        return 2;
    }
    MTL::Buffer* data = device->newBuffer(100 * sizeof(int), MTL::ResourceStorageModeShared);
    int* values = static_cast<int*>(data->contents());
    for (int i = 0; i < 100; ++i) values[i] = i;
    MTL::CommandQueue* queue = device->newCommandQueue();
    MTL::CommandBuffer* commands = queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commands->computeCommandEncoder();
    encoder->setComputePipelineState(state);
    encoder->setBuffer(data, 0, 0);
    encoder->dispatchThreads(MTL::Size(100, 1, 1), MTL::Size(32, 1, 1));
    encoder->endEncoding();
    commands->commit();
    commands->waitUntilCompleted();
    bool right = true;
    for (int i = 0; i < 100; ++i) right = right && values[i] == i + 1;
    metalcpu::iso::DeviceProcess* process = metalcpu::iso::DeviceProcess::forExecution();
    const bool inDevice = process && process->pid() > 0;
    NS::Error* failure = commands->error();
    std::printf("status=%d result=%s device=%s error=%s\n", static_cast<int>(commands->status()),
                right ? "right" : "wrong", inDevice ? "yes" : "no",
                failure ? failure->localizedDescription()->utf8String() : "none");
    if (scan) std::printf("stack shows the program: %s\n", stackShowsTheProgram(device, library, queue) ? "yes" : "no");
    queue->release();
    data->release();
    state->release();
    function->release();
    library->release();
    device->release();
    pool->release();
    return 0;
}
