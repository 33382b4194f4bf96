// The bindings of a kernel's parameters, as MTL::ComputePipelineReflection gives them (when the
// program asks newComputePipelineState for reflection: PipelineOptionBindingInfo) and
// MTL::FunctionReflection (Library::reflectionForFunction): one per buffer, threadgroup,
// texture, sampler and tensor parameter. Each binding reads its parameter's reflection
// (mc_param) in the kernel library it keeps loaded; a buffer binding of an argument buffer is
// what Device::newArgumentEncoder(bufferBinding) takes. With PipelineOptionBufferTypeInfo, and
// always in a function's reflection, a buffer binding also holds the types of what it points at
// (bufferStructType, bufferPointerType: reflected_types.h).
#include "api/binding_reflection.h"

#include "api/argument_encoding.h"
#include "api/not_yet.h"
#include "api/reflected_types.h"
#include "foundation/factories.h"
#include "foundation/object.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>
#include <Metal/MTLTensor.hpp>

#include <string>
#include <vector>

namespace metalcpu::api {
namespace {

/// What every kind of binding answers: its parameter.
class BindingCore : public ns::ObjectBase {
public:
    BindingCore(const mc_kernel& kernel, const mc_param& param, std::shared_ptr<const void> keeper, bool bufferTypes)
        : kernel_(kernel), param_(param), keeper_(std::move(keeper)), name_(ns::makeString(param.name)) {
        if (param.kind == MC_PARAM_TENSOR) {
            // A tensor bound to a shader has dynamic extents: its rank, each extent -1 (Apple's
            // MTLTensorBinding.dimensions).
            const std::vector<NS::Integer> dynamic(param.tensor_rank, -1);
            dimensions_ = MTL::TensorExtents::alloc()->init(dynamic.size(), dynamic.data());
            return;
        }
        if (param.kind != MC_PARAM_BUFFER || !bufferTypes) return;
        const std::string what = std::string("buffer '") + param.name + "' of kernel '" + kernel.name + "'";
        const StructTable pointee{param.members, param.member_count, param.pointee_size, param.pointee_align,
                                  isArgument()};
        if (dataType() == MTL::DataTypeStruct) structType_ = newStructType(pointee, keeper_, what);
        pointerType_ = newPointerType({dataType(), access(), param.pointee_size, param.pointee_align, isArgument(), pointee},
                                      keeper_, what);
    }
    ~BindingCore() override {
        name_->release();
        if (structType_) structType_->release();
        if (pointerType_) pointerType_->release();
        if (dimensions_) dimensions_->release();
    }

    const mc_kernel& kernel() const { return kernel_; }
    const mc_param& param() const { return param_; }
    const std::shared_ptr<const void>& keeper() const { return keeper_; }
    NS::String* name() const { return name_; }
    MTL::BindingType type() const {
        switch (param_.kind) {
        case MC_PARAM_THREADGROUP: return MTL::BindingTypeThreadgroupMemory;
        case MC_PARAM_TEXTURE: return MTL::BindingTypeTexture;
        case MC_PARAM_SAMPLER: return MTL::BindingTypeSampler;
        case MC_PARAM_TENSOR: return MTL::BindingTypeTensor;
        default: return MTL::BindingTypeBuffer;
        }
    }
    MTL::BindingAccess access() const {
        if (param_.access == MC_ACCESS_READ_ONLY) return MTL::BindingAccessReadOnly;
        return param_.access == MC_ACCESS_WRITE_ONLY ? MTL::BindingAccessWriteOnly : MTL::BindingAccessReadWrite;
    }
    bool isArgument() const { return param_.kind == MC_PARAM_BUFFER && param_.argument_count > 0; }
    /// What a buffer points at, as the kernel library's compiler names it (ABI 22).
    MTL::DataType dataType() const { return static_cast<MTL::DataType>(param_.pointee_data_type); }
    MTL::StructType* structType() const { return structType_; }
    MTL::PointerType* pointerType() const { return pointerType_; }
    MTL::TensorExtents* dimensions() const { return dimensions_; }

private:
    const mc_kernel& kernel_;
    const mc_param& param_;
    std::shared_ptr<const void> keeper_;
    NS::String* name_;
    MTL::StructType* structType_ = nullptr;
    MTL::PointerType* pointerType_ = nullptr;
    MTL::TensorExtents* dimensions_ = nullptr;
};

template <class Public, const char* Name>
class BindingOf final : public ns::Implements<Public, BindingCore> {
public:
    BindingOf(const mc_kernel& kernel, const mc_param& param, std::shared_ptr<const void> keeper, bool bufferTypes)
        : ns::Implements<Public, BindingCore>(kernel, param, std::move(keeper), bufferTypes) {}
    const char* className() const override { return Name; }
};

constexpr char kBufferBinding[] = "MTLBufferBinding";
constexpr char kThreadgroupBinding[] = "MTLThreadgroupBinding";
constexpr char kTextureBinding[] = "MTLTextureBinding";
constexpr char kSamplerBinding[] = "MTLBinding";
constexpr char kTensorBinding[] = "MTLTensorBinding";
using BufferBinding = BindingOf<MTL::BufferBinding, kBufferBinding>;
using ThreadgroupBinding = BindingOf<MTL::ThreadgroupBinding, kThreadgroupBinding>;
using TextureBinding = BindingOf<MTL::TextureBinding, kTextureBinding>;
using SamplerBinding = BindingOf<MTL::Binding, kSamplerBinding>;
using TensorBinding = BindingOf<MTL::TensorBinding, kTensorBinding>;

class PipelineReflection final : public ns::Implements<MTL::ComputePipelineReflection> {
public:
    explicit PipelineReflection(NS::Array* bindings) : bindings_(bindings) {}
    ~PipelineReflection() override { bindings_->release(); }
    const char* className() const override { return "MTLComputePipelineReflection"; }
    NS::Array* bindings() const { return bindings_; }

private:
    NS::Array* bindings_;
};

class FunctionReflection final : public ns::Implements<MTL::FunctionReflection> {
public:
    FunctionReflection(NS::Array* bindings, NS::String* userAnnotation)
        : bindings_(bindings), userAnnotation_(userAnnotation) {}
    ~FunctionReflection() override {
        bindings_->release();
        if (userAnnotation_) userAnnotation_->release();
    }
    const char* className() const override { return "MTLFunctionReflection"; }
    NS::Array* bindings() const { return bindings_; }
    NS::String* userAnnotation() const { return userAnnotation_; }

private:
    NS::Array* bindings_;
    NS::String* userAnnotation_;
};

/// A +1 array of the bindings of `kernel`'s parameters, in parameter order.
NS::Array* newBindings(const mc_kernel& kernel, const std::shared_ptr<const void>& keeper, bool bufferTypes) {
    std::vector<NS::Object*> bindings;
    for (mc_u32 i = 0; i < kernel.param_count; ++i) {
        const mc_param& p = kernel.params[i];
        switch (p.kind) {
        case MC_PARAM_BUFFER: bindings.push_back(ns::make<BufferBinding>(kernel, p, keeper, bufferTypes)); break;
        case MC_PARAM_THREADGROUP:
            bindings.push_back(ns::make<ThreadgroupBinding>(kernel, p, keeper, bufferTypes));
            break;
        case MC_PARAM_TEXTURE: bindings.push_back(ns::make<TextureBinding>(kernel, p, keeper, bufferTypes)); break;
        case MC_PARAM_SAMPLER: bindings.push_back(ns::make<SamplerBinding>(kernel, p, keeper, bufferTypes)); break;
        case MC_PARAM_TENSOR: bindings.push_back(ns::make<TensorBinding>(kernel, p, keeper, bufferTypes)); break;
        default: break;
        }
    }
    NS::Array* array = ns::makeArray(bindings);
    for (NS::Object* b : bindings) b->release();
    return array;
}

} // namespace

MTL::ComputePipelineReflection* newPipelineReflection(const mc_kernel& kernel, std::shared_ptr<const void> keeper,
                                                      bool bufferTypes) {
    return ns::make<PipelineReflection>(newBindings(kernel, keeper, bufferTypes));
}

MTL::FunctionReflection* newFunctionReflection(const mc_kernel& kernel, std::shared_ptr<const void> keeper) {
    return ns::make<FunctionReflection>(newBindings(kernel, keeper, true),
                                        kernel.user_annotation ? ns::makeString(kernel.user_annotation) : nullptr);
}

MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const MTL::BufferBinding* binding) {
    constexpr rt::DebugLayer::Site site = {"MTLDebugDevice", "newArgumentEncoderWithBufferBinding:", 131};
    const BufferBinding* made = binding ? dynamic_cast<const BufferBinding*>(ns::ObjectBase::from({binding})) : nullptr;
    if (!made) {
        rt::DebugLayer::reject(site, binding ? "bufferBinding was not made by the reflection of a pipeline or function"
                                             : "bufferBinding must not be nil");
        return nullptr;
    }
    const BindingCore& self = *made;
    if (!self.isArgument()) {
        rt::DebugLayer::reject(site, std::string("buffer binding '") + self.param().name + "' (index " +
                                         std::to_string(self.param().index) + ") is not an argument buffer");
        return nullptr;
    }
    return newArgumentEncoder(device, self.kernel(), self.param().index, self.keeper());
}

} // namespace metalcpu::api

using Core = metalcpu::api::BindingCore;
using metalcpu::ns::implOf;

MTL::ComputePipelineReflection* MTL::ComputePipelineReflection::alloc() {
    metalcpu::api::cannotMake("MTL::ComputePipelineReflection::alloc");
    return nullptr;
}
MTL::ComputePipelineReflection* MTL::ComputePipelineReflection::init() { return nullptr; }
NS::Array* MTL::ComputePipelineReflection::bindings() const {
    auto* self = implOf<metalcpu::api::PipelineReflection>(this);
    return self ? self->bindings() : nullptr;
}
// MTL::Argument objects (the deprecated form) are not made.
NS::Array* MTL::ComputePipelineReflection::arguments() const { return nullptr; }

MTL::FunctionReflection* MTL::FunctionReflection::alloc() {
    metalcpu::api::cannotMake("MTL::FunctionReflection::alloc");
    return nullptr;
}
MTL::FunctionReflection* MTL::FunctionReflection::init() { return nullptr; }
NS::Array* MTL::FunctionReflection::bindings() const {
    auto* self = implOf<metalcpu::api::FunctionReflection>(this);
    return self ? self->bindings() : nullptr;
}
NS::String* MTL::FunctionReflection::userAnnotation() const {
    auto* self = implOf<metalcpu::api::FunctionReflection>(this);
    return self ? self->userAnnotation() : nullptr;
}

NS::String* MTL::Binding::name() const {
    auto* self = implOf<Core>(this);
    return self ? self->name() : nullptr;
}
MTL::BindingType MTL::Binding::type() const {
    auto* self = implOf<Core>(this);
    return self ? self->type() : MTL::BindingTypeBuffer;
}
MTL::BindingAccess MTL::Binding::access() const {
    auto* self = implOf<Core>(this);
    return self ? self->access() : MTL::BindingAccessReadOnly;
}
NS::UInteger MTL::Binding::index() const {
    auto* self = implOf<Core>(this);
    return self ? self->param().index : 0;
}
// Every parameter counts as used: the translator does not track which ones the body reads.
bool MTL::Binding::isUsed() const { return implOf<Core>(this) != nullptr; }
bool MTL::Binding::used() const { return isUsed(); }
bool MTL::Binding::isArgument() const {
    auto* self = implOf<Core>(this);
    return self && self->isArgument();
}
bool MTL::Binding::argument() const { return isArgument(); }

NS::UInteger MTL::BufferBinding::bufferAlignment() const {
    auto* self = implOf<Core>(this);
    return self ? self->param().pointee_align : 0;
}
NS::UInteger MTL::BufferBinding::bufferDataSize() const {
    auto* self = implOf<Core>(this);
    return self ? self->param().pointee_size : 0;
}
MTL::DataType MTL::BufferBinding::bufferDataType() const {
    auto* self = implOf<Core>(this);
    return self ? self->dataType() : MTL::DataTypeNone;
}
MTL::StructType* MTL::BufferBinding::bufferStructType() const {
    auto* self = implOf<Core>(this);
    return self ? self->structType() : nullptr;
}
MTL::PointerType* MTL::BufferBinding::bufferPointerType() const {
    auto* self = implOf<Core>(this);
    return self ? self->pointerType() : nullptr;
}

NS::UInteger MTL::ThreadgroupBinding::threadgroupMemoryAlignment() const {
    auto* self = implOf<Core>(this);
    return self ? self->param().pointee_align : 0;
}
NS::UInteger MTL::ThreadgroupBinding::threadgroupMemoryDataSize() const {
    auto* self = implOf<Core>(this);
    return self ? self->param().pointee_size : 0;
}

MTL::TextureType MTL::TextureBinding::textureType() const {
    auto* self = implOf<Core>(this);
    return self ? static_cast<MTL::TextureType>(self->param().texture_type) : MTL::TextureType1D;
}
MTL::DataType MTL::TextureBinding::textureDataType() const {
    auto* self = implOf<Core>(this);
    return self ? static_cast<MTL::DataType>(self->param().texture_data_type) : MTL::DataTypeNone;
}
// Depth textures are refused at pipeline creation (MC_PARAM_UNSUPPORTED), so none is reflected.
bool MTL::TextureBinding::isDepthTexture() const { return false; }
bool MTL::TextureBinding::depthTexture() const { return false; }
NS::UInteger MTL::TextureBinding::arrayLength() const { return implOf<Core>(this) ? 1 : 0; }

MTL::TensorDataType MTL::TensorBinding::tensorDataType() const {
    auto* self = implOf<Core>(this);
    return self ? static_cast<MTL::TensorDataType>(self->param().tensor_data_type) : MTL::TensorDataTypeNone;
}
MTL::DataType MTL::TensorBinding::indexType() const {
    auto* self = implOf<Core>(this);
    return self ? static_cast<MTL::DataType>(self->param().pointee_data_type) : MTL::DataTypeNone;
}
MTL::TensorExtents* MTL::TensorBinding::dimensions() const {
    auto* self = implOf<Core>(this);
    return self ? self->dimensions() : nullptr;
}
// Tensors with auxiliary planes (block-scaled formats) are not bound to shaders here.
NS::Array* MTL::TensorBinding::auxiliaryPlanes() const { return nullptr; }
