// The device process (docs/architecture.md, "The device process"): started by a host program
// with its control socket at descriptor 3, it maps the host's buffer memory at the host's
// addresses, confines itself, and then runs the dispatches the host sends until the host
// goes away.
#include "device/dispatch_runner.h"
#include "device/fault_handler.h"
#include "device/library_table.h"
#include "device/sandbox.h"
#include "exec/executor.h"
#include "isolation/control.h"
#include "isolation/shared_arena.h"
#include "isolation/wire.h"
#include "validation/allocations.h"

#include <csignal>
#include <cstring>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace metalcpu::device {
namespace {

using iso::ControlRequest;

iso::ArenaDirectory g_directory;

/// Shader validation's view of the host's buffers: the allocation at or below an address,
/// labelled with a marker the host replaces with the buffer's label.
std::optional<val::AllocationRegistry::Allocation> hostAllocation(std::uint64_t address) {
    iso::ArenaDirectory::Allocation found;
    if (!g_directory.findAtOrBelow(address, &found)) return std::nullopt;
    val::AllocationRegistry::Allocation allocation;
    allocation.begin = found.begin;
    allocation.length = found.length;
    // Made only when a report needs it; the capture fits std::function without allocating.
    allocation.label = [begin = found.begin] { return iso::allocationLabel(begin); };
    return allocation;
}

std::vector<std::uint8_t> answer(bool ok, const std::string& why) {
    iso::Writer out;
    out.value(static_cast<std::uint8_t>(ok));
    out.string(why);
    return std::move(out.bytes());
}

/// Maps what the hello hands over and confines the process; the answer to the hello.
std::vector<std::uint8_t> begin(iso::Reader& in, const std::vector<int>& descriptors) {
    iso::Writer out;
    auto refuse = [&](const std::string& why) {
        out.value(std::uint8_t(0));
        out.value(std::int32_t(0));
        out.value(std::uint8_t(0));
        out.string("");
        out.string(why);
        return std::move(out.bytes());
    };
    const auto version = in.value<std::uint32_t>();
    const auto base = in.value<std::uint64_t>();
    const auto bytes = in.value<std::uint64_t>();
    const auto directoryBytes = in.value<std::uint64_t>();
    if (!in.atEnd() || descriptors.size() != 3) return refuse("malformed hello");
    if (version != iso::kControlProtocolVersion) return refuse("another version of metalcpu");
    // The host's buffers, at the host's addresses; no page is usable before the fault
    // handler finds it in a live allocation (so the free granules between buffers fault).
    void* arena = mmap(reinterpret_cast<void*>(base), bytes, PROT_NONE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                       descriptors[0], 0);
    if (arena != reinterpret_cast<void*>(base))
        return refuse(std::string("the buffers' address range is taken in the device process: ") + std::strerror(errno));
    void* directory = mmap(nullptr, directoryBytes, PROT_READ, MAP_SHARED | MAP_NORESERVE, descriptors[1], 0);
    void* record = mmap(nullptr, iso::kFaultRecordBytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptors[2], 0);
    if (directory == MAP_FAILED || record == MAP_FAILED) return refuse(std::string("mmap: ") + std::strerror(errno));
    for (int descriptor : descriptors) close(descriptor);
    g_directory = iso::ArenaDirectory(directory, base, bytes / iso::kArenaGranule);
    installFaultHandlers(&g_directory, static_cast<iso::FaultRecord*>(record));
    val::AllocationRegistry::shared().setExternalFinder(&hostAllocation);

    SandboxReport report;
    std::string why;
    if (!enterSandbox(&report, &why)) return refuse("cannot confine itself: " + why);
    // Without Landlock the filter allows no open at all, and kernel libraries are loaded
    // through /proc/self/fd: such a device process could run nothing (sandbox.h).
    if (report.landlockAbi == 0)
        return refuse("this Linux kernel has no Landlock, without which a confined device process cannot load "
                      "kernels without also reaching the user's files");
    exec::Executor::setThreadStartHook(&giveThreadSignalStack);
    out.value(std::uint8_t(1));
    out.value(static_cast<std::int32_t>(report.landlockAbi));
    out.value(static_cast<std::uint8_t>(report.seccomp));
    out.string(report.missing);
    out.string("");
    return std::move(out.bytes());
}

int serve() {
    const int control = iso::kControlDescriptor;
    LibraryTable libraries;
    std::vector<std::uint8_t> message;
    std::vector<int> descriptors;
    bool started = false;
    while (iso::receiveControl(control, message, descriptors)) {
        iso::Reader in(message);
        const auto request = static_cast<ControlRequest>(in.value<std::uint32_t>());
        std::vector<std::uint8_t> reply;
        if (!started && request != ControlRequest::Hello) {
            reply = answer(false, "no hello yet");
        } else if (request == ControlRequest::Hello) {
            reply = begin(in, descriptors);
            started = reply.size() > 0 && reply[0] == 1;
            descriptors.clear();
        } else if (request == ControlRequest::LoadLibrary && descriptors.size() == 1) {
            const auto id = in.value<iso::LibraryId>();
            const std::string path = in.string();
            std::string why;
            const bool loaded = in.atEnd() && libraries.load(id, descriptors[0], path, &why);
            descriptors.clear(); // the table owns it now, loaded or not
            reply = answer(loaded, why);
        } else if (request == ControlRequest::UnloadLibrary) {
            libraries.unload(in.value<iso::LibraryId>());
            reply = answer(true, "");
        } else if (request == ControlRequest::OpenChannel && descriptors.size() == 1) {
            std::string why;
            std::optional<iso::Channel> channel = iso::Channel::attach(descriptors[0], &why);
            descriptors.clear();
            if (channel) std::thread(serveChannel, std::move(*channel), std::cref(libraries)).detach();
            reply = answer(channel.has_value(), why);
        } else {
            reply = answer(false, "unknown request");
        }
        for (int descriptor : descriptors) close(descriptor);
        if (!iso::sendControl(control, reply)) break;
        if (request == ControlRequest::Hello && !started) break;
    }
    // The host is gone (or refused): so is the device process, whatever its threads do.
    _exit(0);
}

} // namespace
} // namespace metalcpu::device

int main() {
    // Descriptor 4 holds this program (the host started it from there).
    close(metalcpu::iso::kControlDescriptor + 1);
    signal(SIGPIPE, SIG_IGN);
    rlimit noCore{0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    return metalcpu::device::serve();
}
