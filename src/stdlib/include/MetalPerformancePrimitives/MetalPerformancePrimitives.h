// -*- C++ -*-
// MetalPerformancePrimitives: tensor operations for Metal 4 kernels (brings <metal_tensor>
// and <metal_cooperative_tensor>). MSL 4.0 and later.
#pragma once

#include <MetalPerformancePrimitives/MPPTensorOpsConvolution2d.h>
#include <MetalPerformancePrimitives/MPPTensorOpsMatMul2d.h>
