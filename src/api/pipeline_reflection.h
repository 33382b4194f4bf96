// MTL::ComputePipelineReflection and its bindings, from a kernel's parameter reflection.
#pragma once

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLArgument.hpp>
#include <Metal/MTLArgumentEncoder.hpp>
#include <Metal/MTLComputePipeline.hpp>

#include <memory>

namespace metalcpu::rt {
class Device;
}

namespace metalcpu::api {

/// A +1 reflection of `kernel`'s arguments: a binding per buffer (MTL::BufferBinding),
/// threadgroup (ThreadgroupBinding), texture (TextureBinding) and sampler (Binding) parameter,
/// in parameter order; builtins, tensors and arguments a false function constant removes are
/// none. `keeper` keeps the kernel's reflection loaded while the bindings read it. With
/// `bufferTypes` (PipelineOptionBufferTypeInfo) buffer bindings hold the types of what they
/// point at (bufferStructType, bufferPointerType); else those answer nil, as in Metal.
MTL::ComputePipelineReflection* newPipelineReflection(const mc_kernel& kernel, std::shared_ptr<const void> keeper,
                                                      bool bufferTypes);

/// Device::newArgumentEncoder(bufferBinding): the encoder of the argument-buffer struct the
/// binding's buffer points at, or nullptr (reported) for a binding that is not an argument
/// buffer or was not made by a pipeline's reflection.
MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const MTL::BufferBinding* binding);

} // namespace metalcpu::api
