#include "device/sandbox.h"

#include "support/landlock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/capability.h>
#include <memory>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace metalcpu::device {
namespace {

/// The threads of this process, from /proc/self/status; 0 when it cannot be read.
int threadCount() {
    std::ifstream status("/proc/self/status");
    std::string word;
    while (status >> word)
        if (word == "Threads:") {
            int threads = 0;
            status >> threads;
            return threads;
        }
    return 0;
}

/// `step` failed with errno: its name and errno's text in `error`; false.
bool failed(const std::string& step, std::string* error) {
    *error = step + ": " + std::strerror(errno);
    return false;
}

/// Gives up every capability (only a process started by root, or given some, has any): with
/// no exec ahead, none can come back.
bool dropCapabilities(std::string* error) {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct held[_LINUX_CAPABILITY_U32S_3] = {};
    if (syscall(SYS_capget, &header, held) != 0) return failed("cannot read the process's capabilities", error);
    bool any = false;
    for (const auto& word : held) any = any || word.effective != 0 || word.permitted != 0 || word.inheritable != 0;
    if (!any) return true;
    __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
    if (syscall(SYS_capset, &header, none) != 0) return failed("cannot drop the process's capabilities", error);
    return true;
}

/// Restricts the process by a Landlock ruleset of ABI `abi` that grants nothing.
bool enterLandlock(int abi, std::string* error) {
    const int ruleset = support::makeLandlockRuleset(abi, error);
    if (ruleset < 0) return false;
    const char* step = "";
    const int failure = support::restrictSelfByLandlock(ruleset, &step);
    close(ruleset);
    if (failure == 0) return true;
    errno = failure;
    return failed(std::string("cannot enter Landlock (") + step + ")", error);
}

using Filter = std::unique_ptr<void, decltype(&seccomp_release)>;

/// Adds the rules that let the system call `number` through `when` it may; 0 or a negative
/// errno. `landlock` says whether Landlock confines opens.
int allow(scmp_filter_ctx filter, int number, Allowed when, bool landlock) {
    constexpr scmp_datum_t kNamespaces =
        CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
    constexpr scmp_datum_t kWritingOpen = O_ACCMODE | O_CREAT | O_TRUNC | O_PATH;
    switch (when) {
    case Allowed::Always:
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 0);
    case Allowed::Threads: // the flags are the first argument on x86-64 and arm64
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1,
                                SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | kNamespaces, CLONE_THREAD));
    case Allowed::OwnProcess:
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1,
                                SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(getpid())));
    case Allowed::ReadOnlyOpen:
        if (!landlock) return 0; // nothing would keep the path from the user's files
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, kWritingOpen, 0));
    case Allowed::NoDestination:
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1, SCMP_A4(SCMP_CMP_EQ, 0));
    case Allowed::OwnLimitsRead:
        return seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 2, SCMP_A0(SCMP_CMP_EQ, 0), SCMP_A2(SCMP_CMP_EQ, 0));
    case Allowed::ThreadNames:
        for (int option : {PR_SET_NAME, PR_GET_NAME})
            if (int result = seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1,
                                              SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(option))))
                return result;
        return 0;
    case Allowed::DescriptorFlags:
        for (int command : {F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GET_SEALS})
            if (int result = seccomp_rule_add(filter, SCMP_ACT_ALLOW, number, 1,
                                              SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(command))))
                return result;
        return 0;
    }
    return -EINVAL;
}

/// Loads the filter of kAllowedCalls; `landlock` says whether Landlock confines opens.
bool enterFilter(bool landlock, std::string* error) {
    Filter filter(seccomp_init(SCMP_ACT_ERRNO(EPERM)), &seccomp_release);
    if (!filter) {
        *error = "cannot make a system-call filter (libseccomp)";
        return false;
    }
    int result = seccomp_attr_set(filter.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (result != 0) {
        *error = std::string("cannot make a call through another architecture's table fatal: ") + std::strerror(-result);
        return false;
    }
    // A binary tree of system-call numbers rather than a list, so that the futex and read
    // calls of every dispatch take a few comparisons. A libseccomp older than 2.5 does not
    // know the attribute and builds a list, which filters the same calls.
    seccomp_attr_set(filter.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2);
    for (const AllowedCall& call : kAllowedCalls) {
        const int number = seccomp_syscall_resolve_name(call.name);
        if (number == __NR_SCMP_ERROR) continue; // not a call of this architecture
        if ((result = allow(filter.get(), number, call.when, landlock)) != 0) {
            *error = std::string("cannot add ") + call.name + " to the system-call filter: " + std::strerror(-result);
            return false;
        }
    }
    result = seccomp_rule_add(filter.get(), SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    if (result == 0) result = seccomp_load(filter.get());
    if (result != 0) {
        *error = std::string("cannot load the system-call filter: ") + std::strerror(-result);
        return false;
    }
    return true;
}

/// What the layers this machine lacks leave open, for SandboxReport::missing.
std::string missingLayers(int abi, bool seccomp) {
    std::string missing;
    auto add = [&missing](const std::string& text) { missing += (missing.empty() ? "" : "; ") + text; };
    if (!seccomp)
        add("no seccomp: system calls are not filtered, so exec, fork, sockets and ptrace are not refused");
    if (abi == 0 && seccomp)
        add("no Landlock: the filter refuses every open, so no library can be loaded after entering");
    else if (abi == 0)
        add("no Landlock: files are not confined");
    const std::string guard = seccomp ? "only the filter" : "nothing";
    if (abi > 0 && abi < 4)
        add("Landlock ABI " + std::to_string(abi) + " has no network rights: " + guard + " refuses TCP");
    if (abi > 0 && abi < 6)
        add("Landlock ABI " + std::to_string(abi) + " has no scopes: " + guard +
            " keeps signals and abstract sockets within the process");
    return missing;
}

} // namespace

bool enterSandbox(SandboxReport* report, std::string* error, const SandboxLayers& layers) {
    *report = SandboxReport{};
    if (const int threads = threadCount(); threads > 1) {
        *error = "the sandbox must be entered before any thread starts, and " + std::to_string(threads) +
                 " threads run";
        return false;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return failed("cannot set no_new_privs", error);
    const rlimit noCore{0, 0};
    if (setrlimit(RLIMIT_CORE, &noCore) != 0) return failed("cannot turn core dumps off", error);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return failed("cannot make the process undumpable", error);
    if (!dropCapabilities(error)) return false;

    const int abi = layers.landlock ? support::landlockAbi() : 0;
    if (abi > 0 && !enterLandlock(abi, error)) return false;
    report->landlockAbi = abi;

    // PR_GET_SECCOMP fails with EINVAL only on a kernel built without seccomp.
    const bool seccomp = layers.filter && (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 || errno != EINVAL);
    if (seccomp && !enterFilter(abi > 0, error)) return false;
    report->seccomp = seccomp;
    report->missing = missingLayers(abi, seccomp);
    return true;
}

} // namespace metalcpu::device
