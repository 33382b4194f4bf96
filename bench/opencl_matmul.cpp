#include "opencl_matmul.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstring>
#include <map>
#include <vector>

#include "timing.h"

namespace bench {
namespace {

// The four algorithms of samples/matmul, written for OpenCL C the way an OpenCL programmer
// would write them: same work per work-item, same work-group shapes, same edge handling.
const char* const kSource = R"CL(
__kernel void mat_mul_naive(__global const float* A, __global const float* B, __global float* C,
                            uint rows, uint cols, uint inner) {
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= cols || y >= rows) return;
    float sum = 0.0f;
    for (uint k = 0; k < inner; ++k) sum += A[y * inner + k] * B[k * cols + x];
    C[y * cols + x] = sum;
}

#define TILE 16
__kernel void mat_mul_tiled(__global const float* A, __global const float* B, __global float* C,
                            uint rows, uint cols, uint inner) {
    __local float tileA[TILE][TILE];
    __local float tileB[TILE][TILE];
    const uint lx = get_local_id(0), ly = get_local_id(1);
    const uint row = get_group_id(1) * TILE + ly, col = get_group_id(0) * TILE + lx;
    float sum = 0.0f;
    for (uint t = 0; t < inner; t += TILE) {
        const uint aCol = t + lx, bRow = t + ly;
        tileA[ly][lx] = (row < rows && aCol < inner) ? A[row * inner + aCol] : 0.0f;
        tileB[ly][lx] = (bRow < inner && col < cols) ? B[bRow * cols + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE; ++k) sum += tileA[ly][k] * tileB[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < rows && col < cols) C[row * cols + col] = sum;
}

#define REGISTER_BLOCK(NAME, ROWS)                                                              \
__kernel void NAME(__global const float* A, __global const float* B, __global float* C,        \
                   uint rows, uint cols, uint inner) {                                         \
    const uint i = get_global_id(1) * ROWS, j = get_global_id(0) * 4;                          \
    if (i >= rows || j >= cols) return;                                                        \
    float4 acc[ROWS];                                                                          \
    for (uint r = 0; r < ROWS; ++r) acc[r] = (float4)(0.0f);                                   \
    for (uint k = 0; k < inner; k += 4) {                                                      \
        const float4 b0 = vload4(0, B + (k + 0) * cols + j), b1 = vload4(0, B + (k + 1) * cols + j); \
        const float4 b2 = vload4(0, B + (k + 2) * cols + j), b3 = vload4(0, B + (k + 3) * cols + j); \
        for (uint r = 0; r < ROWS; ++r) {                                                      \
            const float4 a = vload4(0, A + (i + r) * inner + k);                               \
            acc[r] += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;                               \
        }                                                                                      \
    }                                                                                          \
    for (uint r = 0; r < ROWS; ++r) vstore4(acc[r], 0, C + (i + r) * cols + j);                \
}
REGISTER_BLOCK(mat_mul_register_4x4, 4)
REGISTER_BLOCK(mat_mul_register_8x4, 8)
)CL";

struct Geometry {
    size_t global[2];
    size_t local[2];
};

/// The grid matmul_bench dispatches for `name`, as OpenCL global and local sizes (a global
/// size must be a multiple of the local one in OpenCL 1.2: threads past the edge return).
Geometry geometryOf(const char* name, unsigned n) {
    auto roundUp = [](size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; };
    if (!std::strcmp(name, "mat_mul_register_4x4")) return {{roundUp(n / 4, 8), roundUp(n / 4, 8)}, {8, 8}};
    if (!std::strcmp(name, "mat_mul_register_8x4")) return {{roundUp(n / 4, 8), roundUp(n / 8, 8)}, {8, 8}};
    return {{roundUp(n, 16), roundUp(n, 16)}, {16, 16}};
}

} // namespace

struct OpenCLMatmul::State {
    std::string reason;
    std::string device;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    std::map<std::string, cl_kernel> kernels;

    ~State() {
        for (auto& entry : kernels) clReleaseKernel(entry.second);
        if (program) clReleaseProgram(program);
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }

    bool open() {
        cl_uint platformCount = 0;
        if (clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS || platformCount == 0)
            return fail("no OpenCL platform (install pocl-opencl-icd)");
        std::vector<cl_platform_id> platforms(platformCount);
        clGetPlatformIDs(platformCount, platforms.data(), nullptr);
        cl_device_id chosen = nullptr;
        for (cl_platform_id platform : platforms)
            if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &chosen, nullptr) == CL_SUCCESS) break;
        if (!chosen) return fail("no OpenCL CPU device");
        char name[256] = {};
        clGetDeviceInfo(chosen, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
        device = name;
        cl_int status = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &chosen, nullptr, nullptr, &status);
        if (status != CL_SUCCESS) return fail("clCreateContext failed");
        queue = clCreateCommandQueue(context, chosen, 0, &status);
        if (status != CL_SUCCESS) return fail("clCreateCommandQueue failed");
        const char* source = kSource;
        program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
        // -cl-fast-relaxed-math matches the kernels' default fast math mode in metalcpu.
        if (status != CL_SUCCESS || clBuildProgram(program, 1, &chosen, "-cl-fast-relaxed-math", nullptr, nullptr) != CL_SUCCESS) {
            char log[4096] = {};
            clGetProgramBuildInfo(program, chosen, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
            return fail(std::string("the OpenCL kernels did not build: ") + log);
        }
        for (const char* kernel : {"mat_mul_naive", "mat_mul_tiled", "mat_mul_register_4x4", "mat_mul_register_8x4"}) {
            kernels[kernel] = clCreateKernel(program, kernel, &status);
            if (status != CL_SUCCESS) return fail(std::string("clCreateKernel ") + kernel);
        }
        return true;
    }

    bool fail(std::string why) {
        reason = std::move(why);
        return false;
    }
};

OpenCLMatmul::OpenCLMatmul() : state_(std::make_unique<State>()) {
    if (!state_->open()) {
        std::string reason = state_->reason;
        state_ = std::make_unique<State>();
        state_->reason = reason;
    }
}

OpenCLMatmul::~OpenCLMatmul() = default;

bool OpenCLMatmul::available() const { return state_->reason.empty(); }
const std::string& OpenCLMatmul::unavailableReason() const { return state_->reason; }
const std::string& OpenCLMatmul::deviceName() const { return state_->device; }

double OpenCLMatmul::seconds(const char* name, const float* a, const float* b, float* c, unsigned n, int repeat) {
    auto found = state_->kernels.find(name);
    if (!available() || found == state_->kernels.end()) return -1;
    const size_t bytes = sizeof(float) * n * n;
    cl_int status = CL_SUCCESS;
    cl_mem buffers[3] = {
        clCreateBuffer(state_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float*>(a), &status),
        clCreateBuffer(state_->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<float*>(b), &status),
        clCreateBuffer(state_->context, CL_MEM_WRITE_ONLY, bytes, nullptr, &status)};
    double best = -1;
    if (buffers[0] && buffers[1] && buffers[2]) {
        cl_kernel kernel = found->second;
        for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);
        const cl_uint rows = n, cols = n, inner = n;
        clSetKernelArg(kernel, 3, sizeof rows, &rows);
        clSetKernelArg(kernel, 4, sizeof cols, &cols);
        clSetKernelArg(kernel, 5, sizeof inner, &inner);
        const Geometry geometry = geometryOf(name, n);
        bool ok = true;
        best = bestSeconds(repeat, [&] {
            ok = ok && clEnqueueNDRangeKernel(state_->queue, kernel, 2, nullptr, geometry.global, geometry.local, 0,
                                              nullptr, nullptr) == CL_SUCCESS;
            ok = ok && clFinish(state_->queue) == CL_SUCCESS;
        });
        ok = ok && clEnqueueReadBuffer(state_->queue, buffers[2], CL_TRUE, 0, bytes, c, 0, nullptr, nullptr) == CL_SUCCESS;
        if (!ok) best = -1;
    }
    for (cl_mem buffer : buffers)
        if (buffer) clReleaseMemObject(buffer);
    return best;
}

} // namespace bench
