#pragma once

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include <string>

// The four matrix-multiplication kernels in default.metallib.
enum class Kernel { Naive, Tiled, Register4x4, Register8x4 };
const char* kernelName(Kernel kernel);
// Whether a kernel can multiply matrices of these sizes (the register-tiled ones need multiples).
bool kernelSupports(Kernel kernel, unsigned rows, unsigned cols, unsigned inner);

// Owns the Metal objects for C = A * B on shared buffers: the CPU reads and writes the same
// memory the kernels use, without copies.
class MatrixMultiplier {
public:
    explicit MatrixMultiplier(MTL::Device* device);
    ~MatrixMultiplier();

    bool selectKernel(Kernel kernel);
    void allocate(unsigned rows, unsigned cols, unsigned inner);
    void randomize(unsigned seed);
    // Fills C with NaN, so that an element a kernel leaves unwritten fails the CPU check.
    void poisonResult();

    // Encodes one multiplication, commits it and waits.
    bool multiplyOnGpu();
    // Largest absolute difference between C and a double-precision CPU product (infinity
    // when C holds a NaN).
    double maxErrorAgainstCpu() const;

    // CPU work on the shared buffers, for the interleaving experiment.
    void touchInputsOnCpu();
    void reluInputsOnCpu();

private:
    void release();

    MTL::Device* m_device;
    MTL::Library* m_library = nullptr;
    MTL::CommandQueue* m_queue = nullptr;
    MTL::ComputePipelineState* m_pipeline = nullptr;
    Kernel m_kernel = Kernel::Naive;
    MTL::Buffer* m_a = nullptr;
    MTL::Buffer* m_b = nullptr;
    MTL::Buffer* m_c = nullptr;
    MTL::Buffer* m_params = nullptr;
    unsigned m_rows = 0, m_cols = 0, m_inner = 0;
};
