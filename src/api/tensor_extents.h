#pragma once

#include "runtime/tensor.h"

#include <Metal/MTLTensor.hpp>

namespace metalcpu::api {

/// The values of a slice argument (an MTL::TensorExtents), innermost first; empty for nil.
rt::Tensor::Extents sliceValues(const MTL::TensorExtents* extents);

} // namespace metalcpu::api
