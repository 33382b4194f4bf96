// Trying things inside the device sandbox: each probe runs in a forked child that enters it
// (this test process never does) and reports what its call did through a pipe.
#pragma once

#include "device/sandbox.h"

#include <cstddef>
#include <functional>
#include <string>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

namespace metalcpu::device {

/// The room for text a child sends back.
inline constexpr std::size_t kProbeTextSize = 512;

/// What a probe's call did.
struct Outcome {
    long result = 0;   ///< what it returned
    int error = 0;     ///< errno after it: 0 when it succeeded
    char note[kProbeTextSize] = {}; ///< anything the probe wants said (a dlerror(), what went wrong)
};

/// The outcome of a call that returns -1 and sets errno when it fails.
Outcome tried(long result);
/// An outcome that says `note`, with `result`.
Outcome noted(long result, const std::string& note);

/// How much of the sandbox a probe's child enters.
enum class Confined { No, Fully, ByLandlockOnly, ByFilterOnly };

/// What a probe does, and where.
struct Probe {
    std::function<void()> before;       ///< in the child before it enters (descriptors made outside)
    std::function<Outcome()> run;       ///< in the child once inside
    std::function<void(pid_t)> parent;  ///< in this process while the child runs (the host's side)
};

/// How a probe's child ended.
struct ProbeRun {
    bool entered = false;  ///< it entered the sandbox (always, for Confined::No)
    bool reported = false; ///< it sent an outcome (false when it exec'd or died first)
    std::string enterError; ///< why it could not enter
    Outcome outcome;       ///< the run's
    SandboxReport report;  ///< what enterSandbox() said
    int status = 0;        ///< its wait status
};

/// This process's pid, in a probe's child too: the host's, in the device process's terms.
/// (getppid() is refused by the filter.)
pid_t hostPid();

/// Runs `probe` in a child confined as `confined` and waits for it.
ProbeRun runProbe(Confined confined, const Probe& probe);
ProbeRun runProbe(Confined confined, const std::function<Outcome()>& run);

/// A listening abstract Unix socket of this process's (the host's), as a hostile kernel
/// would try to reach one.
struct HostAbstractSocket {
    HostAbstractSocket();
    ~HostAbstractSocket();
    HostAbstractSocket(const HostAbstractSocket&) = delete;
    HostAbstractSocket& operator=(const HostAbstractSocket&) = delete;
    /// A probe that connects a socket made before the sandbox (so that the filter's refusal of
    /// socket() does not hide the connect's fate) to it.
    Probe connector() const;

    int fd = -1;
    sockaddr_un address{};
    socklen_t length = 0;
    bool listening = false;
};

/// Gives up every capability, as the sandbox does; whether that worked.
bool dropCapabilities();

/// A process of this user that holds no capabilities, like the sandboxed child: what a
/// confined process may do to it only Landlock and the filter can refuse (when the tests run
/// as root, the host itself is out of reach of a child without capabilities anyway). It waits
/// until it is destroyed, with a marker in its memory.
class Victim {
public:
    static constexpr unsigned long long kMarker = 0x71c7135eedULL;
    Victim();
    ~Victim();
    Victim(const Victim&) = delete;
    Victim& operator=(const Victim&) = delete;

    bool ready() const { return ready_; } ///< it runs, without capabilities
    pid_t pid() const { return pid_; }
    /// Where its marker lies (the same address in every child of this process).
    static const void* marker();

private:
    pid_t pid_ = -1;
    bool ready_ = false;
    int keepAlive_ = -1; ///< its end of file ends it
};

/// The errno a refused open gets: Landlock's EACCES, or the filter's EPERM without Landlock.
int refusedOpenError();

/// Why a test that needs Landlock is skipped on this machine; empty when it has Landlock.
std::string withoutLandlock(int abiNeeded = 1);

} // namespace metalcpu::device
