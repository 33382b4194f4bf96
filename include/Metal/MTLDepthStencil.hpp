// metalcpu: CompareFunction, which samplers use for comparison sampling. The depth-stencil
// state objects of the render pipeline are not part of metalcpu.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLDefines.hpp"

namespace MTL {

enum CompareFunction : NS::UInteger {
    CompareFunctionNever = 0,
    CompareFunctionLess = 1,
    CompareFunctionEqual = 2,
    CompareFunctionLessEqual = 3,
    CompareFunctionGreater = 4,
    CompareFunctionNotEqual = 5,
    CompareFunctionGreaterEqual = 6,
    CompareFunctionAlways = 7,
};

} // namespace MTL
