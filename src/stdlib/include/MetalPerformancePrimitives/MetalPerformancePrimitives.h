// -*- C++ -*-
// MetalPerformancePrimitives: tensor operations for Metal 4 kernels (brings <metal_tensor>
// and <metal_cooperative_tensor>). MSL 4.0 and later.
#pragma once

#if defined(__METAL_VERSION__) && __METAL_VERSION__ < 400
#error "MetalPerformancePrimitives needs -std=metal4.0 (MTL::LanguageVersion4_0)"
#endif

#include <MetalPerformancePrimitives/MPPTensorOpsConvolution2d.h>
#include <MetalPerformancePrimitives/MPPTensorOpsMatMul2d.h>
