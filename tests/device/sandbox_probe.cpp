#include "sandbox_probe.h"

#include "support/landlock.h"
#include "support/process.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/capability.h>
#include <memory>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace metalcpu::device {
namespace {

pid_t host = 0; ///< set before each fork, so that the child has it

/// What a child sends back, once.
struct Message {
    bool entered = false;
    int landlockAbi = 0;
    bool seccomp = false;
    char missing[kProbeTextSize] = {}; ///< the report's, or why the sandbox could not be entered
    Outcome outcome;
};

void copyNote(char (&note)[kProbeTextSize], const std::string& text) {
    std::strncpy(note, text.c_str(), sizeof note - 1);
    note[sizeof note - 1] = '\0';
}

SandboxLayers layersOf(Confined confined) {
    SandboxLayers layers;
    layers.landlock = confined != Confined::ByFilterOnly;
    layers.filter = confined != Confined::ByLandlockOnly;
    return layers;
}

/// The child's part: never returns.
[[noreturn]] void child(int channel, Confined confined, const Probe& probe) {
    Message message;
    if (probe.before) probe.before();
    message.entered = true;
    if (confined != Confined::No) {
        SandboxReport report;
        std::string error;
        message.entered = enterSandbox(&report, &error, layersOf(confined));
        message.landlockAbi = report.landlockAbi;
        message.seccomp = report.seccomp;
        copyNote(message.missing, message.entered ? report.missing : error);
    }
    if (message.entered) message.outcome = probe.run();
    const ssize_t written = write(channel, &message, sizeof message);
    _exit(written == static_cast<ssize_t>(sizeof message) ? 0 : 1);
}

} // namespace

Outcome tried(long result) {
    Outcome outcome;
    outcome.result = result;
    outcome.error = result < 0 ? errno : 0;
    return outcome;
}

Outcome noted(long result, const std::string& note) {
    Outcome outcome;
    outcome.result = result;
    copyNote(outcome.note, note);
    return outcome;
}

pid_t hostPid() { return host; }

ProbeRun runProbe(Confined confined, const Probe& probe) {
    host = getpid();
    ProbeRun run;
    int channel[2];
    if (pipe2(channel, O_CLOEXEC) != 0) return run;
    const pid_t pid = support::forkWaitable();
    if (pid == 0) {
        close(channel[0]);
        child(channel[1], confined, probe);
    }
    close(channel[1]);
    if (pid < 0) {
        close(channel[0]);
        return run;
    }
    if (probe.parent) probe.parent(pid);
    Message message;
    std::size_t got = 0;
    while (got < sizeof message) {
        const ssize_t part = read(channel[0], reinterpret_cast<char*>(&message) + got, sizeof message - got);
        if (part < 0 && errno == EINTR) continue;
        if (part <= 0) break;
        got += static_cast<std::size_t>(part);
    }
    close(channel[0]);
    run.status = support::waitChild(pid);
    run.reported = got == sizeof message;
    if (run.reported) {
        run.entered = message.entered;
        run.outcome = message.outcome;
        run.report.landlockAbi = message.landlockAbi;
        run.report.seccomp = message.seccomp;
        (run.entered ? run.report.missing : run.enterError) = message.missing;
    }
    return run;
}

ProbeRun runProbe(Confined confined, const std::function<Outcome()>& run) {
    Probe probe;
    probe.run = run;
    return runProbe(confined, probe);
}

HostAbstractSocket::HostAbstractSocket() {
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    address.sun_family = AF_UNIX;
    const std::string name = "metalcpu-sandbox-test-" + std::to_string(getpid());
    std::memcpy(address.sun_path + 1, name.data(), name.size()); // sun_path[0] == 0: abstract
    length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    listening = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&address), length) == 0 && listen(fd, 4) == 0;
}

HostAbstractSocket::~HostAbstractSocket() {
    if (fd >= 0) close(fd);
}

Probe HostAbstractSocket::connector() const {
    auto client = std::make_shared<int>(-1);
    Probe probe;
    probe.before = [client] { *client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); };
    probe.run = [client, this] { return tried(connect(*client, reinterpret_cast<const sockaddr*>(&address), length)); };
    return probe;
}

bool dropCapabilities() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
    return syscall(SYS_capset, &header, none) == 0;
}

namespace {
volatile unsigned long long victimMarker = 0;
}

const void* Victim::marker() { return const_cast<const unsigned long long*>(&victimMarker); }

Victim::Victim() {
    int ready[2], alive[2];
    if (pipe2(ready, O_CLOEXEC) != 0) return;
    if (pipe2(alive, O_CLOEXEC) != 0) {
        close(ready[0]);
        close(ready[1]);
        return;
    }
    pid_ = support::forkWaitable();
    if (pid_ == 0) {
        victimMarker = kMarker;
        const char ok = dropCapabilities() ? 'y' : 'n';
        close(alive[1]);
        if (write(ready[1], &ok, 1) != 1) _exit(1);
        char byte;
        while (read(alive[0], &byte, 1) != 0) continue; // until the test lets go
        _exit(0);
    }
    close(ready[1]);
    close(alive[0]);
    keepAlive_ = alive[1];
    char ok = 'n';
    ready_ = pid_ > 0 && read(ready[0], &ok, 1) == 1 && ok == 'y';
    close(ready[0]);
}

Victim::~Victim() {
    close(keepAlive_);
    if (pid_ > 0) support::waitChild(pid_);
}

int refusedOpenError() { return support::landlockAbi() > 0 ? EACCES : EPERM; }

std::string withoutLandlock(int abiNeeded) {
    const int abi = support::landlockAbi();
    if (abi >= abiNeeded) return {};
    return "this kernel's Landlock ABI is " + std::to_string(abi) + ", the test needs " + std::to_string(abiNeeded) +
           ": the device process goes without that layer here (issue 12)";
}

} // namespace metalcpu::device
