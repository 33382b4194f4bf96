// metalcpu: MTL4::FunctionDescriptor, the base of the ways Metal 4 names a function.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL4 {

class FunctionDescriptor : public NS::Copying<FunctionDescriptor> {
public:
    static FunctionDescriptor* alloc();
    FunctionDescriptor* init();
};

} // namespace MTL4
