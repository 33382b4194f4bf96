// -*- C++ -*-
// MetalPerformancePrimitives' convolution2d: not provided yet. Including this header works
// (the umbrella header includes it); naming convolution2d is a compile error at that line.
#pragma once

#if defined(__METAL_VERSION__) && __METAL_VERSION__ < 400
#error "MetalPerformancePrimitives needs -std=metal4.0 (MTL::LanguageVersion4_0)"
#endif

#include <MetalPerformancePrimitives/MPPTensorOpsMatMul2d.h>

namespace mpp::tensor_ops {

namespace metalcpu_detail {
// Never defined: a convolution2d is an incomplete type, so the compiler's error sits at the
// kernel's own line and names convolution2d (a static_assert would point into this header).
template <class... Args> struct convolution2d_is_not_supported_by_metalcpu_yet;
} // namespace metalcpu_detail

template <class... Args>
using convolution2d_descriptor = metalcpu_detail::convolution2d_is_not_supported_by_metalcpu_yet<Args...>;
template <class... Args>
using convolution2d = metalcpu_detail::convolution2d_is_not_supported_by_metalcpu_yet<Args...>;

} // namespace mpp::tensor_ops
