// Compile-only: programs that include metal-cpp by the path of Apple's download, relative to
// a copy they keep beside their sources ("metal-cpp/Metal/Metal.hpp"), with no such copy
// there: include/metal-cpp gives metalcpu's headers under those names (docs/porting.md).
// Seen in public benchmarks that ship metal-cpp as a zip.

#include "metal-cpp/Foundation/Foundation.hpp"
#include "metal-cpp/Metal/Metal.hpp"
#include "metal-cpp/QuartzCore/QuartzCore.hpp"

// And again by the usual names: the same headers, included once.
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
#include <QuartzCore/QuartzCore.hpp>

namespace download_paths {

// Names from each header, as such a program uses them; Foundation's C headers come along.
NS::UInteger bytes(MTL::Device* device, CA::MetalLayer* layer) {
    if (layer != nullptr && layer->device() != device) return 0;
    MTL::Buffer* buffer = device->newBuffer(16, MTL::ResourceStorageModeShared);
    assert(buffer != nullptr);
    return buffer->length() + static_cast<NS::UInteger>(fabs(-1.0));
}

} // namespace download_paths
