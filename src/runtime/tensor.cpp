#include "runtime/tensor.h"

#include "runtime/buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/errors.h"

#include <Foundation/NSString.hpp>

#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <unordered_set>

namespace metalcpu::rt {
namespace {

constexpr const char* kTensorErrorDomain = "MTLTensorDomain";
// Where the checks of slice copies report (DebugLayer::Site; Apple's class, lines ours).
constexpr DebugLayer::Site kReplaceSlice = {"MTLDebugTensor", "replaceSliceOrigin:sliceDimensions:withBytes:strides:",
                                            101};
constexpr DebugLayer::Site kGetBytes = {"MTLDebugTensor", "getBytes:strides:fromSliceOrigin:sliceDimensions:", 102};

/// The alignment tensorSizeAndAlign asks for: a cache line, so that a tensor placed at it
/// never shares one with its neighbour.
constexpr std::uint64_t kTensorAlignment = 64;

/// Every live tensor, so that a ResourceID in an argument table can be turned back into one.
struct Registry {
    std::shared_mutex mutex;
    std::unordered_set<const Tensor*> live;
};
Registry& registry() {
    static Registry* const instance = new Registry; // never destroyed: tensors may outlive statics
    return *instance;
}

std::string typeName(MTL::TensorDataType type) { return Tensor::dataTypeName(type); }

/// What is wrong with `shape` as a tensor's shape (strides aside), or "" when nothing is.
std::string shapeProblem(const TensorShape& shape) {
    if (shape.auxiliaryPlanes) return "auxiliary planes (block-scaled tensors) are not supported by metalcpu yet";
    if (shape.rank == 0 || shape.rank > METALCPU_MAX_TENSOR_RANK)
        return "rank " + std::to_string(shape.rank) + " is outside 1 to " +
               std::to_string(METALCPU_MAX_TENSOR_RANK);
    if (Tensor::elementSize(shape.dataType) == 0)
        return shape.dataType == MTL::TensorDataTypeNone
                   ? "dataType is MTLTensorDataTypeNone"
                   : typeName(shape.dataType) + " tensors are not supported by metalcpu yet";
    std::int64_t elements = 1;
    for (std::uint32_t d = 0; d < shape.rank; ++d) {
        if (shape.extents[d] <= 0)
            return "dimension " + std::to_string(d) + " has extent " + std::to_string(shape.extents[d]) +
                   ", which must be positive";
        // Packed strides are these products: they must not wrap (no memory holds such a tensor).
        if (__builtin_mul_overflow(elements, shape.extents[d], &elements))
            return "its dimensions hold more than 2^63 elements";
    }
    const auto storage = static_cast<MTL::StorageMode>((shape.options >> 4) & 0xf);
    if (storage == MTL::StorageModeMemoryless) return "storageMode MTLStorageModeMemoryless cannot hold a tensor";
    return {};
}

/// What is wrong with the descriptor's strides (Apple's rules: the first is 1, each is at
/// least the span of the dimension before), or "".
std::string strideProblem(const TensorShape& shape) {
    if (shape.strideRank == 0) return {};
    if (shape.strideRank != shape.rank)
        return "strides have rank " + std::to_string(shape.strideRank) + " but dimensions have rank " +
               std::to_string(shape.rank);
    if (shape.strides[0] != 1) return "strides[0] is " + std::to_string(shape.strides[0]) + ", which must be 1";
    for (std::uint32_t d = 1; d < shape.rank; ++d) {
        std::int64_t span = 0;
        if (__builtin_mul_overflow(shape.strides[d - 1], shape.extents[d - 1], &span))
            return "strides[" + std::to_string(d - 1) + "] x dimensions[" + std::to_string(d - 1) +
                   "] exceeds 2^63 elements";
        if (shape.strides[d] < span)
            return "strides[" + std::to_string(d) + "] is " + std::to_string(shape.strides[d]) +
                   ", less than strides[" + std::to_string(d - 1) + "] x dimensions[" + std::to_string(d - 1) +
                   "] = " + std::to_string(span);
    }
    return {};
}

/// `shape` with its strides filled: the descriptor's, or packed ones.
TensorShape withStrides(TensorShape shape, bool useDescriptorStrides) {
    if (!useDescriptorStrides || shape.strideRank == 0) {
        std::int64_t stride = 1;
        for (std::uint32_t d = 0; d < shape.rank; ++d) {
            shape.strides[d] = stride;
            stride *= shape.extents[d];
        }
    }
    shape.strideRank = shape.rank;
    return shape;
}

/// Bytes from the first element to just past the last one of a shape with strides filled;
/// UINT64_MAX when that does not fit 64 bits, which no buffer length passes.
std::uint64_t spanBytes(const TensorShape& shape) {
    constexpr std::uint64_t kTooLarge = ~std::uint64_t(0);
    std::uint64_t lastElement = 0;
    for (std::uint32_t d = 0; d < shape.rank; ++d) {
        std::uint64_t reach = 0;
        if (__builtin_mul_overflow(static_cast<std::uint64_t>(shape.extents[d] - 1),
                                   static_cast<std::uint64_t>(shape.strides[d]), &reach) ||
            __builtin_add_overflow(lastElement, reach, &lastElement))
            return kTooLarge;
    }
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(lastElement + 1, Tensor::elementSize(shape.dataType), &bytes)) return kTooLarge;
    return bytes;
}

MTL::Tensor* invalid(NS::Error** error, const std::string& problem) {
    setError(error, kTensorErrorDomain, MTL::TensorErrorInvalidDescriptor, "Invalid tensor descriptor: " + problem + ".");
    return nullptr;
}

} // namespace

std::uint64_t Tensor::elementSize(MTL::TensorDataType type) {
    switch (type) {
    case MTL::TensorDataTypeInt8: case MTL::TensorDataTypeUInt8:
        return 1;
    case MTL::TensorDataTypeFloat16: case MTL::TensorDataTypeBFloat16:
    case MTL::TensorDataTypeInt16: case MTL::TensorDataTypeUInt16:
        return 2;
    case MTL::TensorDataTypeFloat32: case MTL::TensorDataTypeInt32: case MTL::TensorDataTypeUInt32:
        return 4;
    default:
        return 0; // None, and the sub-byte and 8-bit float formats (not supported yet)
    }
}

MTL::Tensor* Tensor::make(Device* device, const TensorShape& shape, NS::Error** error) {
    if (std::string problem = shapeProblem(shape); !problem.empty()) return invalid(error, problem);
    // Strides only apply to tensors over a buffer; a device tensor is packed.
    const TensorShape packed = withStrides(shape, false);
    const std::uint64_t bytes = spanBytes(packed);
    if (bytes > device->maxBufferLength())
        return invalid(error, "the tensor needs " + std::to_string(bytes) + " bytes, more than maxBufferLength (" +
                                  std::to_string(device->maxBufferLength()) + ")");
    MTL::Buffer* storage = device->newBuffer(bytes, shape.options);
    if (!storage) {
        setError(error, kTensorErrorDomain, MTL::TensorErrorInternalError,
                 "Could not allocate " + std::to_string(bytes) + " bytes for the tensor.");
        return nullptr;
    }
    auto* buffer = static_cast<Buffer*>(storage);
    MTL::Tensor* made = ns::make<Tensor>(buffer, true, packed, 0);
    buffer->release(); // the tensor holds its own reference
    return made;
}

MTL::Tensor* Tensor::overBuffer(Buffer* buffer, const TensorShape& shape, std::uint64_t offset, NS::Error** error) {
    if (std::string problem = shapeProblem(shape); !problem.empty()) return invalid(error, problem);
    if (std::string problem = strideProblem(shape); !problem.empty()) return invalid(error, problem);
    const TensorShape strided = withStrides(shape, true);
    const std::uint64_t size = elementSize(shape.dataType);
    if (offset % size != 0)
        return invalid(error, "offset " + std::to_string(offset) + " is not a multiple of the element size (" +
                                  std::to_string(size) + " bytes)");
    if ((shape.usage & MTL::TensorUsageMachineLearning) && offset != 0)
        return invalid(error, "offset " + std::to_string(offset) + " must be 0 for MTLTensorUsageMachineLearning");
    const std::uint64_t bytes = spanBytes(strided);
    if (offset > buffer->length() || bytes > buffer->length() - offset)
        return invalid(error, "the tensor needs " + std::to_string(bytes) + " bytes from offset " +
                                  std::to_string(offset) + ", beyond the buffer's length (" +
                                  std::to_string(buffer->length()) + ")");
    return ns::make<Tensor>(buffer, false, strided, offset);
}

MTL::SizeAndAlign Tensor::sizeAndAlign(const TensorShape& shape) {
    if (!shapeProblem(shape).empty() || !strideProblem(shape).empty()) return MTL::SizeAndAlign{0, 0};
    const std::uint64_t bytes = spanBytes(withStrides(shape, true));
    if (bytes > ~std::uint64_t(0) - kTensorAlignment) return MTL::SizeAndAlign{0, 0};
    return MTL::SizeAndAlign{(bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment, kTensorAlignment};
}

Tensor* Tensor::fromResourceID(MTL::ResourceID id) {
    auto* candidate = reinterpret_cast<const Tensor*>(id._impl);
    Registry& live = registry();
    std::shared_lock lock(live.mutex);
    return live.live.contains(candidate) ? const_cast<Tensor*>(candidate) : nullptr;
}

Tensor::Tensor(Buffer* storage, bool ownsStorage, const TensorShape& shape, std::uint64_t offset)
    : Implements(storage->device(), ownsStorage ? shape.options : storage->options()), storage_(storage),
      ownsStorage_(ownsStorage), shape_(shape), offset_(offset) {
    storage_->retain();
    Registry& live = registry();
    std::unique_lock lock(live.mutex);
    live.live.insert(this);
}

Tensor::~Tensor() {
    {
        Registry& live = registry();
        std::unique_lock lock(live.mutex);
        live.live.erase(this);
    }
    storage_->release();
}

std::uint64_t Tensor::allocatedSize() const {
    // A tensor over the program's buffer occupies none of its own (as a texture over a buffer).
    return ownsStorage_ ? storage_->allocatedSize() : 0;
}

std::string Tensor::description() const {
    std::string text = "<MTLTensor: " + typeName(shape_.dataType) + ", dimensions (";
    for (std::uint32_t d = 0; d < shape_.rank; ++d) text += (d ? ", " : "") + std::to_string(shape_.extents[d]);
    return text + ")>";
}

std::uint8_t* Tensor::elements() const { return storage_->memory() + offset_; }

void Tensor::kernelView(mc_tensor& out) const {
    out = mc_tensor{};
    out.data = elements();
    out.checked = 0;
    out.rank = shape_.rank;
    out.data_type = static_cast<mc_u32>(shape_.dataType);
    for (std::uint32_t d = 0; d < shape_.rank; ++d) {
        out.extents[d] = shape_.extents[d];
        out.strides[d] = shape_.strides[d];
    }
}

bool Tensor::sliceIsValid(Direction direction, Extents origin, Extents dimensions, const void* bytes,
                          Extents strides) const {
    const DebugLayer::Site site = direction == Direction::IntoTensor ? kReplaceSlice : kGetBytes;
    if (storageMode() == MTL::StorageModePrivate) {
        DebugLayer::reject(site, "Cannot access the contents of a tensor with MTLStorageModePrivate.");
        return false;
    }
    if (!bytes) {
        DebugLayer::reject(site, "bytes must not be nil.");
        return false;
    }
    const auto rankProblem = [&](Extents values, const char* name, bool optional) {
        if (values.size() == shape_.rank || (optional && values.empty())) return false;
        DebugLayer::reject(site, std::string(name) + " has rank " + std::to_string(values.size()) +
                                     " but the tensor has rank " + std::to_string(shape_.rank) + ".");
        return true;
    };
    if (rankProblem(origin, "sliceOrigin", false) || rankProblem(dimensions, "sliceDimensions", false) ||
        rankProblem(strides, "strides", true))
        return false;
    for (std::uint32_t d = 0; d < shape_.rank; ++d)
        if (origin[d] < 0 || dimensions[d] < 0 || origin[d] > shape_.extents[d] ||
            dimensions[d] > shape_.extents[d] - origin[d]) {
            DebugLayer::reject(site, "The slice (origin " + std::to_string(origin[d]) + ", size " +
                                         std::to_string(dimensions[d]) + ") of dimension " + std::to_string(d) +
                                         " is outside the tensor's extent " + std::to_string(shape_.extents[d]) +
                                         ".");
            return false;
        }
    return true;
}

void Tensor::copySlice(Direction direction, std::uint8_t* bytes, Extents strides, Extents origin,
                       Extents dimensions) const {
    const std::uint32_t rank = shape_.rank;
    const std::uint64_t size = elementSize(shape_.dataType);
    std::array<std::int64_t, METALCPU_MAX_TENSOR_RANK> hostStrides{};
    std::int64_t packed = 1;
    for (std::uint32_t d = 0; d < rank; ++d) {
        hostStrides[d] = strides.empty() ? packed : strides[d];
        packed *= dimensions[d];
    }
    if (packed == 0) return;
    // Innermost dimension first: the odometer below walks dimensions 1..rank-1, copying one
    // run of dimension 0 per step (one memcpy when both sides are contiguous there).
    std::uint8_t* tensorBase = elements();
    for (std::uint32_t d = 0; d < rank; ++d)
        tensorBase += static_cast<std::uint64_t>(origin[d] * shape_.strides[d]) * size;
    const bool contiguous = shape_.strides[0] == 1 && hostStrides[0] == 1;
    std::array<std::int64_t, METALCPU_MAX_TENSOR_RANK> index{};
    for (;;) {
        std::int64_t tensorElement = 0, hostElement = 0;
        for (std::uint32_t d = 1; d < rank; ++d) {
            tensorElement += index[d] * shape_.strides[d];
            hostElement += index[d] * hostStrides[d];
        }
        std::uint8_t* tensorRun = tensorBase + static_cast<std::uint64_t>(tensorElement) * size;
        std::uint8_t* hostRun = bytes + static_cast<std::uint64_t>(hostElement) * size;
        const std::int64_t runLength = contiguous ? 1 : dimensions[0];
        const std::uint64_t chunk = contiguous ? static_cast<std::uint64_t>(dimensions[0]) * size : size;
        for (std::int64_t x = 0; x < runLength; ++x) {
            std::uint8_t* t = tensorRun + static_cast<std::uint64_t>(x * shape_.strides[0]) * size;
            std::uint8_t* h = hostRun + static_cast<std::uint64_t>(x * hostStrides[0]) * size;
            if (direction == Direction::IntoTensor)
                std::memcpy(t, h, chunk);
            else
                std::memcpy(h, t, chunk);
        }
        std::uint32_t d = 1;
        for (; d < rank; ++d) {
            if (++index[d] < dimensions[d]) break;
            index[d] = 0;
        }
        if (d >= rank) return;
    }
}

void Tensor::replaceSlice(Extents origin, Extents dimensions, const void* bytes, Extents strides) {
    if (!sliceIsValid(Direction::IntoTensor, origin, dimensions, bytes, strides)) return;
    copySlice(Direction::IntoTensor, static_cast<std::uint8_t*>(const_cast<void*>(bytes)), strides, origin,
              dimensions);
}

void Tensor::getSlice(void* bytes, Extents strides, Extents origin, Extents dimensions) const {
    if (!sliceIsValid(Direction::OutOfTensor, origin, dimensions, bytes, strides)) return;
    copySlice(Direction::OutOfTensor, static_cast<std::uint8_t*>(bytes), strides, origin, dimensions);
}

std::string Tensor::dataTypeName(MTL::TensorDataType type) {
    switch (type) {
    case MTL::TensorDataTypeNone: return "MTLTensorDataTypeNone";
    case MTL::TensorDataTypeFloat32: return "MTLTensorDataTypeFloat32";
    case MTL::TensorDataTypeFloat16: return "MTLTensorDataTypeFloat16";
    case MTL::TensorDataTypeBFloat16: return "MTLTensorDataTypeBFloat16";
    case MTL::TensorDataTypeInt8: return "MTLTensorDataTypeInt8";
    case MTL::TensorDataTypeUInt8: return "MTLTensorDataTypeUInt8";
    case MTL::TensorDataTypeInt16: return "MTLTensorDataTypeInt16";
    case MTL::TensorDataTypeUInt16: return "MTLTensorDataTypeUInt16";
    case MTL::TensorDataTypeInt32: return "MTLTensorDataTypeInt32";
    case MTL::TensorDataTypeUInt32: return "MTLTensorDataTypeUInt32";
    case MTL::TensorDataTypeInt4: return "MTLTensorDataTypeInt4";
    case MTL::TensorDataTypeUInt4: return "MTLTensorDataTypeUInt4";
    case MTL::TensorDataTypeInt2: return "MTLTensorDataTypeInt2";
    case MTL::TensorDataTypeUInt2: return "MTLTensorDataTypeUInt2";
    case MTL::TensorDataTypeMetalFloat8UE8M0: return "MTLTensorDataTypeMetalFloat8UE8M0";
    case MTL::TensorDataTypeMetalFloat8E5M2: return "MTLTensorDataTypeMetalFloat8E5M2";
    case MTL::TensorDataTypeMetalFloat8E4M3: return "MTLTensorDataTypeMetalFloat8E4M3";
    case MTL::TensorDataTypeMetalFloat4E2M1: return "MTLTensorDataTypeMetalFloat4E2M1";
    }
    return "data type " + std::to_string(static_cast<long long>(type));
}

} // namespace metalcpu::rt
