// -*- C++ -*-
// MetalPerformancePrimitives' matmul2d and reductions (mpp::tensor_ops). MSL 4.0 and later.
#pragma once

#if defined(__METAL_VERSION__) && __METAL_VERSION__ < 400
#error "MetalPerformancePrimitives needs -std=metal4.0 (MTL::LanguageVersion4_0)"
#endif

#include <metal_cooperative_tensor>
#include <metal_tensor>
#include <metalcpu/stdlib/tensor/matmul.h>
