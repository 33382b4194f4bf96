// The confinement a device process enters before it runs any kernel: whatever a kernel does,
// the host program's memory and the user's files stay out of its reach (docs/architecture.md,
// "The device process").
#pragma once

#include <string>

namespace metalcpu::device {

/// What the sandbox put in place on this machine.
struct SandboxReport {
    int landlockAbi = 0;  ///< the Landlock ABI used; 0 when the kernel has none
    bool seccomp = false; ///< whether the system-call filter is in place
    /// For people: the layers this machine lacks and what that leaves open, "; "-separated
    /// (empty when every layer is in place).
    std::string missing;
};

/// Which layers enterSandbox() puts in place: all of them, except in tests that check that
/// one layer holds on its own.
struct SandboxLayers {
    /// Landlock, where the kernel has it. Without it the filter refuses every open, exactly
    /// as on a kernel without Landlock.
    bool landlock = true;
    bool filter = true; ///< the system-call filter, where the kernel has seccomp
};

/// Confines the calling process for good, in this order:
/// - no new privileges (no_new_privs), no core dumps (RLIMIT_CORE 0: a faulting kernel writes
///   nothing to disk), not dumpable (no other process of this user may ptrace it or open its
///   /proc/<pid>/mem; the kernel still lets a process into its own /proc/self/fd), no
///   capabilities (a device process started by root keeps none);
/// - Landlock, where the kernel has it: every file-system right of its ABI handled and none
///   granted, so nothing is opened by path (descriptors it holds keep working, and so does
///   opening a memfd or a pipe through /proc/self/fd/N: those live on no mounted file
///   system); with ABI 4 no TCP bind or connect; with ABI 6 no signal to, and no abstract
///   Unix socket of, a process outside the sandbox;
/// - a system-call filter (seccomp-bpf), where the kernel has seccomp: the calls of
///   kAllowedCalls, with their argument checks; every other call fails with EPERM, except
///   clone3, which fails with ENOSYS so that glibc falls back to clone, whose flags the
///   filter can read (clone3's are behind a pointer). A call through another table than the
///   machine's own (x32's numbers or i386's int 0x80 on x86-64) kills the process: the filter
///   cannot judge numbers it does not know.
/// Call while the process has a single thread (Landlock binds only the calling thread; threads
/// made later inherit every layer); false, changing nothing, when other threads run. false
/// with the reason in `error` when a layer the machine offers cannot be entered: the process
/// may then be partly confined and should exit.
///
/// What a kernel can still do inside: anything with the memory and descriptors the process
/// holds, which is what a GPU holds. Learn file metadata by path (newfstatat serves glibc's
/// fstat and may name a path; Landlock does not cover stat): whether a file exists, its size
/// and times, never its contents.
///
/// Without Landlock the filter lets no openat through, so the process cannot dlopen after
/// entering: a filter cannot read the path, and an open allowed by path would reach the
/// user's files and /proc/<host>/mem. report->landlockAbi == 0 tells the host to load
/// libraries before entering or not to isolate there.
///
/// Inside, dlopen finds only the shared objects loaded before entering: a kernel library
/// must need no other. So with TBB: at its first use inside, it tries to dlopen
/// libtbbmalloc.so.2 and to read /proc/self/maps, fails, and falls back to malloc; to keep
/// TBB's allocator, load it before entering.
bool enterSandbox(SandboxReport* report, std::string* error, const SandboxLayers& layers = {});

/// When the filter lets a system call through.
enum class Allowed {
    Always,
    Threads,         ///< clone: with CLONE_THREAD and no new namespace (threads, never processes)
    OwnProcess,      ///< tgkill: to a thread of this process (the first argument is its pid)
    ReadOnlyOpen,    ///< openat: only to read, creating and truncating nothing (Landlock decides where)
    NoDestination,   ///< sendto: without an address, i.e. to the peer of a connected socket
    OwnLimitsRead,   ///< prlimit64: reading this process's limits, never setting any
    ThreadNames,     ///< prctl: PR_SET_NAME and PR_GET_NAME of the calling thread only
    DescriptorFlags, ///< fcntl: duplicating, and reading or setting descriptor and status flags, reading seals
};

/// One system call the filter lets through (by its name, for the machine's own numbers).
struct AllowedCall {
    const char* name;
    Allowed when = Allowed::Always;
};

/// The device process's system calls, by what it does with them. Names a machine does not
/// have (poll on arm64) are passed over.
inline constexpr AllowedCall kAllowedCalls[] = {
    // Memory: buffers mapped from the host's shared memory, malloc's arenas, threads' stacks,
    // kernel libraries mapped executable by dlopen, and fault handlers that change
    // protections. A kernel is native code already: executable memory gives it nothing more.
    {"mmap"}, {"munmap"}, {"mprotect"}, {"mremap"}, {"madvise"}, {"brk"},
    // Threads (TBB's workers, one per channel): glibc's pthread_create clones, then registers
    // each thread's robust futex list and restartable sequence; TBB sizes its pool by the
    // CPUs this process may run on.
    {"clone", Allowed::Threads}, {"set_robust_list"}, {"rseq"}, {"gettid"}, {"getpid"}, {"sched_yield"},
    {"sched_getaffinity"}, {"exit"},
    // Waiting and time: futexes (private ones, and those on memory shared with the host, with
    // timeouts), sleeps, and the clocks when the vDSO falls back to the system call.
    {"futex"}, {"clock_gettime"}, {"clock_getres"}, {"gettimeofday"}, {"nanosleep"}, {"clock_nanosleep"},
    // Signals: fault handlers on an alternate stack and their return, masks; abort() and
    // pthread_kill signal this process's own threads. No kill or tkill: neither names the
    // process, so the filter could not keep them in it.
    {"rt_sigaction"}, {"rt_sigprocmask"}, {"rt_sigreturn"}, {"sigaltstack"}, {"tgkill", Allowed::OwnProcess},
    // Descriptors it holds: the host's sockets (bytes, and descriptors received with
    // SCM_RIGHTS), shared memory and kernel libraries as memfds, standard error for the log.
    // No sendmsg: its address hides behind a pointer, and a datagram socket could send to any
    // socket file (Landlock does not cover those); no ioctl: on a terminal inherited as
    // standard error, TIOCSTI types into the user's shell.
    {"read"}, {"write"}, {"readv"}, {"writev"}, {"pread64"}, {"pwrite64"}, {"lseek"}, {"close"}, {"dup"},
    {"dup3"}, {"fcntl", Allowed::DescriptorFlags}, {"fstat"}, {"newfstatat"}, {"recvmsg"}, {"recvfrom"},
    {"sendto", Allowed::NoDestination}, {"poll"}, {"ppoll"},
    // Opening: dlopen of a kernel library through /proc/self/fd/N of its memfd. Only with
    // Landlock in place, which refuses every other path.
    {"openat", Allowed::ReadOnlyOpen},
    // Limits and randomness: pthread_getattr_np reads the stack limit; std::random_device and
    // glibc read random bytes. Naming threads, for debuggers and logs.
    {"prlimit64", Allowed::OwnLimitsRead}, {"getrandom"}, {"prctl", Allowed::ThreadNames},
    // Ending: the process's exit, and the kernel's restart of an interrupted sleep.
    {"exit_group"}, {"restart_syscall"},
};

} // namespace metalcpu::device
