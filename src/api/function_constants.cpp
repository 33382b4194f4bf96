// MTL::FunctionConstantValues: values for a library's [[function_constant]]s, by index or by
// name. The values are kept (their bytes copied, as Metal does), but no compiler path reads them
// yet: Library::newFunction with constant values logs once that function constants are not
// supported.
#include "api/settings.h"
#include "foundation/factories.h"

#include <Metal/MTLFunctionConstantValues.hpp>

#include <cstddef>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace metalcpu::api {
namespace {

/// The bytes of one scalar or vector value of `type` (vectors packed: a float3 is 12 bytes);
/// 0 for types that cannot be function constants.
std::size_t valueSize(MTL::DataType type) {
    struct Family {
        MTL::DataType scalar;
        std::size_t bytes;
    };
    static constexpr Family kFamilies[] = {
        {MTL::DataTypeFloat, 4}, {MTL::DataTypeHalf, 2},  {MTL::DataTypeInt, 4},   {MTL::DataTypeUInt, 4},
        {MTL::DataTypeShort, 2}, {MTL::DataTypeUShort, 2}, {MTL::DataTypeChar, 1}, {MTL::DataTypeUChar, 1},
        {MTL::DataTypeBool, 1},  {MTL::DataTypeLong, 8},  {MTL::DataTypeULong, 8}, {MTL::DataTypeBFloat, 2},
    };
    // Each family lists the scalar, then its 2-, 3- and 4-component vectors.
    for (const Family& family : kFamilies) {
        NS::UInteger offset = type - family.scalar;
        if (type >= family.scalar && offset < 4) return family.bytes * (offset + 1);
    }
    return 0;
}

class FunctionConstantValues final : public Settings<FunctionConstantValues, MTL::FunctionConstantValues> {
public:
    const char* className() const override { return "MTLFunctionConstantValues"; }

    struct Value {
        MTL::DataType type = MTL::DataTypeNone;
        std::vector<std::byte> bytes;
    };
    struct State {
        std::map<NS::UInteger, Value> byIndex;
        std::map<std::string, Value> byName;
    } state;

    static Value valueOf(const void* bytes, MTL::DataType type) {
        Value value{type, std::vector<std::byte>(valueSize(type))};
        if (bytes) std::memcpy(value.bytes.data(), bytes, value.bytes.size());
        return value;
    }
};

} // namespace
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
    std::size_t size = metalcpu::api::valueSize(type);
    const auto* bytes = static_cast<const std::byte*>(values);
    for (NS::UInteger i = 0; i < range.length; ++i)
        self->state.byIndex[range.location + i] = Values::valueOf(bytes ? bytes + i * size : nullptr, type);
}
void MTL::FunctionConstantValues::reset() {
    if (auto* self = metalcpu::ns::implOf<Values>(this)) self->state = {};
}
