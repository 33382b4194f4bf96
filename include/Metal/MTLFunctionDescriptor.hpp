// metalcpu: FunctionDescriptor, which names a function and its specialisation.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class FunctionConstantValues;

using FunctionOptions = NS::UInteger;
enum : FunctionOptions {
    FunctionOptionNone = 0,
    FunctionOptionCompileToBinary = 1,
    FunctionOptionStoreFunctionInMetalPipelinesScript = 1 << 1,
    FunctionOptionStoreFunctionInMetalScript = 1 << 1,
    FunctionOptionFailOnBinaryArchiveMiss = 1 << 2,
    FunctionOptionPipelineIndependent = 1 << 3,
};

// Selects a function of a library by name, with function-constant values.
class FunctionDescriptor : public NS::Copying<FunctionDescriptor> {
public:
    static FunctionDescriptor* alloc();
    static FunctionDescriptor* functionDescriptor();
    FunctionDescriptor* init();

    NS::String* name() const;
    void setName(const NS::String* name);
    NS::String* specializedName() const;
    void setSpecializedName(const NS::String* specializedName);
    FunctionConstantValues* constantValues() const;
    void setConstantValues(const FunctionConstantValues* constantValues);
    FunctionOptions options() const;
    void setOptions(FunctionOptions options);
    NS::Array* binaryArchives() const;
    void setBinaryArchives(const NS::Array* binaryArchives);
};

class IntersectionFunctionDescriptor : public NS::Copying<IntersectionFunctionDescriptor, FunctionDescriptor> {
public:
    static IntersectionFunctionDescriptor* alloc();
    IntersectionFunctionDescriptor* init();
};

} // namespace MTL
