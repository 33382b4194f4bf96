// The CPU reference of the classic metal-cpp matrix-multiplication benchmark, written the way
// such programs write it: only <Metal/Metal.hpp>, <Accelerate/Accelerate.h> and <iostream> are
// included, and assert, fabs, FLT_EPSILON, rand, std::vector and std::chrono come with them, as
// on macOS; the matrices live in shared Metal buffers; cblas_sgemm with CblasRowMajor computes
// the reference. It is checked against a triple loop, as is vDSP_mmul; the program exits with
// 1 on a mismatch. Built here (accelerate.matmul_reference) and, against an installed
// metalcpu, by the program of tests/accelerate/consumer.

#include <Metal/Metal.hpp>

#include <Accelerate/Accelerate.h>

#include <iostream>

namespace {

void fillRandom(float* values, unsigned count) {
    for (unsigned i = 0; i < count; ++i) values[i] = static_cast<float>(rand()) / static_cast<float>(RAND_MAX);
}

// The benchmark's comparison: relative to the larger magnitude, with room for one rounding
// per term of the sum.
bool almostEqual(float a, float b, unsigned inner) {
    return fabs(a - b) <= static_cast<float>(inner) * FLT_EPSILON * fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b)));
}

bool checkProduct(MTL::Device* device, unsigned rows, unsigned columns, unsigned inner) {
    MTL::Buffer* bufferA = device->newBuffer(sizeof(float) * rows * inner, MTL::ResourceStorageModeShared);
    MTL::Buffer* bufferB = device->newBuffer(sizeof(float) * inner * columns, MTL::ResourceStorageModeShared);
    MTL::Buffer* bufferC = device->newBuffer(sizeof(float) * rows * columns, MTL::ResourceStorageModeShared);
    assert(bufferA && bufferB && bufferC);
    float* A = static_cast<float*>(bufferA->contents());
    float* B = static_cast<float*>(bufferB->contents());
    float* C = static_cast<float*>(bufferC->contents());
    fillRandom(A, rows * inner);
    fillRandom(B, inner * columns);

    const auto start = std::chrono::high_resolution_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(columns),
                static_cast<int>(inner), 1.0f, A, static_cast<int>(inner), B, static_cast<int>(columns), 0.0f, C,
                static_cast<int>(columns));
    const auto stop = std::chrono::high_resolution_clock::now();
    std::vector<float> viaVdsp(rows * columns);
    vDSP_mmul(A, 1, B, 1, viaVdsp.data(), 1, rows, columns, inner);

    unsigned mismatches = 0;
    for (unsigned row = 0; row < rows; ++row)
        for (unsigned column = 0; column < columns; ++column) {
            float expected = 0.0f;
            for (unsigned k = 0; k < inner; ++k) expected += A[row * inner + k] * B[k * columns + column];
            const unsigned index = row * columns + column;
            if (!almostEqual(C[index], expected, inner) || !almostEqual(viaVdsp[index], expected, inner)) {
                if (mismatches++ == 0)
                    printf("mismatch at (%u, %u): cblas_sgemm %f, vDSP_mmul %f, loop %f\n", row, column, C[index],
                           viaVdsp[index], expected);
            }
        }
    const double seconds = std::chrono::duration<double>(stop - start).count();
    const std::string shape = std::to_string(rows) + "x" + std::to_string(columns) + "x" + std::to_string(inner);
    std::cout << shape << ": cblas_sgemm " << 2.0 * rows * columns * inner / seconds / 1e9 << " GFLOPS, "
              << (mismatches == 0 ? "matches" : "MISMATCH") << std::endl;
    bufferA->release();
    bufferB->release();
    bufferC->release();
    return mismatches == 0;
}

} // namespace

int main() {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    if (!device) {
        std::cerr << "no Metal device" << std::endl;
        return 1;
    }
    srand(42);
    bool ok = true;
    const unsigned shapes[][3] = {{64, 64, 64}, {100, 75, 33}, {256, 128, 96}};
    for (const auto& shape : shapes) ok = checkProduct(device, shape[0], shape[1], shape[2]) && ok;
    device->release();
    pool->release();
    return ok ? 0 : 1;
}
