#include "MatrixMultiplier.h"
#include "ShaderParams.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

const char* kernelName(Kernel kernel) {
    switch (kernel) {
    case Kernel::Naive: return "mat_mul_naive";
    case Kernel::Tiled: return "mat_mul_tiled";
    case Kernel::Register4x4: return "mat_mul_register_4x4";
    case Kernel::Register8x4: return "mat_mul_register_8x4";
    }
    return "";
}

bool kernelSupports(Kernel kernel, unsigned rows, unsigned cols, unsigned inner) {
    switch (kernel) {
    case Kernel::Naive:
    case Kernel::Tiled: return true;
    case Kernel::Register4x4: return rows % 4 == 0 && cols % 4 == 0 && inner % 4 == 0;
    case Kernel::Register8x4: return rows % 8 == 0 && cols % 4 == 0 && inner % 4 == 0;
    }
    return false;
}

MatrixMultiplier::MatrixMultiplier(MTL::Device* device) : m_device(device) {
    m_library = m_device->newDefaultLibrary();
    if (!m_library) std::cout << "Failed to find the default library." << std::endl;
    m_queue = m_device->newCommandQueue();
}

MatrixMultiplier::~MatrixMultiplier() {
    release();
    if (m_pipeline) m_pipeline->release();
    if (m_queue) m_queue->release();
    if (m_library) m_library->release();
}

bool MatrixMultiplier::selectKernel(Kernel kernel) {
    if (!m_library) return false;
    MTL::Function* function = m_library->newFunction(NS::String::string(kernelName(kernel), NS::ASCIIStringEncoding));
    if (!function) {
        std::cout << "Failed to find the kernel " << kernelName(kernel) << "." << std::endl;
        return false;
    }
    NS::Error* error = nullptr;
    MTL::ComputePipelineState* pipeline = m_device->newComputePipelineState(function, &error);
    function->release();
    if (!pipeline) {
        std::cout << "Failed to create the pipeline: " << error->localizedDescription()->utf8String() << std::endl;
        return false;
    }
    if (m_pipeline) m_pipeline->release();
    m_pipeline = pipeline;
    m_kernel = kernel;
    return true;
}

void MatrixMultiplier::release() {
    for (MTL::Buffer* buffer : {m_a, m_b, m_c, m_params})
        if (buffer) buffer->release();
    m_a = m_b = m_c = m_params = nullptr;
}

void MatrixMultiplier::allocate(unsigned rows, unsigned cols, unsigned inner) {
    release();
    m_rows = rows;
    m_cols = cols;
    m_inner = inner;
    m_a = m_device->newBuffer(sizeof(float) * rows * inner, MTL::ResourceStorageModeShared);
    m_b = m_device->newBuffer(sizeof(float) * inner * cols, MTL::ResourceStorageModeShared);
    m_c = m_device->newBuffer(sizeof(float) * rows * cols, MTL::ResourceStorageModeShared);
    m_params = m_device->newBuffer(sizeof(MatMulParams), MTL::ResourceStorageModeShared);
    MatMulParams* params = static_cast<MatMulParams*>(m_params->contents());
    params->rows = rows;
    params->cols = cols;
    params->inner = inner;
}

void MatrixMultiplier::randomize(unsigned seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    float* a = static_cast<float*>(m_a->contents());
    float* b = static_cast<float*>(m_b->contents());
    for (unsigned i = 0; i < m_rows * m_inner; ++i) a[i] = uniform(generator);
    for (unsigned i = 0; i < m_inner * m_cols; ++i) b[i] = uniform(generator);
}

void MatrixMultiplier::poisonResult() {
    float* c = static_cast<float*>(m_c->contents());
    std::fill(c, c + m_rows * m_cols, std::numeric_limits<float>::quiet_NaN());
}

bool MatrixMultiplier::multiplyOnGpu() {
    MTL::CommandBuffer* commandBuffer = m_queue->commandBuffer();
    MTL::ComputeCommandEncoder* encoder = commandBuffer->computeCommandEncoder();
    encoder->setComputePipelineState(m_pipeline);
    encoder->setBuffer(m_a, 0, 0);
    encoder->setBuffer(m_b, 0, 1);
    encoder->setBuffer(m_c, 0, 2);
    encoder->setBuffer(m_params, 0, 3);
    switch (m_kernel) {
    case Kernel::Naive:
    case Kernel::Tiled: {
        // 16 x 16 threads per group (the tiled kernel's TILE), whole groups covering C.
        MTL::Size groupSize = MTL::Size::Make(16, 16, 1);
        MTL::Size groups = MTL::Size::Make((m_cols + 15) / 16, (m_rows + 15) / 16, 1);
        encoder->dispatchThreadgroups(groups, groupSize);
        break;
    }
    case Kernel::Register4x4:
        encoder->dispatchThreads(MTL::Size::Make(m_cols / 4, m_rows / 4, 1), MTL::Size::Make(8, 8, 1));
        break;
    case Kernel::Register8x4:
        encoder->dispatchThreads(MTL::Size::Make(m_cols / 4, m_rows / 8, 1), MTL::Size::Make(8, 8, 1));
        break;
    }
    encoder->endEncoding();
    commandBuffer->commit();
    commandBuffer->waitUntilCompleted();
    if (commandBuffer->status() != MTL::CommandBufferStatusCompleted) {
        NS::Error* error = commandBuffer->error();
        std::cout << "The command buffer failed: " << (error ? error->localizedDescription()->utf8String() : "?")
                  << std::endl;
        return false;
    }
    return true;
}

double MatrixMultiplier::maxErrorAgainstCpu() const {
    const float* a = static_cast<const float*>(m_a->contents());
    const float* b = static_cast<const float*>(m_b->contents());
    const float* c = static_cast<const float*>(m_c->contents());
    std::vector<double> row(m_cols);
    double maxError = 0.0;
    for (unsigned i = 0; i < m_rows; ++i) {
        std::fill(row.begin(), row.end(), 0.0);
        for (unsigned k = 0; k < m_inner; ++k) {
            const double aik = a[i * m_inner + k];
            for (unsigned j = 0; j < m_cols; ++j) row[j] += aik * b[k * m_cols + j];
        }
        for (unsigned j = 0; j < m_cols; ++j) {
            const double error = std::fabs(row[j] - c[i * m_cols + j]);
            if (std::isnan(error)) return std::numeric_limits<double>::infinity();
            maxError = std::max(maxError, error);
        }
    }
    return maxError;
}

void MatrixMultiplier::touchInputsOnCpu() {
    static_cast<float*>(m_a->contents())[0] *= 0.9f;
    static_cast<float*>(m_b->contents())[0] *= 0.95f;
}

void MatrixMultiplier::reluInputsOnCpu() {
    float* a = static_cast<float*>(m_a->contents());
    float* b = static_cast<float*>(m_b->contents());
    for (unsigned i = 0; i < m_rows * m_inner; ++i) a[i] = std::max(a[i], 0.0f);
    for (unsigned i = 0; i < m_inner * m_cols; ++i) b[i] = std::max(b[i], 0.0f);
}
