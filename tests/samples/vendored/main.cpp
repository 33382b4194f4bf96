// Includes metal-cpp and the program's own header from the same include directory.
#include <Metal/Metal.hpp>

#include "app/settings.h"

#include <iostream>

int main() {
    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    if (!device) return 1;
    std::cout << app::kGreeting << device->name()->utf8String() << std::endl;
    device->release();
    return 0;
}
