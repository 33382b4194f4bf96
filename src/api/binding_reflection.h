// MTL::ComputePipelineReflection and MTL::FunctionReflection: the bindings of a kernel's
// parameters, from their reflection in the kernel library.
#pragma once

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLArgument.hpp>
#include <Metal/MTLArgumentEncoder.hpp>
#include <Metal/MTLComputePipeline.hpp>
#include <Metal/MTLLibrary.hpp>

#include <memory>

namespace metalcpu::rt {
class Device;
}

namespace metalcpu::api {

/// A +1 reflection of `kernel`'s arguments: a binding per buffer (MTL::BufferBinding),
/// threadgroup (ThreadgroupBinding), texture (TextureBinding), sampler (Binding) and tensor
/// (TensorBinding) parameter, in parameter order; builtins and arguments a false function
/// constant removes are none. `keeper` keeps the kernel's reflection loaded while the bindings
/// read it. With `bufferTypes` (PipelineOptionBufferTypeInfo) buffer bindings hold the types of
/// what they point at (bufferStructType, bufferPointerType); else those answer nil, as in Metal.
MTL::ComputePipelineReflection* newPipelineReflection(const mc_kernel& kernel, std::shared_ptr<const void> keeper,
                                                      bool bufferTypes);

/// A +1 MTL::FunctionReflection of `kernel` (Library::reflectionForFunction): the same bindings,
/// with their buffers' types (no option asks for them there), and its [[user_annotation]].
MTL::FunctionReflection* newFunctionReflection(const mc_kernel& kernel, std::shared_ptr<const void> keeper);

/// Device::newArgumentEncoder(bufferBinding): the encoder of the argument-buffer struct the
/// binding's buffer points at, or nullptr (reported) for a binding that is not an argument
/// buffer or was not made by metalcpu's reflection (of a pipeline or a function).
MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const MTL::BufferBinding* binding);

} // namespace metalcpu::api
