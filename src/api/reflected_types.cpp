// The reflected types of a buffer binding (MTL::BufferBinding::bufferStructType and
// bufferPointerType): a StructType holds its members, a member its struct, array or pointer
// type, an array its element's struct or pointer type, each owned by the object that returns
// it (Apple's getters return objects their receiver keeps). Everything is read from the
// kernel library's tables when made, except a pointer's element struct, made when first asked:
// a list's struct points at itself. Each object keeps the library loaded for that.
#include "api/reflected_types.h"

#include "foundation/factories.h"
#include "foundation/object.h"
#include "foundation/string.h"
#include "support/log.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>

#include <algorithm>
#include <mutex>
#include <vector>

namespace metalcpu::api {
namespace {

/// What every reflected type answers: MTL::Type::dataType().
class TypeCore : public ns::ObjectBase {
public:
    virtual MTL::DataType dataType() const = 0;
};

void releaseIfAny(NS::Object* object) {
    if (object) object->release();
}

/// Why `table`'s rows are not the whole struct, or "" when they are: in declaration order,
/// each starts after the one before and no gap is as wide as the next member's alignment
/// (padding never is), and what is left at the end is less than the struct's alignment.
std::string missingMembers(const StructTable& table) {
    if (table.count == 0 || !table.members) return "no members were read";
    mc_u64 end = 0;
    for (mc_u32 i = 0; i < table.count; ++i) {
        const mc_argument& m = table.members[i];
        if (m.offset < end) return std::string("member '") + m.name + "' overlaps the one before";
        if (m.offset - end >= std::max<mc_u64>(m.alignment, 1))
            return std::string("bytes before member '") + m.name + "' belong to no member that was read";
        end = m.offset + m.size;
    }
    if (table.size < end || table.size - end >= std::max<mc_u64>(table.align, 1))
        return "bytes after the last member belong to no member that was read";
    return "";
}

class StructTypeImpl final : public ns::Implements<MTL::StructType, TypeCore> {
public:
    explicit StructTypeImpl(NS::Array* members) : members_(members) {}
    ~StructTypeImpl() override { members_->release(); }
    const char* className() const override { return "MTLStructType"; }
    MTL::DataType dataType() const override { return MTL::DataTypeStruct; }
    NS::Array* members() const { return members_; }

private:
    NS::Array* members_;
};

class ArrayTypeImpl final : public ns::Implements<MTL::ArrayType, TypeCore> {
public:
    ArrayTypeImpl(const mc_argument& row, MTL::StructType* elementStruct, MTL::PointerType* elementPointer,
                  bool argumentBuffer)
        : elementType_(static_cast<MTL::DataType>(row.element_type)), length_(row.length), stride_(row.stride),
          // Ids an element takes: those of its own elements (an array of arrays) too.
          argumentIndexStride_(argumentBuffer && row.length ? row.array_length / row.length : 0),
          elementStruct_(elementStruct), elementPointer_(elementPointer) {}
    ~ArrayTypeImpl() override {
        releaseIfAny(elementStruct_);
        releaseIfAny(elementPointer_);
    }
    const char* className() const override { return "MTLArrayType"; }
    MTL::DataType dataType() const override { return MTL::DataTypeArray; }

    MTL::DataType elementType_;
    NS::UInteger length_, stride_, argumentIndexStride_;
    MTL::StructType* elementStruct_;
    MTL::PointerType* elementPointer_;
};

class PointerTypeImpl final : public ns::Implements<MTL::PointerType, TypeCore> {
public:
    PointerTypeImpl(const PointerShape& shape, std::shared_ptr<const void> keeper, std::string what)
        : shape_(shape), keeper_(std::move(keeper)), what_(std::move(what)) {}
    ~PointerTypeImpl() override { releaseIfAny(elementStruct_); }
    const char* className() const override { return "MTLPointerType"; }
    MTL::DataType dataType() const override { return MTL::DataTypePointer; }
    const PointerShape& shape() const { return shape_; }
    MTL::StructType* elementStruct() {
        std::call_once(made_, [&] {
            if (shape_.elementType == MTL::DataTypeStruct) elementStruct_ = newStructType(shape_.pointee, keeper_, what_);
        });
        return elementStruct_;
    }

private:
    PointerShape shape_;
    std::shared_ptr<const void> keeper_;
    std::string what_;
    std::once_flag made_;
    MTL::StructType* elementStruct_ = nullptr;
};

/// The shape of what row `m` (a pointer, or an array of them) points at.
PointerShape pointerShape(const mc_argument& m, bool argumentBuffer) {
    PointerShape shape;
    shape.elementType = static_cast<MTL::DataType>(m.pointee_type);
    shape.access = m.access == MC_ACCESS_READ_ONLY ? MTL::BindingAccessReadOnly : MTL::BindingAccessReadWrite;
    shape.dataSize = m.pointee_size;
    shape.alignment = m.pointee_align;
    // A pointer member of an argument buffer at a struct it describes points at one (ABI 21).
    shape.elementIsArgumentBuffer = argumentBuffer && m.kind == MC_ARGUMENT_BUFFER && m.members;
    shape.pointee = {m.members, m.member_count, m.pointee_size, m.pointee_align, shape.elementIsArgumentBuffer};
    return shape;
}

class StructMemberImpl final : public ns::Implements<MTL::StructMember> {
public:
    StructMemberImpl(const mc_argument& m, bool argumentBuffer, const std::shared_ptr<const void>& keeper,
                     const std::string& what)
        : name_(ns::makeString(m.name)), offset_(m.offset), dataType_(static_cast<MTL::DataType>(m.data_type)),
          argumentIndex_(m.id) {
        const std::string path = what + "." + m.name;
        if (dataType_ == MTL::DataTypeStruct && m.members)
            structType_ = newStructType({m.members, m.member_count, m.size, m.alignment, argumentBuffer}, keeper, path);
        if (dataType_ == MTL::DataTypePointer) pointerType_ = newPointerType(pointerShape(m, argumentBuffer), keeper, path);
        if (dataType_ == MTL::DataTypeArray) {
            MTL::StructType* elementStruct = nullptr;
            MTL::PointerType* elementPointer = nullptr;
            if (m.element_type == MTL::DataTypeStruct && m.members)
                elementStruct = newStructType({m.members, m.member_count, m.stride, m.alignment, argumentBuffer},
                                              keeper, path + "[]");
            if (m.element_type == MTL::DataTypePointer)
                elementPointer = newPointerType(pointerShape(m, argumentBuffer), keeper, path + "[]");
            arrayType_ = ns::make<ArrayTypeImpl>(m, elementStruct, elementPointer, argumentBuffer);
        }
    }
    ~StructMemberImpl() override {
        name_->release();
        releaseIfAny(structType_);
        releaseIfAny(arrayType_);
        releaseIfAny(pointerType_);
    }
    const char* className() const override { return "MTLStructMember"; }

    NS::String* name_;
    NS::UInteger offset_;
    MTL::DataType dataType_;
    NS::UInteger argumentIndex_;
    MTL::StructType* structType_ = nullptr;
    MTL::ArrayType* arrayType_ = nullptr;
    MTL::PointerType* pointerType_ = nullptr;
};

} // namespace

MTL::StructType* newStructType(const StructTable& table, std::shared_ptr<const void> keeper, const std::string& what) {
    if (const std::string missing = missingMembers(table); !missing.empty()) {
        support::log().debug("the struct type of {} is nil: {} (the front end describes structs with no base "
                             "class, no bit-field, one name per declaration and a name of their own in the file)",
                             what, missing);
        return nullptr;
    }
    std::vector<NS::Object*> members;
    for (mc_u32 i = 0; i < table.count; ++i)
        members.push_back(ns::make<StructMemberImpl>(table.members[i], table.argumentBuffer, keeper, what));
    NS::Array* array = ns::makeArray(members);
    for (NS::Object* m : members) m->release();
    return ns::make<StructTypeImpl>(array);
}

MTL::PointerType* newPointerType(const PointerShape& shape, std::shared_ptr<const void> keeper,
                                 const std::string& what) {
    return ns::make<PointerTypeImpl>(shape, std::move(keeper), what);
}

} // namespace metalcpu::api

using metalcpu::ns::implOf;
namespace api = metalcpu::api;

MTL::DataType MTL::Type::dataType() const {
    auto* self = implOf<api::TypeCore>(this);
    return self ? self->dataType() : MTL::DataTypeNone;
}

NS::String* MTL::StructMember::name() const {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->name_ : nullptr;
}
NS::UInteger MTL::StructMember::offset() const {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->offset_ : 0;
}
MTL::DataType MTL::StructMember::dataType() const {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->dataType_ : MTL::DataTypeNone;
}
// The member's [[id(n)]] in an argument buffer; 0 in other structs.
NS::UInteger MTL::StructMember::argumentIndex() const {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->argumentIndex_ : 0;
}
MTL::StructType* MTL::StructMember::structType() {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->structType_ : nullptr;
}
MTL::ArrayType* MTL::StructMember::arrayType() {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->arrayType_ : nullptr;
}
MTL::PointerType* MTL::StructMember::pointerType() {
    auto* self = implOf<api::StructMemberImpl>(this);
    return self ? self->pointerType_ : nullptr;
}
// Texture and tensor members of argument buffers are not described.
MTL::TextureReferenceType* MTL::StructMember::textureReferenceType() { return nullptr; }
MTL::TensorReferenceType* MTL::StructMember::tensorReferenceType() { return nullptr; }

NS::Array* MTL::StructType::members() const {
    auto* self = implOf<api::StructTypeImpl>(this);
    return self ? self->members() : nullptr;
}
MTL::StructMember* MTL::StructType::memberByName(const NS::String* name) {
    auto* self = implOf<api::StructTypeImpl>(this);
    if (!self || !name) return nullptr;
    const std::string_view wanted = metalcpu::ns::textOf(name);
    NS::Array* members = self->members();
    for (NS::UInteger i = 0; i < members->count(); ++i) {
        auto* member = members->object<MTL::StructMember>(i);
        if (metalcpu::ns::textOf(member->name()) == wanted) return member;
    }
    return nullptr;
}

MTL::DataType MTL::ArrayType::elementType() const {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->elementType_ : MTL::DataTypeNone;
}
NS::UInteger MTL::ArrayType::arrayLength() const {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->length_ : 0;
}
NS::UInteger MTL::ArrayType::stride() const {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->stride_ : 0;
}
NS::UInteger MTL::ArrayType::argumentIndexStride() const {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->argumentIndexStride_ : 0;
}
MTL::StructType* MTL::ArrayType::elementStructType() {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->elementStruct_ : nullptr;
}
// The inner dimension of an array of arrays is not described (its elementType says Array).
MTL::ArrayType* MTL::ArrayType::elementArrayType() { return nullptr; }
MTL::PointerType* MTL::ArrayType::elementPointerType() {
    auto* self = implOf<api::ArrayTypeImpl>(this);
    return self ? self->elementPointer_ : nullptr;
}
MTL::TextureReferenceType* MTL::ArrayType::elementTextureReferenceType() { return nullptr; }
MTL::TensorReferenceType* MTL::ArrayType::elementTensorReferenceType() { return nullptr; }

MTL::DataType MTL::PointerType::elementType() const {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self ? self->shape().elementType : MTL::DataTypeNone;
}
MTL::BindingAccess MTL::PointerType::access() const {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self ? self->shape().access : MTL::BindingAccessReadOnly;
}
NS::UInteger MTL::PointerType::alignment() const {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self ? self->shape().alignment : 0;
}
NS::UInteger MTL::PointerType::dataSize() const {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self ? self->shape().dataSize : 0;
}
bool MTL::PointerType::elementIsArgumentBuffer() const {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self && self->shape().elementIsArgumentBuffer;
}
MTL::StructType* MTL::PointerType::elementStructType() {
    auto* self = implOf<api::PointerTypeImpl>(this);
    return self ? self->elementStruct() : nullptr;
}
// A pointer at an array (`device float (*p)[4]`) is not described.
MTL::ArrayType* MTL::PointerType::elementArrayType() { return nullptr; }
