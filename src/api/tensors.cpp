// Tensor settings (MTL::TensorExtents, MTL::TensorDescriptor, the auxiliary-plane descriptors and
// MTL::TensorBufferAttachments), the tensor factories of the device and of buffers, and
// MTL::Tensor (rt::Tensor). Tensors have a data plane only: MTL::TensorAuxiliaryPlane is never
// made, and descriptors with auxiliary planes are refused.
#include "api/not_yet.h"
#include "api/settings.h"
#include "api/tensor_extents.h"
#include "foundation/string.h"
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "runtime/errors.h"
#include "runtime/tensor.h"

#include <Metal/MTLBuffer.hpp>
#include <Metal/MTLTensor.hpp>

#include <algorithm>
#include <array>
#include <map>

namespace metalcpu::api {
namespace {

/// Tensor ranks go up to MTL_TENSOR_MAX_RANK.
constexpr NS::UInteger kMaxRank = 16;

/// Immutable once initialised, so copy() returns the object itself (ObjectBase's default).
class TensorExtents final : public ns::Implements<MTL::TensorExtents> {
public:
    const char* className() const override { return "MTLTensorExtents"; }
    bool isEqual(const ns::ObjectBase& other) const override {
        auto* extents = dynamic_cast<const TensorExtents*>(&other);
        return extents && extents->rank == rank &&
               std::equal(values.begin(), values.begin() + rank, extents->values.begin());
    }
    std::uint64_t hash() const override {
        std::uint64_t hash = rank;
        for (NS::UInteger i = 0; i < rank; ++i) hash = hash * 31 + static_cast<std::uint64_t>(values[i]);
        return hash;
    }

    NS::UInteger rank = 0;
    std::array<NS::Integer, kMaxRank> values{};
};

/// A new extents object (+1) holding `values`.
MTL::TensorExtents* makeExtents(std::initializer_list<NS::Integer> values) {
    auto* made = static_cast<TensorExtents*>(ns::make<TensorExtents>());
    made->rank = values.size();
    std::copy(values.begin(), values.end(), made->values.begin());
    return made;
}

class TensorAuxiliaryPlaneDescriptor final
    : public Settings<TensorAuxiliaryPlaneDescriptor, MTL::TensorAuxiliaryPlaneDescriptor> {
public:
    TensorAuxiliaryPlaneDescriptor() { state.blockFactors.adopt(makeExtents({32})); }
    const char* className() const override { return "MTLTensorAuxiliaryPlaneDescriptor"; }

    // Apple's defaults: one 8-bit exponent scale per 32 elements.
    struct State {
        MTL::TensorDataType dataType = MTL::TensorDataTypeMetalFloat8UE8M0;
        Property<MTL::TensorExtents> blockFactors;
    } state;
};

class TensorAuxiliaryPlaneDescriptorMap final
    : public Settings<TensorAuxiliaryPlaneDescriptorMap, MTL::TensorAuxiliaryPlaneDescriptorMap> {
public:
    const char* className() const override { return "MTLTensorAuxiliaryPlaneDescriptorMap"; }

    struct State {
        std::map<MTL::TensorPlaneType, Property<MTL::TensorAuxiliaryPlaneDescriptor>> descriptors;
    } state;
};

class TensorDescriptor final : public Settings<TensorDescriptor, MTL::TensorDescriptor> {
public:
    TensorDescriptor() { state.dimensions.adopt(makeExtents({1})); }
    const char* className() const override { return "MTLTensorDescriptor"; }

    // Apple's defaults: one Float32 element in shared memory, for compute and render.
    struct State {
        Property<MTL::TensorExtents> dimensions;
        Property<MTL::TensorExtents> strides;
        MTL::TensorDataType dataType = MTL::TensorDataTypeFloat32;
        MTL::TensorUsage usage = MTL::TensorUsageCompute | MTL::TensorUsageRender;
        ResourceModes modes;
        Property<MTL::TensorAuxiliaryPlaneDescriptorMap, Keep::Retain> auxiliaryPlanes;
    } state;
};

class TensorBufferAttachments final : public Settings<TensorBufferAttachments, MTL::TensorBufferAttachments> {
public:
    const char* className() const override { return "MTLTensorBufferAttachments"; }

    struct Attachment {
        Property<MTL::Buffer, Keep::Retain> buffer;
        NS::UInteger offset = 0;
    };
    struct State {
        std::map<MTL::TensorPlaneType, Attachment> planes;
    } state;
};

// Apple's name for the domain of tensor errors.
constinit ns::Immortal<ns::String> tensorDomain{ns::String::ConstantText{}, std::string_view("MTLTensorDomain")};

} // namespace
} // namespace metalcpu::api

namespace api = metalcpu::api;
using metalcpu::ns::implOf;

NS::String* const MTL::TensorDomain = &api::tensorDomain.value;

MTL::TensorExtents* MTL::TensorExtents::alloc() { return metalcpu::ns::make<api::TensorExtents>(); }
MTL::TensorExtents* MTL::TensorExtents::init() { return implOf<api::TensorExtents>(this) ? this : nullptr; }
MTL::TensorExtents* MTL::TensorExtents::init(NS::UInteger rank, const NS::Integer* values) {
    auto* self = implOf<api::TensorExtents>(this);
    if (!self) return nullptr;
    if (rank > api::kMaxRank || (rank > 0 && !values)) {
        release(); // init's failure path, as in Cocoa: the allocated object is freed
        return nullptr;
    }
    self->rank = rank;
    std::copy(values, values + rank, self->values.begin());
    return this;
}
NS::UInteger MTL::TensorExtents::rank() const {
    auto* self = implOf<api::TensorExtents>(this);
    return self ? self->rank : 0;
}
NS::Integer MTL::TensorExtents::extentAtDimensionIndex(NS::UInteger dimensionIndex) {
    auto* self = implOf<api::TensorExtents>(this);
    if (!self) return 0;
    return dimensionIndex < self->rank ? self->values[dimensionIndex] : -1;
}

METALCPU_ALLOC_INIT(MTL::TensorAuxiliaryPlaneDescriptor, api::TensorAuxiliaryPlaneDescriptor)
METALCPU_VALUE(MTL::TensorAuxiliaryPlaneDescriptor, api::TensorAuxiliaryPlaneDescriptor, MTL::TensorDataType,
               dataType, setDataType, dataType)
METALCPU_OBJECT(MTL::TensorAuxiliaryPlaneDescriptor, api::TensorAuxiliaryPlaneDescriptor, MTL::TensorExtents,
                blockFactors, setBlockFactors, blockFactors)

METALCPU_ALLOC_INIT(MTL::TensorAuxiliaryPlaneDescriptorMap, api::TensorAuxiliaryPlaneDescriptorMap)
MTL::TensorAuxiliaryPlaneDescriptor* MTL::TensorAuxiliaryPlaneDescriptorMap::descriptor(TensorPlaneType plane) {
    auto* self = implOf<api::TensorAuxiliaryPlaneDescriptorMap>(this);
    if (!self) return nullptr;
    auto found = self->state.descriptors.find(plane);
    return found == self->state.descriptors.end() ? nullptr : found->second.get();
}
void MTL::TensorAuxiliaryPlaneDescriptorMap::setDescriptor(const TensorAuxiliaryPlaneDescriptor* descriptor,
                                                           TensorPlaneType plane) {
    auto* self = implOf<api::TensorAuxiliaryPlaneDescriptorMap>(this);
    if (!self) return;
    if (descriptor)
        self->state.descriptors[plane].set(descriptor);
    else
        self->state.descriptors.erase(plane);
}
void MTL::TensorAuxiliaryPlaneDescriptorMap::reset() {
    if (auto* self = implOf<api::TensorAuxiliaryPlaneDescriptorMap>(this)) self->state.descriptors.clear();
}

METALCPU_ALLOC_INIT(MTL::TensorDescriptor, api::TensorDescriptor)
METALCPU_OBJECT(MTL::TensorDescriptor, api::TensorDescriptor, MTL::TensorExtents, dimensions, setDimensions,
                dimensions)
METALCPU_OBJECT(MTL::TensorDescriptor, api::TensorDescriptor, MTL::TensorExtents, strides, setStrides, strides)
METALCPU_VALUE(MTL::TensorDescriptor, api::TensorDescriptor, MTL::TensorDataType, dataType, setDataType, dataType)
METALCPU_VALUE(MTL::TensorDescriptor, api::TensorDescriptor, MTL::TensorUsage, usage, setUsage, usage)
METALCPU_RESOURCE_MODES(MTL::TensorDescriptor, api::TensorDescriptor)
METALCPU_OBJECT(MTL::TensorDescriptor, api::TensorDescriptor, MTL::TensorAuxiliaryPlaneDescriptorMap,
                auxiliaryPlanes, setAuxiliaryPlanes, auxiliaryPlanes)

METALCPU_ALLOC_INIT(MTL::TensorBufferAttachments, api::TensorBufferAttachments)
MTL::Buffer* MTL::TensorBufferAttachments::buffer(TensorPlaneType plane) {
    auto* self = implOf<api::TensorBufferAttachments>(this);
    if (!self) return nullptr;
    auto found = self->state.planes.find(plane);
    return found == self->state.planes.end() ? nullptr : found->second.buffer.get();
}
NS::UInteger MTL::TensorBufferAttachments::offset(TensorPlaneType plane) {
    auto* self = implOf<api::TensorBufferAttachments>(this);
    if (!self) return 0;
    auto found = self->state.planes.find(plane);
    return found == self->state.planes.end() ? 0 : found->second.offset;
}
void MTL::TensorBufferAttachments::setBuffer(const Buffer* buffer, NS::UInteger offset, TensorPlaneType plane) {
    auto* self = implOf<api::TensorBufferAttachments>(this);
    if (!self) return;
    if (!buffer) {
        self->state.planes.erase(plane);
        return;
    }
    api::TensorBufferAttachments::Attachment& attachment = self->state.planes[plane];
    attachment.buffer.set(buffer);
    attachment.offset = offset;
}
void MTL::TensorBufferAttachments::reset() {
    if (auto* self = implOf<api::TensorBufferAttachments>(this)) self->state.planes.clear();
}

namespace metalcpu::api {
namespace {

/// The values of `extents` (rank 0 for nil).
struct ExtentValues {
    NS::UInteger rank = 0;
    const NS::Integer* values = nullptr;
};
ExtentValues valuesOf(const MTL::TensorExtents* extents) {
    auto* self = ns::implOf<TensorExtents>(extents);
    return self ? ExtentValues{self->rank, self->values.data()} : ExtentValues{};
}

rt::TensorShape shapeOf(const TensorDescriptor::State& d) {
    rt::TensorShape shape;
    shape.dataType = d.dataType;
    shape.usage = d.usage;
    shape.options = d.modes.options();
    const ExtentValues dimensions = valuesOf(d.dimensions.get());
    shape.rank = static_cast<std::uint32_t>(dimensions.rank);
    std::copy(dimensions.values, dimensions.values + dimensions.rank, shape.extents.begin());
    const ExtentValues strides = valuesOf(d.strides.get());
    shape.strideRank = static_cast<std::uint32_t>(strides.rank);
    std::copy(strides.values, strides.values + strides.rank, shape.strides.begin());
    auto* planes = ns::implOf<TensorAuxiliaryPlaneDescriptorMap>(d.auxiliaryPlanes.get());
    shape.auxiliaryPlanes = planes && !planes->state.descriptors.empty();
    return shape;
}

/// A new autoreleased extents object holding the tensor's extents or strides.
MTL::TensorExtents* extentsOf(const rt::Tensor& tensor, std::int64_t (rt::Tensor::*value)(std::uint32_t) const) {
    auto* made = static_cast<TensorExtents*>(ns::make<TensorExtents>());
    made->rank = tensor.rank();
    for (std::uint32_t d = 0; d < tensor.rank(); ++d) made->values[d] = (tensor.*value)(d);
    return ns::autoreleased(static_cast<MTL::TensorExtents*>(made));
}

} // namespace

rt::Tensor::Extents sliceValues(const MTL::TensorExtents* extents) {
    const ExtentValues found = valuesOf(extents);
    return {found.values, found.rank};
}
} // namespace metalcpu::api

using Ten = metalcpu::rt::Tensor;

MTL::Tensor* MTL::Device::newTensor(const TensorDescriptor* descriptor, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* device = implOf<metalcpu::rt::Device>(this);
    auto* settings = implOf<api::TensorDescriptor>(descriptor);
    return device && settings ? Ten::make(device, api::shapeOf(settings->state), error) : nullptr;
}
MTL::Tensor* MTL::Device::newTensor(const TensorDescriptor* descriptor, const TensorBufferAttachments* attachments,
                                    NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* device = implOf<metalcpu::rt::Device>(this);
    auto* settings = implOf<api::TensorDescriptor>(descriptor);
    auto* planes = implOf<api::TensorBufferAttachments>(attachments);
    if (!device || !settings) return nullptr;
    if (!planes) return newTensor(descriptor, error);
    // The data plane only: the tensor lives in the attached data buffer.
    auto data = planes->state.planes.find(TensorPlaneTypeData);
    if (planes->state.planes.size() != 1 || data == planes->state.planes.end()) {
        api::notYet<metalcpu::rt::Device>(this, "MTL::Device::newTensor with auxiliary-plane attachments", error);
        return nullptr;
    }
    return data->second.buffer.get()->newTensor(descriptor, data->second.offset, error);
}
MTL::SizeAndAlign MTL::Device::tensorSizeAndAlign(const TensorDescriptor* descriptor) {
    auto* settings = implOf<api::TensorDescriptor>(descriptor);
    return implOf<metalcpu::rt::Device>(this) && settings ? Ten::sizeAndAlign(api::shapeOf(settings->state))
                                                           : SizeAndAlign{0, 0};
}
MTL::Tensor* MTL::Buffer::newTensor(const TensorDescriptor* descriptor, NS::UInteger offset, NS::Error** error) {
    metalcpu::rt::clearError(error);
    auto* buffer = implOf<metalcpu::rt::Buffer>(this);
    auto* settings = implOf<api::TensorDescriptor>(descriptor);
    return buffer && settings ? Ten::overBuffer(buffer, api::shapeOf(settings->state), offset, error) : nullptr;
}

// No TensorAuxiliaryPlane exists (see above).
MTL::TensorPlaneType MTL::TensorAuxiliaryPlane::planeType() const { return TensorPlaneTypeData; }
MTL::TensorDataType MTL::TensorAuxiliaryPlane::dataType() const { return TensorDataTypeNone; }
MTL::TensorExtents* MTL::TensorAuxiliaryPlane::blockFactors() const { return nullptr; }
MTL::Buffer* MTL::TensorAuxiliaryPlane::buffer() const { return nullptr; }
NS::UInteger MTL::TensorAuxiliaryPlane::bufferOffset() const { return 0; }

MTL::TensorExtents* MTL::Tensor::dimensions() const {
    auto* self = implOf<Ten>(this);
    return self ? api::extentsOf(*self, &Ten::extent) : nullptr;
}
MTL::TensorExtents* MTL::Tensor::strides() const {
    auto* self = implOf<Ten>(this);
    return self ? api::extentsOf(*self, &Ten::stride) : nullptr;
}
MTL::TensorDataType MTL::Tensor::dataType() const { return metalcpu::ns::call<Ten>(this, &Ten::dataType); }
MTL::TensorUsage MTL::Tensor::usage() const { return metalcpu::ns::call<Ten>(this, &Ten::usage); }
MTL::ResourceID MTL::Tensor::gpuResourceID() const { return metalcpu::ns::call<Ten>(this, &Ten::gpuResourceID); }
// Apple's tensors made by the device wrap no buffer the program can see.
MTL::Buffer* MTL::Tensor::buffer() const {
    auto* self = implOf<Ten>(this);
    return self && self->overProgramBuffer() ? self->buffer() : nullptr;
}
NS::UInteger MTL::Tensor::bufferOffset() const { return metalcpu::ns::call<Ten>(this, &Ten::bufferOffset); }
NS::Array* MTL::Tensor::auxiliaryPlanes() const { return nullptr; }
void MTL::Tensor::replaceSliceOrigin(const TensorExtents* sliceOrigin, const TensorExtents* sliceDimensions,
                                     const void* bytes, const TensorExtents* strides) {
    auto* self = implOf<Ten>(this);
    if (!self) return;
    self->replaceSlice(api::sliceValues(sliceOrigin), api::sliceValues(sliceDimensions), bytes,
                       api::sliceValues(strides));
}
void MTL::Tensor::replaceSliceOrigin(const TensorExtents* sliceOrigin, const TensorExtents* sliceDimensions,
                                     TensorPlaneType plane, const void* bytes, const TensorExtents* strides) {
    if (plane == TensorPlaneTypeData) replaceSliceOrigin(sliceOrigin, sliceDimensions, bytes, strides);
}
void MTL::Tensor::getBytes(void* bytes, const TensorExtents* strides, const TensorExtents* sliceOrigin,
                           const TensorExtents* sliceDimensions) {
    auto* self = implOf<Ten>(this);
    if (!self) return;
    self->getSlice(bytes, api::sliceValues(strides), api::sliceValues(sliceOrigin), api::sliceValues(sliceDimensions));
}
void MTL::Tensor::getBytes(void* bytes, const TensorExtents* strides, const TensorExtents* sliceOrigin,
                           const TensorExtents* sliceDimensions, TensorPlaneType plane) {
    if (plane == TensorPlaneTypeData) getBytes(bytes, strides, sliceOrigin, sliceDimensions);
}
