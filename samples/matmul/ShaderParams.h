// Shared by the host code and the kernels, as Xcode projects share one header.
#ifndef MATMUL_SHADER_PARAMS_H
#define MATMUL_SHADER_PARAMS_H

// C (rows x cols) = A (rows x inner) * B (inner x cols), all row-major.
typedef struct {
    unsigned int rows;
    unsigned int cols;
    unsigned int inner;
} MatMulParams;

#endif
