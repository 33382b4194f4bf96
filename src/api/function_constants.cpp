// MTL::FunctionConstantValues: values for a library's [[function_constant]]s, by index or by
// name, their bytes copied as Metal does. Library::newFunction(name, values) reads them
// (api/function_constants.h) to specialise a function.
#include "api/function_constants.h"

#include "api/settings.h"
#include "foundation/factories.h"
#include "runtime/library.h"

#include <Metal/MTLLibrary.hpp>

#include <cstddef>
#include <cstring>

namespace metalcpu::api {
namespace {

class FunctionConstantValues final : public Settings<FunctionConstantValues, MTL::FunctionConstantValues> {
public:
    const char* className() const override { return "MTLFunctionConstantValues"; }

    jit::ConstantValues state;

    /// The value at `bytes` (scalar or packed vector; 0 bytes for a type that cannot be a
    /// function constant, which then matches no constant).
    static jit::ConstantValue valueOf(const void* bytes, MTL::DataType type) {
        jit::ConstantValue value{static_cast<std::uint32_t>(type),
                                 std::vector<std::byte>(jit::constantValueSize(static_cast<std::uint32_t>(type)))};
        if (bytes) std::memcpy(value.bytes.data(), bytes, value.bytes.size());
        return value;
    }
};

/// A function constant as Function::functionConstantsDictionary() describes it.
class FunctionConstant final : public ns::Implements<MTL::FunctionConstant> {
public:
    explicit FunctionConstant(const mc_function_constant& constant)
        : name(ns::makeString(constant.name)), type(static_cast<MTL::DataType>(constant.data_type)),
          index(constant.index), required(constant.flags & MC_FUNCTION_CONSTANT_REQUIRED) {}
    ~FunctionConstant() override { name->release(); }
    const char* className() const override { return "MTLFunctionConstant"; }

    NS::String* name;
    MTL::DataType type;
    NS::UInteger index;
    bool required;
};

} // namespace

const jit::ConstantValues* constantValuesOf(const MTL::FunctionConstantValues* values) {
    const auto* self = ns::implOf<FunctionConstantValues>(values);
    return self ? &self->state : nullptr;
}

NS::Dictionary* functionConstantsDictionary(const MTL::Function* function) {
    const auto* self = ns::implOf<rt::Function>(function);
    if (!self) return nullptr;
    std::vector<std::pair<NS::Object*, NS::Object*>> entries;
    for (const mc_function_constant* c : self->library()->functionConstants(self->kernel().name)) {
        MTL::FunctionConstant* constant = ns::make<FunctionConstant>(*c);
        entries.emplace_back(ns::implOf<FunctionConstant>(constant)->name, constant);
    }
    NS::Dictionary* dictionary = ns::makeDictionary(entries);
    for (auto& entry : entries) entry.second->release();
    return ns::autoreleased(dictionary);
}

} // namespace metalcpu::api

using Values = metalcpu::api::FunctionConstantValues;

METALCPU_ALLOC_INIT(MTL::FunctionConstantValues, Values)

void MTL::FunctionConstantValues::setConstantValue(const void* value, DataType type, NS::UInteger index) {
    if (auto* self = metalcpu::ns::implOf<Values>(this)) self->state.byIndex[index] = Values::valueOf(value, type);
}
void MTL::FunctionConstantValues::setConstantValue(const void* value, DataType type, const NS::String* name) {
    if (auto* self = metalcpu::ns::implOf<Values>(this))
        self->state.byName[metalcpu::ns::stringOf(name)] = Values::valueOf(value, type);
}
void MTL::FunctionConstantValues::setConstantValues(const void* values, DataType type, NS::Range range) {
    auto* self = metalcpu::ns::implOf<Values>(this);
    if (!self) return;
    std::size_t size = metalcpu::jit::constantValueSize(static_cast<std::uint32_t>(type));
    const auto* bytes = static_cast<const std::byte*>(values);
    for (NS::UInteger i = 0; i < range.length; ++i)
        self->state.byIndex[range.location + i] = Values::valueOf(bytes ? bytes + i * size : nullptr, type);
}
void MTL::FunctionConstantValues::reset() {
    if (auto* self = metalcpu::ns::implOf<Values>(this)) self->state = {};
}

NS::String* MTL::FunctionConstant::name() const {
    auto* self = metalcpu::ns::implOf<metalcpu::api::FunctionConstant>(this);
    return self ? self->name : nullptr;
}
MTL::DataType MTL::FunctionConstant::type() const {
    auto* self = metalcpu::ns::implOf<metalcpu::api::FunctionConstant>(this);
    return self ? self->type : DataType{};
}
NS::UInteger MTL::FunctionConstant::index() const {
    auto* self = metalcpu::ns::implOf<metalcpu::api::FunctionConstant>(this);
    return self ? self->index : 0;
}
bool MTL::FunctionConstant::required() const {
    auto* self = metalcpu::ns::implOf<metalcpu::api::FunctionConstant>(this);
    return self && self->required;
}
