#include "isolation/device_process.h"

#include "isolation/channel.h"
#include "isolation/control.h"
#include "isolation/device_program.h"
#include "isolation/fault_record.h"
#include "isolation/shared_arena.h"
#include "isolation/wire.h"
#include "jit/kernel_library.h"
#include "support/config.h"
#include "support/log.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <set>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace metalcpu::iso {
namespace {

/// How long a new device process may take to say it is ready, and to answer a control
/// request: one that does not is stopped (a kernel may have broken it).
constexpr int kStartTimeoutMilliseconds = 20000;

/// Deaths remembered: a thread that saw its process end may look for the cause after the
/// next few processes started.
constexpr std::size_t kDeathsKept = 16;

int pidfdOpen(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }
int pidfdSendSignal(int pidfd, int signal) {
    return static_cast<int>(syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
}

std::string hex(std::uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

/// The environment a device process gets: what metalcpu and the libraries it uses read,
/// nothing else of the program's (a kernel could read it).
std::vector<std::string> deviceEnvironment() {
    std::vector<std::string> kept;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text = *entry;
        for (const char* prefix : {"METALCPU_", "MTL_", "TBB_", "LD_LIBRARY_PATH=", "ASAN_OPTIONS=", "UBSAN_OPTIONS=",
                                   "LSAN_OPTIONS="})
            if (text.rfind(prefix, 0) == 0) {
                kept.push_back(text);
                break;
            }
    }
    return kept;
}

const char* signalName(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGSYS: return "SIGSYS";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
    }
}

/// The channel of one host thread, opened in the device process of `generation`.
struct ThreadChannel {
    Channel channel;
    std::uint64_t generation = 0;
    explicit ThreadChannel(Channel made) : channel(std::move(made)) {}
};

} // namespace

Isolation configuredIsolation() {
    // Decided once (support/config.cpp checked the value): buffers made since depend on it.
    static const Isolation mode = [] {
        const std::string& value = support::config().isolation;
        if (value == "none") return Isolation::None;
        if (value == "process") return Isolation::Required;
        return Isolation::Preferred;
    }();
    return mode;
}

/// Why a device process ended (or, before it has, why the host stopped it).
struct Death {
    bool ended = false;
    bool faulted = false;
    /// What the fault record said, when faulted.
    struct Fault {
        int signal = 0;
        int code = 0; ///< its si_code
        bool stackOverflow = false;
        std::uint64_t address = 0;
        std::uint64_t requestTag = 0;
        std::uint32_t systemCall = 0;
        std::string kernel;
    } fault;
    std::uint64_t timedOutTag = 0; ///< the request whose deadline passed, when the host stopped it
    int status = 0;              ///< its wait status, when known
    bool statusKnown = false;
};

struct DeviceProcess::State {
    std::mutex mutex;
    pid_t pid = 0;
    int pidfd = -1;
    int control = -1;
    bool alive = false;
    std::uint64_t generation = 0;
    int faultFile = -1;
    FaultRecord* fault = nullptr;
    std::map<std::uint64_t, std::weak_ptr<jit::KernelLibrary>> libraries; ///< loaded in this generation
    std::set<ThreadChannel*> channels; ///< of every live host thread that ran a dispatch
    std::map<std::uint64_t, Death> deaths; ///< by generation, the last kDeathsKept
    std::atomic<std::uint64_t> nextTag{1};
    /// A start failed: in the Preferred mode the program stays in-process. Read without the
    /// mutex by forExecution().
    std::atomic<bool> unavailable{false};
    bool permanent = false; ///< a start failed in a way the next one would too
    bool forked = false;    ///< this is a child made by fork(): it may start none
    std::string unavailableWhy;

    bool start(std::string* why);
    bool startLocked(std::string* why);
    void watch(pid_t pid, int pidfd, std::uint64_t generation);
    void killProcess();
    bool request(const std::vector<std::uint8_t>& message, const std::vector<int>& descriptors, std::string* why);
    bool loadLibrary(const std::shared_ptr<jit::KernelLibrary>& library, std::string* why);
    DeviceFailure failureOf(std::uint64_t tag, std::uint64_t generation, const std::string& kernel);
    void stop(std::uint64_t generation, std::uint64_t timedOutTag);
};

namespace {

/// The calling thread's channel; its destructor (at thread exit) ends the device's thread.
struct ThreadChannelHolder {
    std::unique_ptr<ThreadChannel> channel;
    DeviceProcess::State* owner = nullptr;
    ~ThreadChannelHolder() {
        if (!channel) return;
        {
            std::lock_guard lock(owner->mutex);
            owner->channels.erase(channel.get());
        }
        channel->channel.close();
    }
};
thread_local ThreadChannelHolder t_channel;

} // namespace

DeviceProcess::DeviceProcess() : state_(new State) {}

namespace {

DeviceProcess::State* g_state = nullptr;

/// In a child made by fork(): the parent's device process, control socket and channels are
/// the parent's. The child may not use them, and starts none of its own (its memory is the
/// parent's arena, which a process of its own would share with the parent's).
void forgetParentsDeviceProcess() {
    DeviceProcess::State* state = g_state;
    if (!state) return;
    new (&state->mutex) std::mutex; // whatever the parent's threads held is gone
    // Closed, so that the device process ends with the parent, not with the last child.
    if (state->control >= 0) close(state->control);
    if (state->pidfd >= 0) close(state->pidfd);
    // The channels' memory is shared with the parent's threads: left mapped and never
    // touched again, their descriptors closed.
    for (ThreadChannel* channel : state->channels) close(channel->channel.file());
    state->alive = false;
    state->pid = 0;
    state->control = state->pidfd = -1;
    state->channels.clear();
    state->unavailable = state->forked = true;
    state->unavailableWhy = "a process made by fork() does not use its parent's device process";
    if (t_channel.channel) {
        (void)t_channel.channel.release();
        t_channel.owner = nullptr;
    }
}

} // namespace

DeviceProcess* DeviceProcess::forExecution() {
    const Isolation mode = configuredIsolation();
    if (mode == Isolation::None) return nullptr;
    static DeviceProcess* process = [] {
        auto* made = new DeviceProcess; // never destroyed: queues may run while statics go away
        g_state = made->state_;
        pthread_atfork(nullptr, nullptr, &forgetParentsDeviceProcess);
        return made;
    }();
    if (mode == Isolation::Preferred) {
        static const bool arena = SharedArena::host() != nullptr;
        if (!arena || process->state_->unavailable.load(std::memory_order_acquire)) return nullptr;
    }
    return process;
}

pid_t DeviceProcess::pid() const {
    std::lock_guard lock(state_->mutex);
    return state_->alive ? state_->pid : 0;
}

std::uint64_t DeviceProcess::generation() const {
    std::lock_guard lock(state_->mutex);
    return state_->generation;
}

bool DeviceProcess::State::start(std::string* why) {
    if (alive) return true;
    if (permanent) {
        *why = unavailableWhy;
        return false;
    }
    if (!startLocked(why)) {
        unavailable = true;
        unavailableWhy = *why;
        return false;
    }
    return true;
}

bool DeviceProcess::State::startLocked(std::string* why) {
    SharedArena* arena = SharedArena::host(why);
    const int program = arena ? deviceProgramFile(why) : -1;
    if (program < 0) {
        permanent = true; // both are made once: the next start fails alike
        return false;
    }
    if (!fault) {
        const int file = memfd_create("metalcpu-fault", MFD_CLOEXEC);
        void* memory = MAP_FAILED;
        if (file < 0 || ftruncate(file, kFaultRecordBytes) != 0 ||
            (memory = mmap(nullptr, kFaultRecordBytes, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0)) == MAP_FAILED) {
            *why = std::string("making the fault record: ") + std::strerror(errno);
            if (file >= 0) close(file);
            return false;
        }
        faultFile = file;
        fault = static_cast<FaultRecord*>(memory);
    }
    std::memset(static_cast<void*>(fault), 0, sizeof(FaultRecord));

    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) {
        *why = std::string("socketpair: ") + std::strerror(errno);
        return false;
    }
    // The program runs from its memory file, reached as descriptor 4 of the new process.
    // Both go through descriptors above 4 first, so that neither dup2 overwrites the other's
    // source (the program's file may be descriptor 3 in a program that closed its stdin).
    const int socketAbove = fcntl(sockets[1], F_DUPFD_CLOEXEC, kControlDescriptor + 2);
    const int programAbove = fcntl(program, F_DUPFD_CLOEXEC, kControlDescriptor + 2);
    close(sockets[1]);
    if (socketAbove < 0 || programAbove < 0) {
        *why = std::string("duplicating descriptors for the device process: ") + std::strerror(errno);
        for (int descriptor : {socketAbove, programAbove, sockets[0]})
            if (descriptor >= 0) close(descriptor);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, socketAbove, kControlDescriptor);
    posix_spawn_file_actions_adddup2(&actions, programAbove, kControlDescriptor + 1);
    posix_spawn_file_actions_addclosefrom_np(&actions, kControlDescriptor + 2);
    std::vector<std::string> environment = deviceEnvironment();
    std::vector<char*> envp;
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    char name[] = "metalcpu-device";
    char* argv[] = {name, nullptr};
    const std::string path = "/proc/self/fd/" + std::to_string(kControlDescriptor + 1);
    pid_t child = 0;
    const int spawned = posix_spawn(&child, path.c_str(), &actions, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    close(socketAbove);
    close(programAbove);
    if (spawned != 0) {
        close(sockets[0]);
        *why = std::string("starting the device process: ") + std::strerror(spawned);
        return false;
    }
    const int childFd = pidfdOpen(child);
    control = sockets[0];
    pid = child;
    pidfd = childFd;

    // Hello: the arena, its directory and the fault record.
    Writer hello;
    hello.value(static_cast<std::uint32_t>(ControlRequest::Hello));
    hello.value(kControlProtocolVersion);
    hello.value(arena->base());
    hello.value(arena->bytes());
    hello.value(arena->directoryBytes());
    std::string failure;
    bool ready = false;
    bool refused = false; // it answered no: another start would be refused alike
    std::vector<std::uint8_t> answer;
    std::vector<int> descriptors;
    if (sendControl(control, hello.bytes(), {arena->memoryFile(), arena->directoryFile(), faultFile})) {
        pollfd wait{control, POLLIN, 0};
        if (poll(&wait, 1, kStartTimeoutMilliseconds) == 1 && receiveControl(control, answer, descriptors)) {
            Reader in(answer);
            ready = in.value<std::uint8_t>() != 0;
            const auto landlock = in.value<std::int32_t>();
            const bool seccomp = in.value<std::uint8_t>() != 0;
            const std::string missing = in.string();
            failure = in.string();
            refused = !ready;
            if (!in.ok()) ready = false, failure = "it answered the hello with a malformed message";
            if (ready) {
                support::log().debug("device process {} started (Landlock ABI {}, seccomp {})", child, landlock,
                                     seccomp ? "on" : "off");
                static std::once_flag warned;
                if (!missing.empty())
                    std::call_once(warned, [&] { support::log().debug("device process: {}", missing); });
            }
        } else {
            failure = "it did not answer within " + std::to_string(kStartTimeoutMilliseconds / 1000) + " s";
        }
    } else {
        failure = std::string("sending it the hello: ") + std::strerror(errno);
    }
    for (int descriptor : descriptors) close(descriptor);
    if (!ready) {
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        close(control);
        if (childFd >= 0) close(childFd);
        control = pidfd = -1;
        pid = 0;
        *why = "the device process did not start: " + failure;
        permanent = refused;
        return false;
    }
    alive = true;
    ++generation;
    libraries.clear();
    // Detached: it ends by itself once the process has, and a child made by fork() must not
    // wait for a thread it does not have.
    std::thread(&State::watch, this, child, childFd, generation).detach();
    return true;
}

void DeviceProcess::State::watch(pid_t child, int childFd, std::uint64_t ofGeneration) {
    // Until the process ends: the pidfd becomes readable then (or, without pidfds, the
    // control socket reports the end of the connection; waitid then waits for the rest). A
    // program that ignores SIGCHLD has it reaped by the system, and waitid fails at once.
    // Otherwise it is not reaped yet, so that its pid is not reused while another thread may
    // still signal it (killProcess(), under the mutex, while `alive`).
    pollfd wait{childFd >= 0 ? childFd : control, POLLIN, 0};
    while (poll(&wait, 1, -1) < 0 && errno == EINTR) {
    }
    siginfo_t ended{};
    while (waitid(P_PID, static_cast<id_t>(child), &ended, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    std::lock_guard lock(mutex);
    int status = 0;
    const pid_t reaped = waitpid(child, &status, 0);
    if (generation != ofGeneration) return;
    alive = false;
    Death& death = deaths[ofGeneration];
    while (deaths.size() > kDeathsKept) deaths.erase(deaths.begin());
    death.ended = true;
    death.statusKnown = reaped == child;
    death.status = status;
    death.faulted = fault->written.load(std::memory_order_acquire) == 1;
    if (death.faulted) {
        // Read field by field: the record is in memory the device process could write.
        death.fault.signal = fault->signal;
        death.fault.code = fault->code;
        death.fault.stackOverflow = fault->stackOverflow != 0;
        death.fault.address = fault->address;
        death.fault.requestTag = fault->requestTag;
        death.fault.systemCall = fault->systemCall;
        death.fault.kernel.assign(fault->kernel, strnlen(fault->kernel, sizeof fault->kernel));
    }
    if (childFd >= 0) close(childFd);
    close(control);
    control = pidfd = -1;
    pid = 0;
    for (ThreadChannel* channel : channels) channel->channel.markDead();
    if (death.faulted || death.timedOutTag)
        support::log().debug("device process {} ended: {}", child,
                             death.timedOutTag ? "stopped at METALCPU_GPU_TIMEOUT" : signalName(death.fault.signal));
    else
        support::log().warn("the device process ended unexpectedly ({}); the next command buffer starts another",
                             WIFSIGNALED(status) ? std::string("killed by ") + signalName(WTERMSIG(status))
                                                 : "exit status " + std::to_string(WEXITSTATUS(status)));
}

void DeviceProcess::State::killProcess() {
    // Under the mutex, while `alive`: watch() has not reaped the process, so `pid` is still its.
    if (!alive) return;
    if (pidfd < 0 || pidfdSendSignal(pidfd, SIGKILL) != 0) kill(pid, SIGKILL);
}

void DeviceProcess::State::stop(std::uint64_t ofGeneration, std::uint64_t timedOutTag) {
    std::lock_guard lock(mutex);
    if (!alive || generation != ofGeneration) return;
    // The first command buffer to time out is the one the process was stopped for.
    Death& death = deaths[ofGeneration];
    if (death.timedOutTag == 0) death.timedOutTag = timedOutTag;
    killProcess();
}

bool DeviceProcess::State::request(const std::vector<std::uint8_t>& message, const std::vector<int>& descriptors,
                                   std::string* why) {
    std::vector<std::uint8_t> answer;
    std::vector<int> received;
    // Waited for with a limit: the mutex is held, and stop() needs it.
    pollfd wait{control, POLLIN, 0};
    int ready = 0;
    if (sendControl(control, message, descriptors))
        while ((ready = poll(&wait, 1, kStartTimeoutMilliseconds)) < 0 && errno == EINTR) {
        }
    if (ready == 0) {
        *why = "the device process did not answer a control request; it is stopped and replaced";
        killProcess();
        return false;
    }
    if (ready < 0 || !receiveControl(control, answer, received)) {
        *why = "the device process did not answer";
        return false;
    }
    for (int descriptor : received) close(descriptor);
    Reader in(answer);
    const bool ok = in.value<std::uint8_t>() != 0;
    *why = in.string();
    if (!in.ok()) *why = "the device process sent a malformed answer";
    return ok && in.ok();
}

bool DeviceProcess::State::loadLibrary(const std::shared_ptr<jit::KernelLibrary>& library, std::string* why) {
    if (libraries.count(library->serial())) return true;
    // Libraries the program no longer uses are unloaded first.
    for (auto it = libraries.begin(); it != libraries.end();) {
        if (!it->second.expired()) {
            ++it;
            continue;
        }
        Writer unload;
        unload.value(static_cast<std::uint32_t>(ControlRequest::UnloadLibrary));
        unload.value(it->first);
        std::string ignored;
        request(unload.bytes(), {}, &ignored);
        it = libraries.erase(it);
    }
    Writer load;
    load.value(static_cast<std::uint32_t>(ControlRequest::LoadLibrary));
    load.value(library->serial());
    load.string(library->path());
    if (!request(load.bytes(), {library->memoryFile()}, why)) return false;
    libraries.emplace(library->serial(), library);
    return true;
}

DeviceFailure DeviceProcess::State::failureOf(std::uint64_t tag, std::uint64_t ofGeneration, const std::string& kernel) {
    std::lock_guard lock(mutex);
    DeviceFailure failure;
    const std::string who = "kernel '" + kernel + "'";
    const auto found = deaths.find(ofGeneration);
    if (found == deaths.end() || !found->second.ended) {
        failure.kind = DeviceFailure::Kind::Lost;
        failure.message = "the device process ended while " + who + " ran";
        return failure;
    }
    const Death& death = found->second;
    if (death.timedOutTag == tag) {
        failure.kind = DeviceFailure::Kind::Timeout;
        failure.message = "Caused GPU Timeout Error (00000002:kIOGPUCommandBufferCallbackErrorTimeout): " + who +
                          " was still running when the command buffer reached METALCPU_GPU_TIMEOUT (" +
                          support::config().gpuTimeout + " s); the device process was stopped and is replaced";
        return failure;
    }
    if (death.faulted && death.fault.requestTag == tag) {
        const Death::Fault& f = death.fault;
        // A general-protection fault (SI_KERNEL) has no address: on x86-64 it is most often an
        // aligned vector access through a pointer that is not aligned to its type (a `float4*`
        // made from a `float*` at an offset that is not a multiple of 4), which Apple's GPUs
        // tolerate and MSL does not promise.
        const std::string where =
            f.signal == SIGSEGV && f.code == SI_KERNEL && f.address == 0
                ? "SIGSEGV, a general-protection fault with no address: most often a vector type accessed through a "
                  "pointer not aligned to it, such as a float4* made from a float* at an offset that is not a "
                  "multiple of 4 floats"
                : std::string(signalName(f.signal)) + " at address " + hex(f.address);
        if (f.stackOverflow) {
            failure.kind = DeviceFailure::Kind::StackOverflow;
            failure.message = "Caused GPU Stack Overflow Error: " + who + " ran out of stack (" + where + ")";
        } else if (f.signal == SIGSEGV || f.signal == SIGBUS) {
            failure.kind = DeviceFailure::Kind::PageFault;
            if (!(f.code == SI_KERNEL && f.address == 0)) failure.address = f.address;
            failure.message = "Caused GPU Address Fault Error (0000000b:kIOGPUCommandBufferCallbackErrorPageFault): " +
                              who + " accessed memory it may not (" + where + ")";
        } else if (f.signal == SIGSYS) {
            failure.kind = DeviceFailure::Kind::Trap;
            failure.message = "Caused GPU Invalid Instruction Error: " + who + " made system call " +
                              std::to_string(f.systemCall) + ", which kernels may not";
        } else {
            failure.kind = DeviceFailure::Kind::Trap;
            failure.message = "Caused GPU Invalid Instruction Error: " + who + " trapped (" + where + ")";
        }
        return failure;
    }
    if (death.faulted || death.timedOutTag) {
        failure.kind = DeviceFailure::Kind::Victim;
        failure.message = "Discarded (victim of GPU error/recovery) "
                          "(00000005:kIOGPUCommandBufferCallbackErrorInnocentVictim): " +
                          who + " was running when another command buffer's " +
                          (death.faulted ? "kernel '" + death.fault.kernel + "' faulted"
                                         : std::string("kernel reached METALCPU_GPU_TIMEOUT")) +
                          " and the device process was replaced";
        return failure;
    }
    failure.kind = DeviceFailure::Kind::Lost;
    std::string how = "it ended";
    if (death.statusKnown && WIFSIGNALED(death.status))
        how = std::string("it was killed by ") + signalName(WTERMSIG(death.status));
    else if (death.statusKnown)
        how = "it exited with status " + std::to_string(WEXITSTATUS(death.status));
    failure.message = "the device process ended while " + who + " ran (" + how + "); it is replaced";
    return failure;
}

std::variant<DispatchOutcome, DeviceFailure> DeviceProcess::run(
    const DispatchMessage& message, const std::shared_ptr<jit::KernelLibrary>& library,
    TimeLeft& timeLeft) {
    State& s = *state_;
    const std::uint64_t tag = s.nextTag.fetch_add(1);
    const std::string& kernel = message.dispatch->kernelName;
    std::uint64_t ofGeneration = 0;
    {
        std::lock_guard lock(s.mutex);
        std::string why;
        if (s.forked || (s.unavailable && configuredIsolation() == Isolation::Preferred))
            return DeviceFailure{DeviceFailure::Kind::Unavailable, "METALCPU_ISOLATION: " + s.unavailableWhy};
        if (!s.start(&why)) {
            if (configuredIsolation() == Isolation::Preferred)
                support::log().warn("no device process ({}): command buffers run in this process from now on", why);
            return DeviceFailure{DeviceFailure::Kind::Unavailable, "METALCPU_ISOLATION: " + why};
        }
        ofGeneration = s.generation;
        if (!s.loadLibrary(library, &why))
            return DeviceFailure{DeviceFailure::Kind::Lost, "the device process could not load the library of kernel '" +
                                                                kernel + "': " + why};
        if (!t_channel.channel) {
            std::optional<Channel> made = Channel::create(&why);
            if (!made) return DeviceFailure{DeviceFailure::Kind::Unavailable, why};
            t_channel.channel = std::make_unique<ThreadChannel>(std::move(*made));
            t_channel.owner = state_;
            s.channels.insert(t_channel.channel.get());
        }
        ThreadChannel& mine = *t_channel.channel;
        if (mine.generation != ofGeneration) {
            mine.channel.reset();
            Writer open;
            open.value(static_cast<std::uint32_t>(ControlRequest::OpenChannel));
            if (!s.request(open.bytes(), {mine.channel.file()}, &why))
                return DeviceFailure{DeviceFailure::Kind::Lost, "the device process could not open a channel: " + why};
            mine.generation = ofGeneration;
        }
    }
    Channel& channel = t_channel.channel->channel;
    DispatchMessage tagged = message;
    tagged.tag = tag;
    tagged.library = library->serial();
    if (!channel.post(encodeDispatch(tagged))) return s.failureOf(tag, ofGeneration, kernel);

    using Clock = std::chrono::steady_clock;
    const Clock::time_point posted = Clock::now();
    std::optional<Clock::time_point> deadline;
    if (timeLeft) deadline = posted + *timeLeft;
    std::vector<std::uint8_t> reply;
    Channel::Wait waited = channel.awaitReply(reply, deadline);
    if (timeLeft) *timeLeft = std::max(Clock::duration::zero(), *timeLeft - (Clock::now() - posted));
    if (waited == Channel::Wait::TimedOut) {
        s.stop(ofGeneration, tag);
        waited = channel.awaitReply(reply, std::nullopt);
    }
    if (waited == Channel::Wait::Dead) return s.failureOf(tag, ofGeneration, kernel);
    std::optional<DispatchOutcome> outcome = decodeOutcome(reply, message.log ? message.log->capacity : 0);
    if (!outcome) {
        // Only a kernel that wrote over the device process's memory makes it send nonsense.
        s.stop(ofGeneration, 0);
        return DeviceFailure{DeviceFailure::Kind::Lost, "the device process sent a malformed reply for kernel '" +
                                                            kernel + "' (a kernel may have overwritten its memory); "
                                                            "it is replaced"};
    }
    return std::move(*outcome);
}

} // namespace metalcpu::iso
