// GFLOPS of the tensor-operation executor alone (exec::runTensorMatmul, what one matmul2d run
// over a scope costs once the threads have met), single-threaded, for each microkernel the CPU
// has, next to OpenBLAS's cblas_sgemm on one thread when the build found OpenBLAS:
//   tile 64x64xK   one destination tile of a float product, K = 64, 256, 1024
//   1024^2 tiled   a 1024x1024x1024 float product made of 64x64 destination tiles, each one
//                  call over a 64-row panel of A and a 64-column panel of B (as a kernel with
//                  one scope per 64x64 tile does it), single-threaded
//
//   tensor_matmul_bench [--repeat 5] [--only executor|sgemm] [--kernel generic|avx2|avx512]
//                       [--type float|half|int8]
//
// --type gives the executor's inputs that element type (half: widened while packing; int8:
// the exact integer path into an int32 destination, its column GOPS); sgemm stays float.
// Prints a Markdown table of the best of --repeat runs. --only runs one side, for whole-process timings.
#include "exec/tensor_ops.h"

#include "openblas.h"
#include "timing.h"

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using metalcpu::exec::Microkernel;

// MTL::TensorDataType values.
constexpr mc_u32 kFloat32 = 3, kFloat16 = 16, kInt8 = 45, kInt32 = 29;

std::size_t sizeOf(mc_u32 type) { return type == kFloat16 ? 2 : type == kInt8 ? 1 : 4; }

mc_tensor_operand tensorOf(mc_u32 type, void* data, std::int64_t e0, std::int64_t e1, std::int64_t rowStride) {
    mc_tensor_operand operand{};
    operand.kind = MC_OPERAND_TENSOR;
    operand.data_type = type;
    operand.data = data;
    operand.extents[0] = e0, operand.extents[1] = e1;
    operand.strides[0] = 1, operand.strides[1] = rowStride;
    return operand;
}

struct Problem {
    int m, n, k;
    bool tiled; // made of 64x64 destination tiles
    mc_u32 type;                               // the executor's inputs
    std::vector<float> a, b, c;                // sgemm's (and the float executor's)
    std::vector<unsigned char> ta, tb, tc;     // the executor's in `type` (C: float or int32)
    Problem(int m_, int n_, int k_, bool tiled_, mc_u32 type_) : m(m_), n(n_), k(k_), tiled(tiled_), type(type_) {
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> pick(-1.0f, 1.0f);
        a.resize(std::size_t(m) * k);
        b.resize(std::size_t(k) * n);
        c.assign(std::size_t(m) * n, 0.0f);
        for (float& v : a) v = pick(rng);
        for (float& v : b) v = pick(rng);
        ta = convert(a);
        tb = convert(b);
        tc.assign(c.size() * 4, 0);
    }
    std::vector<unsigned char> convert(const std::vector<float>& values) const {
        std::vector<unsigned char> out(values.size() * sizeOf(type));
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (type == kFloat16) {
                const _Float16 h = _Float16(values[i]);
                std::memcpy(out.data() + 2 * i, &h, 2);
            } else if (type == kInt8) {
                out[i] = static_cast<unsigned char>(static_cast<std::int8_t>(values[i] * 127.0f));
            } else {
                std::memcpy(out.data() + 4 * i, &values[i], 4);
            }
        }
        return out;
    }
    double flops() const { return 2.0 * m * n * k; }
    /// One m x n x k product (A m x k, B k x n, C m x n, row-major with leading dimensions),
    /// as one executor call, from element (row, column) of each matrix.
    void executorProduct(int row, int column, int rows, int columns) {
        const std::size_t size = sizeOf(type);
        mc_matmul_call call{};
        call.m = rows, call.n = columns, call.k = k;
        call.left = tensorOf(type, ta.data() + std::size_t(row) * k * size, k, rows, k); // L is (k, m)
        call.right = tensorOf(type, tb.data() + std::size_t(column) * size, columns, k, n); // R is (n, k)
        call.destination = tensorOf(type == kInt8 ? kInt32 : kFloat32, tc.data() + (std::size_t(row) * n + column) * 4,
                                    columns, rows, n);
        metalcpu::exec::runTensorMatmul(call);
    }
    void runExecutor() {
        if (!tiled) return executorProduct(0, 0, m, n);
        for (int i = 0; i < m; i += 64)
            for (int j = 0; j < n; j += 64) executorProduct(i, j, 64, 64);
    }
#if defined(METALCPU_BENCH_OPENBLAS)
    void runSgemm() {
        cblas_sgemm(bench::kRowMajor, bench::kNoTranspose, bench::kNoTranspose, m, n, k, 1.0f, a.data(), k, b.data(), n,
                    0.0f, c.data(), n);
    }
#endif
};

const char* nameOf(Microkernel kernel) {
    switch (kernel) {
    case Microkernel::Generic: return "generic";
    case Microkernel::Avx2: return "avx2";
    case Microkernel::Avx512: return "avx512";
    default: return "automatic";
    }
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 5;
    std::string only, kernelName, typeName = "float";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
        else if (!std::strcmp(argv[i], "--kernel")) kernelName = argv[i + 1];
        else if (!std::strcmp(argv[i], "--type")) typeName = argv[i + 1];
    }
    const mc_u32 type = typeName == "half" ? kFloat16 : typeName == "int8" ? kInt8 : kFloat32;
    const char* unit = type == kInt8 ? "GOPS" : "GFLOPS";
#if defined(METALCPU_BENCH_OPENBLAS)
    openblas_set_num_threads(1);
    const bool haveSgemm = true;
#else
    const bool haveSgemm = false;
#endif
    std::vector<Microkernel> kernels;
    for (Microkernel kernel : {Microkernel::Generic, Microkernel::Avx2, Microkernel::Avx512})
        if (metalcpu::exec::microkernelSupported(kernel) && (kernelName.empty() || kernelName == nameOf(kernel)))
            kernels.push_back(kernel);

    std::printf("| product |");
    if (haveSgemm && only != "executor") std::printf(" sgemm GFLOPS |");
    if (only != "sgemm")
        for (Microkernel kernel : kernels)
            std::printf(" %s %s %s |%s", nameOf(kernel), typeName.c_str(), unit, haveSgemm ? " vs sgemm |" : "");
    std::printf("\n|---|");
    if (haveSgemm && only != "executor") std::printf("---|");
    if (only != "sgemm")
        for (std::size_t k = 0; k < kernels.size(); ++k) std::printf(haveSgemm ? "---|---|" : "---|");
    std::printf("\n");
    struct Shape {
        const char* name;
        int m, n, k;
        bool tiled;
    };
    for (const Shape shape : {Shape{"tile 64x64x64", 64, 64, 64, false}, Shape{"tile 64x64x256", 64, 64, 256, false},
                              Shape{"tile 64x64x1024", 64, 64, 1024, false}, Shape{"1024^2 tiled", 1024, 1024, 1024, true}}) {
        Problem problem(shape.m, shape.n, shape.k, shape.tiled, type);
        // Small products are timed in batches, so that one timing covers ~10 ms.
        const int batch = shape.tiled ? 1 : std::max(1, int(2e8 / problem.flops()));
        std::printf("| %s |", shape.name);
        double sgemm = 0;
#if defined(METALCPU_BENCH_OPENBLAS)
        if (only != "executor") {
            sgemm = problem.flops() * batch /
                    bench::bestSeconds(repeat, [&] { for (int b = 0; b < batch; ++b) problem.runSgemm(); }) / 1e9;
            std::printf(" %.1f |", sgemm);
        }
#endif
        if (only != "sgemm")
            for (Microkernel kernel : kernels) {
                metalcpu::exec::forceMicrokernelForTesting(kernel);
                const double gflops =
                    problem.flops() * batch /
                    bench::bestSeconds(repeat, [&] { for (int b = 0; b < batch; ++b) problem.runExecutor(); }) / 1e9;
                std::printf(" %.1f |", gflops);
                if (sgemm > 0) std::printf(" %.2f |", gflops / sgemm);
            }
        std::printf("\n");
    }
    return 0;
}
