// The second translation unit of ImplementationMacros.TwoTranslationUnits.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#define CA_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

MTL::CommandQueue* queueFromTheOtherUnit(MTL::Device* device) { return device->newCommandQueue(); }
