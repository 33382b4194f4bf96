// Apple's introductory compute sample, "Performing Calculations on a GPU", written with
// metal-cpp. It builds unchanged on macOS and, with metalcpu, on Linux.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "MetalAdder.h"

#include <cstdlib>

int main(int argc, char** argv) {
    NS::AutoreleasePool* pool = NS::AutoreleasePool::alloc()->init();
    const unsigned long arrayLength = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (1ul << 24);

    MTL::Device* device = MTL::CreateSystemDefaultDevice();
    MetalAdder* adder = new MetalAdder(device, arrayLength);
    if (!adder->ready()) return 1;
    adder->prepareData();
    adder->sendComputeCommand();
    bool ok = adder->verifyResults();

    delete adder;
    device->release();
    pool->release();
    return ok ? 0 : 1;
}
