// metalcpu: FunctionConstantValues, the values of a library's [[function_constant]]s.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDataType.hpp"
#include "MTLDefines.hpp"

namespace MTL {

// Values for function constants, set by index or by name; the bytes are copied.
class FunctionConstantValues : public NS::Copying<FunctionConstantValues> {
public:
    static FunctionConstantValues* alloc();
    FunctionConstantValues* init();

    void setConstantValue(const void* value, DataType type, NS::UInteger index);
    void setConstantValue(const void* value, DataType type, const NS::String* name);
    void setConstantValues(const void* values, DataType type, NS::Range range);
    void reset();
};

} // namespace MTL
