// metalcpu: reflection of kernel arguments: bindings, arguments and their types.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDataType.hpp"
#include "MTLDefines.hpp"
#include "MTLTensor.hpp"
#include "MTLTexture.hpp"

namespace MTL {

class ArrayType;
class PointerType;
class StructType;
class TensorReferenceType;
class TextureReferenceType;

enum IndexType : NS::UInteger {
    IndexTypeUInt16 = 0,
    IndexTypeUInt32 = 1,
};

enum BindingType : NS::Integer {
    BindingTypeBuffer = 0,
    BindingTypeThreadgroupMemory = 1,
    BindingTypeTexture = 2,
    BindingTypeSampler = 3,
    BindingTypeImageblockData = 16,
    BindingTypeImageblock = 17,
    BindingTypeVisibleFunctionTable = 24,
    BindingTypePrimitiveAccelerationStructure = 25,
    BindingTypeInstanceAccelerationStructure = 26,
    BindingTypeIntersectionFunctionTable = 27,
    BindingTypeObjectPayload = 34,
    BindingTypeTensor = 37,
};

enum ArgumentType : NS::UInteger {
    ArgumentTypeBuffer = 0,
    ArgumentTypeThreadgroupMemory = 1,
    ArgumentTypeTexture = 2,
    ArgumentTypeSampler = 3,
    ArgumentTypeImageblockData = 16,
    ArgumentTypeImageblock = 17,
    ArgumentTypeVisibleFunctionTable = 24,
    ArgumentTypePrimitiveAccelerationStructure = 25,
    ArgumentTypeInstanceAccelerationStructure = 26,
    ArgumentTypeIntersectionFunctionTable = 27,
};

// How a kernel accesses a bound resource; the Argument* names are older aliases.
enum BindingAccess : NS::UInteger {
    BindingAccessReadOnly = 0,
    BindingAccessReadWrite = 1,
    BindingAccessWriteOnly = 2,
    ArgumentAccessReadOnly = 0,
    ArgumentAccessReadWrite = 1,
    ArgumentAccessWriteOnly = 2,
};

// The base of the reflected types.
class Type : public NS::Referencing<Type> {
public:
    static Type* alloc();
    Type* init();

    DataType dataType() const;
};

class StructMember : public NS::Referencing<StructMember> {
public:
    static StructMember* alloc();
    StructMember* init();

    NS::String* name() const;
    NS::UInteger offset() const;
    DataType dataType() const;
    NS::UInteger argumentIndex() const;

    StructType* structType();
    ArrayType* arrayType();
    PointerType* pointerType();
    TextureReferenceType* textureReferenceType();
    TensorReferenceType* tensorReferenceType();
};

class StructType : public NS::Referencing<StructType, Type> {
public:
    static StructType* alloc();
    StructType* init();

    NS::Array* members() const;
    StructMember* memberByName(const NS::String* name);
};

class ArrayType : public NS::Referencing<ArrayType, Type> {
public:
    static ArrayType* alloc();
    ArrayType* init();

    DataType elementType() const;
    NS::UInteger arrayLength() const;
    NS::UInteger stride() const;
    NS::UInteger argumentIndexStride() const;

    StructType* elementStructType();
    ArrayType* elementArrayType();
    PointerType* elementPointerType();
    TextureReferenceType* elementTextureReferenceType();
    TensorReferenceType* elementTensorReferenceType();
};

class PointerType : public NS::Referencing<PointerType, Type> {
public:
    static PointerType* alloc();
    PointerType* init();

    DataType elementType() const;
    BindingAccess access() const;
    NS::UInteger alignment() const;
    NS::UInteger dataSize() const;
    bool elementIsArgumentBuffer() const;

    StructType* elementStructType();
    ArrayType* elementArrayType();
};

class TextureReferenceType : public NS::Referencing<TextureReferenceType, Type> {
public:
    static TextureReferenceType* alloc();
    TextureReferenceType* init();

    DataType textureDataType() const;
    TextureType textureType() const;
    BindingAccess access() const;
    bool isDepthTexture() const;
};

class TensorAuxiliaryPlaneType : public NS::Referencing<TensorAuxiliaryPlaneType> {
public:
    static TensorAuxiliaryPlaneType* alloc();
    TensorAuxiliaryPlaneType* init();

    TensorPlaneType planeType() const;
    TensorDataType dataType() const;
    TensorExtents* blockFactors() const;
};

class TensorReferenceType : public NS::Referencing<TensorReferenceType, Type> {
public:
    static TensorReferenceType* alloc();
    TensorReferenceType* init();

    TensorDataType tensorDataType() const;
    DataType indexType() const;
    TensorExtents* dimensions() const;
    BindingAccess access() const;
    NS::Array* auxiliaryPlanes() const;
};

// A kernel argument as reported by the older reflection API (ComputePipelineReflection::arguments).
class Argument : public NS::Referencing<Argument> {
public:
    static Argument* alloc();
    Argument* init();

    NS::String* name() const;
    ArgumentType type() const;
    BindingAccess access() const;
    NS::UInteger index() const;
    bool isActive() const;
    [[deprecated("please use isActive instead")]] bool active() const;

    NS::UInteger bufferAlignment() const;
    NS::UInteger bufferDataSize() const;
    DataType bufferDataType() const;
    StructType* bufferStructType() const;
    PointerType* bufferPointerType() const;

    NS::UInteger threadgroupMemoryAlignment() const;
    NS::UInteger threadgroupMemoryDataSize() const;

    TextureType textureType() const;
    DataType textureDataType() const;
    bool isDepthTexture() const;
    NS::UInteger arrayLength() const;
};

// A kernel argument as reported by ComputePipelineReflection::bindings and FunctionReflection.
class Binding : public NS::Referencing<Binding> {
public:
    NS::String* name() const;
    BindingType type() const;
    BindingAccess access() const;
    NS::UInteger index() const;
    bool isUsed() const;
    [[deprecated("please use isUsed instead")]] bool used() const;
    bool isArgument() const;
    [[deprecated("please use isArgument instead")]] bool argument() const;
};

class BufferBinding : public NS::Referencing<BufferBinding, Binding> {
public:
    NS::UInteger bufferAlignment() const;
    NS::UInteger bufferDataSize() const;
    DataType bufferDataType() const;
    StructType* bufferStructType() const;
    PointerType* bufferPointerType() const;
};

class ThreadgroupBinding : public NS::Referencing<ThreadgroupBinding, Binding> {
public:
    NS::UInteger threadgroupMemoryAlignment() const;
    NS::UInteger threadgroupMemoryDataSize() const;
};

class TextureBinding : public NS::Referencing<TextureBinding, Binding> {
public:
    TextureType textureType() const;
    DataType textureDataType() const;
    bool isDepthTexture() const;
    [[deprecated("please use isDepthTexture instead")]] bool depthTexture() const;
    NS::UInteger arrayLength() const;
};

class ObjectPayloadBinding : public NS::Referencing<ObjectPayloadBinding, Binding> {
public:
    NS::UInteger objectPayloadAlignment() const;
    NS::UInteger objectPayloadDataSize() const;
};

class TensorBinding : public NS::Referencing<TensorBinding, Binding> {
public:
    TensorDataType tensorDataType() const;
    DataType indexType() const;
    TensorExtents* dimensions() const;
    NS::Array* auxiliaryPlanes() const;
};

} // namespace MTL
