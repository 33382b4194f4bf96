// A shared object that the sandbox tests load from a memfd through /proc/self/fd/N, as the
// device process loads kernel libraries.
extern "C" int metalcpuSandboxProbeAnswer() { return 42; }
