#pragma once

#include "runtime/tensor.h"

#include <Metal/MTLTensor.hpp>

namespace metalcpu::rt {

class CommandSink;

/// Records copyFromTensor into `sink`: element i of the slice of `source` at `sourceOrigin` of
/// `sourceDimensions` goes to element i of the destination slice (dimension 0 fastest on both
/// sides), as buffer copies of the runs both tensors hold contiguously, so they run in order
/// with the commands around them. The tensors must have one data type, the slices as many
/// elements and lie inside their tensors; a mistake is reported as
/// `-[debugClassName copyFromTensor:…]` and recorded so that the command buffer fails there.
void encodeTensorCopy(CommandSink& sink, const char* debugClassName, const MTL::Tensor* source,
                      Tensor::Extents sourceOrigin, Tensor::Extents sourceDimensions, const MTL::Tensor* destination,
                      Tensor::Extents destinationOrigin, Tensor::Extents destinationDimensions);

} // namespace metalcpu::rt
