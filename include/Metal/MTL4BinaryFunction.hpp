// metalcpu: MTL4::BinaryFunction, a separately compiled function for binary linking.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"
#include "MTLLibrary.hpp"

namespace MTL4 {

class BinaryFunction : public NS::Referencing<BinaryFunction> {
public:
    NS::String* name() const;
    MTL::FunctionType functionType() const;
};

} // namespace MTL4
