#pragma once

#include "runtime/resource_core.h"

#include <metalcpu/kernel_abi.h>

#include <Metal/MTLDevice.hpp>
#include <Metal/MTLTensor.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace NS {
class Error;
}

namespace metalcpu::rt {

class Buffer;

/// What a tensor descriptor says about the tensor to make. Extents and strides are innermost
/// first (dimension 0 is the contiguous one) and count elements.
struct TensorShape {
    MTL::TensorDataType dataType = MTL::TensorDataTypeFloat32;
    std::uint32_t rank = 1;
    std::array<std::int64_t, METALCPU_MAX_TENSOR_RANK> extents{1};
    /// Only tensors over a buffer use them (as on Apple GPUs); strideRank 0 means packed.
    std::uint32_t strideRank = 0;
    std::array<std::int64_t, METALCPU_MAX_TENSOR_RANK> strides{};
    MTL::TensorUsage usage = MTL::TensorUsageCompute;
    MTL::ResourceOptions options = 0;
    /// The descriptor configures auxiliary planes (block-scaled formats), which metalcpu
    /// cannot make yet.
    bool auxiliaryPlanes = false;
};

/// A tensor: a rank 1-16 array of elements in a buffer, what tensor_handle kernel parameters
/// see. Device::newTensor gives it a buffer of its own (packed); Buffer::newTensor puts it in
/// the program's buffer at an offset, with the descriptor's strides.
class Tensor final : public ns::Implements<MTL::Tensor, ResourceCore> {
public:
    /// Per-dimension values of a slice copy, innermost first.
    using Extents = std::span<const std::int64_t>;

    /// A new zero-filled tensor with packed strides, or nullptr with a TensorDomain error
    /// (TensorErrorInvalidDescriptor) when `shape` is not one metalcpu can make.
    static MTL::Tensor* make(Device* device, const TensorShape& shape, NS::Error** error);
    /// A tensor over `buffer` (retained) from byte `offset`, or nullptr with an error when
    /// the shape, strides or offset do not fit the buffer.
    static MTL::Tensor* overBuffer(Buffer* buffer, const TensorShape& shape, std::uint64_t offset,
                                   NS::Error** error);
    /// The bytes and alignment a tensor of `shape` needs in a buffer (zero when the shape is
    /// invalid).
    static MTL::SizeAndAlign sizeAndAlign(const TensorShape& shape);
    /// The live tensor whose gpuResourceID() is `id`, or nullptr. Thread-safe; the caller
    /// keeps the tensor alive (as Metal requires of bound resources).
    static Tensor* fromResourceID(MTL::ResourceID id);
    /// Bytes of one element of `type`; 0 for types metalcpu does not support.
    static std::uint64_t elementSize(MTL::TensorDataType type);
    /// Apple's name of `type` ("MTLTensorDataTypeFloat16"), for messages.
    static std::string dataTypeName(MTL::TensorDataType type);

    /// (for make<> only) `storage` is retained.
    Tensor(Buffer* storage, bool ownsStorage, const TensorShape& shape, std::uint64_t offset);
    ~Tensor() override;

    // The core's, not the public class's trampolines of the same names.
    using ResourceCore::device;
    using ResourceCore::label;
    using ResourceCore::storageMode;

    const char* className() const override { return "MTLTensor"; }
    std::string description() const override;
    std::uint64_t allocatedSize() const override;

    MTL::TensorDataType dataType() const { return shape_.dataType; }
    std::uint32_t rank() const { return shape_.rank; }
    MTL::TensorUsage usage() const { return shape_.usage; }
    std::int64_t extent(std::uint32_t dimension) const { return shape_.extents[dimension]; }
    std::int64_t stride(std::uint32_t dimension) const { return shape_.strides[dimension]; }
    /// The buffer holding the elements: the program's for Buffer::newTensor, a buffer of the
    /// tensor's own for Device::newTensor (which MTL::Tensor::buffer() does not show).
    Buffer* buffer() const { return storage_; }
    /// Whether the program made the tensor over its buffer (Buffer::newTensor).
    bool overProgramBuffer() const { return !ownsStorage_; }
    std::uint64_t bufferOffset() const { return offset_; }
    MTL::ResourceID gpuResourceID() const { return MTL::ResourceID{reinterpret_cast<std::uint64_t>(this)}; }
    /// What a kernel bound to this tensor sees (`checked` left 0: validated dispatches fill it).
    void kernelView(mc_tensor& out) const;

    /// Copies the slice at `origin` of `dimensions` (both `rank()` long) from or into
    /// `bytes`, laid out with `strides` (`rank()` long, elements, innermost first; empty =
    /// packed). A slice that leaves the tensor, arguments of another rank, or private storage
    /// are reported and copy nothing.
    void replaceSlice(Extents origin, Extents dimensions, const void* bytes, Extents strides);
    void getSlice(void* bytes, Extents strides, Extents origin, Extents dimensions) const;

private:
    enum class Direction { IntoTensor, OutOfTensor };
    /// Whether a slice copy may go ahead; reports why not through the debug layer.
    bool sliceIsValid(Direction direction, Extents origin, Extents dimensions, const void* bytes,
                      Extents strides) const;
    void copySlice(Direction direction, std::uint8_t* bytes, Extents strides, Extents origin,
                   Extents dimensions) const;
    std::uint8_t* elements() const;

    Buffer* storage_;
    bool ownsStorage_;
    TensorShape shape_; ///< strides always filled, strideRank == rank
    std::uint64_t offset_;
};

} // namespace metalcpu::rt
