// metalcpu: MTL4::BinaryFunctionDescriptor, a function to compile ahead into a BinaryFunction.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL4 {

class FunctionDescriptor;

using BinaryFunctionOptions = NS::UInteger;
enum : BinaryFunctionOptions {
    BinaryFunctionOptionNone = 0,
    BinaryFunctionOptionPipelineIndependent = 1 << 1,
};

class BinaryFunctionDescriptor : public NS::Copying<BinaryFunctionDescriptor> {
public:
    static BinaryFunctionDescriptor* alloc();
    BinaryFunctionDescriptor* init();

    NS::String* name() const;
    void setName(const NS::String* name);
    FunctionDescriptor* functionDescriptor() const;
    void setFunctionDescriptor(const FunctionDescriptor* functionDescriptor);
    BinaryFunctionOptions options() const;
    void setOptions(BinaryFunctionOptions options);
};

} // namespace MTL4
