#pragma once

// The samples/matmul algorithms as OpenCL C kernels, run on the first OpenCL CPU device
// (PoCL, Debian's pocl-opencl-icd): the yardstick issue 14 compares metalcpu with. Built only
// when CMake found OpenCL (METALCPU_BENCH_OPENCL); without a CPU platform at run time
// available() is false and the column is left out.
#include <memory>
#include <string>

namespace bench {

class OpenCLMatmul {
public:
    OpenCLMatmul();
    ~OpenCLMatmul();
    OpenCLMatmul(const OpenCLMatmul&) = delete;
    OpenCLMatmul& operator=(const OpenCLMatmul&) = delete;

    /// Whether a CPU device was found and the kernels compiled; why not otherwise.
    bool available() const;
    const std::string& unavailableReason() const;
    /// The device's name as the platform reports it (for the table's caption).
    const std::string& deviceName() const;

    /// Best of `repeat` runs, in seconds, of kernel `name` (one of samples/matmul's four, same
    /// grid and threadgroup shape as matmul_bench dispatches) on n×n matrices; C is copied
    /// back into `c` for checking. Buffers are uploaded once, outside the timing, as
    /// metalcpu's shared buffers need no copy. Negative when the kernel failed.
    double seconds(const char* name, const float* a, const float* b, float* c, unsigned n, int repeat);

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace bench
