// -*- C++ -*-
// MetalPerformancePrimitives' convolution2d: not provided yet. Including this header works
// (the umbrella header includes it); naming convolution2d is a compile error that says so.
#pragma once

#include <MetalPerformancePrimitives/MPPTensorOpsMatMul2d.h>

namespace mpp::tensor_ops {

namespace metalcpu_detail {
template <class... T> inline constexpr bool not_yet = false;
}

template <class... Args>
struct convolution2d_descriptor {
    static_assert(metalcpu_detail::not_yet<Args...>, "mpp::tensor_ops::convolution2d is not supported by metalcpu yet");
};
template <class... Args>
struct convolution2d {
    static_assert(metalcpu_detail::not_yet<Args...>, "mpp::tensor_ops::convolution2d is not supported by metalcpu yet");
};

} // namespace mpp::tensor_ops
