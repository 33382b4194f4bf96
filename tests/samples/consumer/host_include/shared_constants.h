// A header host code and kernels share: the program's include directory, handed to the
// kernels with metal_add_library(INCLUDE_DIRECTORIES_FROM run_kernels).
#pragma once
#define SHARED_CONSTANT 37
