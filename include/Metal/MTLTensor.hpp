// metalcpu: tensors (multi-dimensional resources), their extents and descriptors.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLResource.hpp"
#include "MTLTypes.hpp"

namespace MTL {

class Buffer;

// The error domain of tensor creation errors (codes are TensorError).
extern NS::String* const TensorDomain;

enum TensorDataType : NS::Integer {
    TensorDataTypeNone = 0,
    TensorDataTypeFloat32 = 3,
    TensorDataTypeFloat16 = 16,
    TensorDataTypeBFloat16 = 121,
    TensorDataTypeInt8 = 45,
    TensorDataTypeUInt8 = 49,
    TensorDataTypeInt16 = 37,
    TensorDataTypeUInt16 = 41,
    TensorDataTypeInt32 = 29,
    TensorDataTypeUInt32 = 33,
    TensorDataTypeInt4 = 143,
    TensorDataTypeUInt4 = 144,
    TensorDataTypeMetalFloat8UE8M0 = 145,
    TensorDataTypeUInt2 = 149,
    TensorDataTypeInt2 = 150,
    TensorDataTypeMetalFloat8E5M2 = 141,
    TensorDataTypeMetalFloat8E4M3 = 142,
    TensorDataTypeMetalFloat4E2M1 = 148,
};

enum TensorError : NS::Integer {
    TensorErrorNone = 0,
    TensorErrorInternalError = 1,
    TensorErrorInvalidDescriptor = 2,
};

// A plane of a multi-plane (block-scaled) tensor.
enum TensorPlaneType : NS::Integer {
    TensorPlaneTypeData = 0,
    TensorPlaneTypeScales = 1,
};

using TensorUsage = NS::UInteger;
enum : TensorUsage {
    TensorUsageCompute = 1,
    TensorUsageRender = 1 << 1,
    TensorUsageMachineLearning = 1 << 2,
};

// A list of per-dimension values: a shape, strides or a slice origin.
class TensorExtents : public NS::Copying<TensorExtents> {
public:
    static TensorExtents* alloc();
    TensorExtents* init();
    TensorExtents* init(NS::UInteger rank, const NS::Integer* values);

    NS::UInteger rank() const;
    NS::Integer extentAtDimensionIndex(NS::UInteger dimensionIndex);
};

// The element type and block factors of an auxiliary plane.
class TensorAuxiliaryPlaneDescriptor : public NS::Copying<TensorAuxiliaryPlaneDescriptor> {
public:
    static TensorAuxiliaryPlaneDescriptor* alloc();
    TensorAuxiliaryPlaneDescriptor* init();

    TensorDataType dataType() const;
    void setDataType(TensorDataType dataType);
    TensorExtents* blockFactors() const;
    void setBlockFactors(const TensorExtents* blockFactors);
};

class TensorAuxiliaryPlaneDescriptorMap : public NS::Copying<TensorAuxiliaryPlaneDescriptorMap> {
public:
    static TensorAuxiliaryPlaneDescriptorMap* alloc();
    TensorAuxiliaryPlaneDescriptorMap* init();

    TensorAuxiliaryPlaneDescriptor* descriptor(TensorPlaneType plane);
    void setDescriptor(const TensorAuxiliaryPlaneDescriptor* descriptor, TensorPlaneType plane);
    void reset();
};

// The shape, element type, usage and storage of a tensor to create.
class TensorDescriptor : public NS::Copying<TensorDescriptor> {
public:
    static TensorDescriptor* alloc();
    TensorDescriptor* init();

    TensorExtents* dimensions() const;
    void setDimensions(const TensorExtents* dimensions);
    TensorExtents* strides() const;
    void setStrides(const TensorExtents* strides);
    TensorDataType dataType() const;
    void setDataType(TensorDataType dataType);
    TensorUsage usage() const;
    void setUsage(TensorUsage usage);

    ResourceOptions resourceOptions() const;
    void setResourceOptions(ResourceOptions resourceOptions);
    StorageMode storageMode() const;
    void setStorageMode(StorageMode storageMode);
    CPUCacheMode cpuCacheMode() const;
    void setCpuCacheMode(CPUCacheMode cpuCacheMode);
    HazardTrackingMode hazardTrackingMode() const;
    void setHazardTrackingMode(HazardTrackingMode hazardTrackingMode);

    TensorAuxiliaryPlaneDescriptorMap* auxiliaryPlanes() const;
    void setAuxiliaryPlanes(const TensorAuxiliaryPlaneDescriptorMap* auxiliaryPlanes);
};

// The buffers that back each plane of a tensor made by Device::newTensor(desc, attachments, err).
class TensorBufferAttachments : public NS::Copying<TensorBufferAttachments> {
public:
    static TensorBufferAttachments* alloc();
    TensorBufferAttachments* init();

    Buffer* buffer(TensorPlaneType plane);
    NS::UInteger offset(TensorPlaneType plane);
    void setBuffer(const Buffer* buffer, NS::UInteger offset, TensorPlaneType plane);
    void reset();
};

// One auxiliary plane of an existing tensor.
class TensorAuxiliaryPlane : public NS::Referencing<TensorAuxiliaryPlane> {
public:
    TensorPlaneType planeType() const;
    TensorDataType dataType() const;
    TensorExtents* blockFactors() const;
    Buffer* buffer() const;
    NS::UInteger bufferOffset() const;
};

// A tensor resource.
class Tensor : public NS::Referencing<Tensor, Resource> {
public:
    TensorExtents* dimensions() const;
    TensorExtents* strides() const;
    TensorDataType dataType() const;
    TensorUsage usage() const;
    ResourceID gpuResourceID() const;
    Buffer* buffer() const;
    NS::UInteger bufferOffset() const;
    NS::Array* auxiliaryPlanes() const;

    void replaceSliceOrigin(const TensorExtents* sliceOrigin, const TensorExtents* sliceDimensions,
                            const void* bytes, const TensorExtents* strides);
    void replaceSliceOrigin(const TensorExtents* sliceOrigin, const TensorExtents* sliceDimensions,
                            TensorPlaneType plane, const void* bytes, const TensorExtents* strides);
    void getBytes(void* bytes, const TensorExtents* strides, const TensorExtents* sliceOrigin,
                  const TensorExtents* sliceDimensions);
    void getBytes(void* bytes, const TensorExtents* strides, const TensorExtents* sliceOrigin,
                  const TensorExtents* sliceDimensions, TensorPlaneType plane);
};

} // namespace MTL
