// MTL::FunctionConstantValues as the runtime reads them.
#pragma once

#include "jit/specialisation.h"

#include <Metal/MTLFunctionConstantValues.hpp>
#include <Metal/MTLLibrary.hpp>

namespace metalcpu::api {

/// The values `values` holds; nullptr for nil.
const jit::ConstantValues* constantValuesOf(const MTL::FunctionConstantValues* values);

/// Function::functionConstantsDictionary(): name -> MTL::FunctionConstant for each function
/// constant the function's code reaches, autoreleased.
NS::Dictionary* functionConstantsDictionary(const MTL::Function* function);

} // namespace metalcpu::api
