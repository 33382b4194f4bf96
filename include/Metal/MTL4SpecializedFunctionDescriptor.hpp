// metalcpu: MTL4::SpecializedFunctionDescriptor, a function with function-constant values.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTL4FunctionDescriptor.hpp"
#include "MTLDefines.hpp"

namespace MTL {
class FunctionConstantValues;
}

namespace MTL4 {

class SpecializedFunctionDescriptor : public NS::Copying<SpecializedFunctionDescriptor, FunctionDescriptor> {
public:
    static SpecializedFunctionDescriptor* alloc();
    SpecializedFunctionDescriptor* init();

    FunctionDescriptor* functionDescriptor() const;
    void setFunctionDescriptor(const FunctionDescriptor* functionDescriptor);
    MTL::FunctionConstantValues* constantValues() const;
    void setConstantValues(const MTL::FunctionConstantValues* constantValues);
    NS::String* specializedName() const;
    void setSpecializedName(const NS::String* specializedName);
};

} // namespace MTL4
