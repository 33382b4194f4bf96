// MTL::FunctionDescriptor and its subclass MTL::IntersectionFunctionDescriptor: settings that
// name a library function and its function-constant values (Library::newFunction(descriptor)).
#include "api/settings.h"

#include <Foundation/NSArray.hpp>
#include <Foundation/NSString.hpp>
#include <Metal/MTLFunctionConstantValues.hpp>
#include <Metal/MTLFunctionDescriptor.hpp>

namespace metalcpu::api {
namespace {

/// What FunctionDescriptor and IntersectionFunctionDescriptor share.
class FunctionDescriptorCore : public ns::ObjectBase {
public:
    struct Base {
        Property<NS::String> name;
        Property<NS::String> specializedName;
        Property<MTL::FunctionConstantValues> constantValues;
        MTL::FunctionOptions options = MTL::FunctionOptionNone;
        Property<NS::Array> binaryArchives;
    } base;
};

class FunctionDescriptor final
    : public Settings<FunctionDescriptor, MTL::FunctionDescriptor, FunctionDescriptorCore> {
public:
    const char* className() const override { return "MTLFunctionDescriptor"; }
};

class IntersectionFunctionDescriptor final
    : public Settings<IntersectionFunctionDescriptor, MTL::IntersectionFunctionDescriptor, FunctionDescriptorCore> {
public:
    const char* className() const override { return "MTLIntersectionFunctionDescriptor"; }
};

} // namespace
} // namespace metalcpu::api

using Core = metalcpu::api::FunctionDescriptorCore;

MTL::FunctionDescriptor* MTL::FunctionDescriptor::alloc() {
    return metalcpu::ns::make<metalcpu::api::FunctionDescriptor>();
}
MTL::FunctionDescriptor* MTL::FunctionDescriptor::functionDescriptor() { return metalcpu::ns::autoreleased(alloc()); }
MTL::FunctionDescriptor* MTL::FunctionDescriptor::init() { return metalcpu::ns::implOf<Core>(this) ? this : nullptr; }
METALCPU_OBJECT_IN(MTL::FunctionDescriptor, Core, base, NS::String, name, setName, name)
METALCPU_OBJECT_IN(MTL::FunctionDescriptor, Core, base, NS::String, specializedName, setSpecializedName,
                   specializedName)
METALCPU_OBJECT_IN(MTL::FunctionDescriptor, Core, base, MTL::FunctionConstantValues, constantValues,
                   setConstantValues, constantValues)
METALCPU_VALUE_IN(MTL::FunctionDescriptor, Core, base, MTL::FunctionOptions, options, setOptions, options)
METALCPU_OBJECT_IN(MTL::FunctionDescriptor, Core, base, NS::Array, binaryArchives, setBinaryArchives,
                   binaryArchives)

METALCPU_ALLOC_INIT(MTL::IntersectionFunctionDescriptor, metalcpu::api::IntersectionFunctionDescriptor)
