// MTL::ArgumentEncoder's layouts: from a kernel's reflection or from ArgumentDescriptors.
#pragma once

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLArgumentEncoder.hpp>

#include <memory>

namespace metalcpu::rt {
class Device;
}

namespace metalcpu::api {

/// Function::newArgumentEncoder(bufferIndex): an encoder for the argument-buffer struct that
/// `kernel`'s buffer `bufferIndex` points at, or nullptr (logged, and reported by the debug
/// layer) when there is no such parameter or it points at no argument-buffer struct. `keeper`
/// keeps the kernel's reflection loaded while the encoder, and those it makes for the structs
/// its pointer members point at (newArgumentEncoder(id)), read it.
MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const mc_kernel& kernel, NS::UInteger bufferIndex,
                                         std::shared_ptr<const void> keeper);

/// Device::newArgumentEncoder(arguments): an encoder for MTL::ArgumentDescriptors, laid out as
/// a struct of their members in index order with their natural sizes and alignments (a
/// pointer, texture or sampler is 8 bytes), which a kernel's struct with the same members in
/// the same order reads. nullptr (reported) for an empty or unsorted array, or a data type
/// that cannot be in an argument buffer.
MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const NS::Array* arguments);

} // namespace metalcpu::api
