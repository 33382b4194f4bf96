// Reflection objects: the reflected types (MTL::Type and its subclasses, StructMember), the
// argument and binding descriptions, function attributes and constants, and the function and
// pipeline reflection containers. metalcpu builds the function constants'
// (function_constants.cpp), the bindings of pipelines and functions (binding_reflection.cpp) and
// their buffers' struct and pointer types (reflected_types.cpp); of the rest no object exists:
// alloc() logs once and returns nullptr, and every other method answers as for nil.
#include "api/not_yet.h"

#include <Metal/MTLArgument.hpp>
#include <Metal/MTLComputePipeline.hpp>
#include <Metal/MTLLibrary.hpp>

MTL::Type* MTL::Type::alloc() {
    metalcpu::api::cannotMake("MTL::Type::alloc");
    return nullptr;
}
MTL::Type* MTL::Type::init() { return nullptr; }
// Type::dataType and the getters of StructMember, StructType, ArrayType and PointerType, for the
// objects a buffer binding's bufferStructType and bufferPointerType make: reflected_types.cpp.

MTL::StructMember* MTL::StructMember::alloc() {
    metalcpu::api::cannotMake("MTL::StructMember::alloc");
    return nullptr;
}
MTL::StructMember* MTL::StructMember::init() { return nullptr; }

MTL::StructType* MTL::StructType::alloc() {
    metalcpu::api::cannotMake("MTL::StructType::alloc");
    return nullptr;
}
MTL::StructType* MTL::StructType::init() { return nullptr; }

MTL::ArrayType* MTL::ArrayType::alloc() {
    metalcpu::api::cannotMake("MTL::ArrayType::alloc");
    return nullptr;
}
MTL::ArrayType* MTL::ArrayType::init() { return nullptr; }

MTL::PointerType* MTL::PointerType::alloc() {
    metalcpu::api::cannotMake("MTL::PointerType::alloc");
    return nullptr;
}
MTL::PointerType* MTL::PointerType::init() { return nullptr; }

MTL::TextureReferenceType* MTL::TextureReferenceType::alloc() {
    metalcpu::api::cannotMake("MTL::TextureReferenceType::alloc");
    return nullptr;
}
MTL::TextureReferenceType* MTL::TextureReferenceType::init() { return nullptr; }
MTL::DataType MTL::TextureReferenceType::textureDataType() const { return {}; }
MTL::TextureType MTL::TextureReferenceType::textureType() const { return {}; }
MTL::BindingAccess MTL::TextureReferenceType::access() const { return {}; }
bool MTL::TextureReferenceType::isDepthTexture() const { return false; }

MTL::TensorAuxiliaryPlaneType* MTL::TensorAuxiliaryPlaneType::alloc() {
    metalcpu::api::cannotMake("MTL::TensorAuxiliaryPlaneType::alloc");
    return nullptr;
}
MTL::TensorAuxiliaryPlaneType* MTL::TensorAuxiliaryPlaneType::init() { return nullptr; }
MTL::TensorPlaneType MTL::TensorAuxiliaryPlaneType::planeType() const { return {}; }
MTL::TensorDataType MTL::TensorAuxiliaryPlaneType::dataType() const { return {}; }
MTL::TensorExtents* MTL::TensorAuxiliaryPlaneType::blockFactors() const { return nullptr; }

MTL::TensorReferenceType* MTL::TensorReferenceType::alloc() {
    metalcpu::api::cannotMake("MTL::TensorReferenceType::alloc");
    return nullptr;
}
MTL::TensorReferenceType* MTL::TensorReferenceType::init() { return nullptr; }
MTL::TensorDataType MTL::TensorReferenceType::tensorDataType() const { return {}; }
MTL::DataType MTL::TensorReferenceType::indexType() const { return {}; }
MTL::TensorExtents* MTL::TensorReferenceType::dimensions() const { return nullptr; }
MTL::BindingAccess MTL::TensorReferenceType::access() const { return {}; }
NS::Array* MTL::TensorReferenceType::auxiliaryPlanes() const { return nullptr; }

MTL::Argument* MTL::Argument::alloc() {
    metalcpu::api::cannotMake("MTL::Argument::alloc");
    return nullptr;
}
MTL::Argument* MTL::Argument::init() { return nullptr; }
NS::String* MTL::Argument::name() const { return nullptr; }
MTL::ArgumentType MTL::Argument::type() const { return {}; }
MTL::BindingAccess MTL::Argument::access() const { return {}; }
NS::UInteger MTL::Argument::index() const { return 0; }
bool MTL::Argument::isActive() const { return false; }
bool MTL::Argument::active() const { return false; }
NS::UInteger MTL::Argument::bufferAlignment() const { return 0; }
NS::UInteger MTL::Argument::bufferDataSize() const { return 0; }
MTL::DataType MTL::Argument::bufferDataType() const { return {}; }
MTL::StructType* MTL::Argument::bufferStructType() const { return nullptr; }
MTL::PointerType* MTL::Argument::bufferPointerType() const { return nullptr; }
NS::UInteger MTL::Argument::threadgroupMemoryAlignment() const { return 0; }
NS::UInteger MTL::Argument::threadgroupMemoryDataSize() const { return 0; }
MTL::TextureType MTL::Argument::textureType() const { return {}; }
MTL::DataType MTL::Argument::textureDataType() const { return {}; }
bool MTL::Argument::isDepthTexture() const { return false; }
NS::UInteger MTL::Argument::arrayLength() const { return 0; }

// Binding, BufferBinding, ThreadgroupBinding, TextureBinding and TensorBinding: binding_reflection.cpp.

NS::UInteger MTL::ObjectPayloadBinding::objectPayloadAlignment() const { return 0; }
NS::UInteger MTL::ObjectPayloadBinding::objectPayloadDataSize() const { return 0; }


MTL::VertexAttribute* MTL::VertexAttribute::alloc() {
    metalcpu::api::cannotMake("MTL::VertexAttribute::alloc");
    return nullptr;
}
MTL::VertexAttribute* MTL::VertexAttribute::init() { return nullptr; }
NS::String* MTL::VertexAttribute::name() const { return nullptr; }
NS::UInteger MTL::VertexAttribute::attributeIndex() const { return 0; }
MTL::DataType MTL::VertexAttribute::attributeType() const { return {}; }
bool MTL::VertexAttribute::isActive() const { return false; }
bool MTL::VertexAttribute::active() const { return false; }
bool MTL::VertexAttribute::isPatchData() const { return false; }
bool MTL::VertexAttribute::patchData() const { return false; }
bool MTL::VertexAttribute::isPatchControlPointData() const { return false; }
bool MTL::VertexAttribute::patchControlPointData() const { return false; }

MTL::Attribute* MTL::Attribute::alloc() {
    metalcpu::api::cannotMake("MTL::Attribute::alloc");
    return nullptr;
}
MTL::Attribute* MTL::Attribute::init() { return nullptr; }
NS::String* MTL::Attribute::name() const { return nullptr; }
NS::UInteger MTL::Attribute::attributeIndex() const { return 0; }
MTL::DataType MTL::Attribute::attributeType() const { return {}; }
bool MTL::Attribute::isActive() const { return false; }
bool MTL::Attribute::active() const { return false; }
bool MTL::Attribute::isPatchData() const { return false; }
bool MTL::Attribute::patchData() const { return false; }
bool MTL::Attribute::isPatchControlPointData() const { return false; }
bool MTL::Attribute::patchControlPointData() const { return false; }

MTL::FunctionConstant* MTL::FunctionConstant::alloc() {
    metalcpu::api::cannotMake("MTL::FunctionConstant::alloc");
    return nullptr;
}
MTL::FunctionConstant* MTL::FunctionConstant::init() { return nullptr; }
// Its getters, for the objects Function::functionConstantsDictionary() makes, are in
// function_constants.cpp.

// FunctionReflection and ComputePipelineReflection: binding_reflection.cpp.
