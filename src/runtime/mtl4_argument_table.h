#pragma once

#include "foundation/object.h"
#include "runtime/device.h"
#include "runtime/label.h"

#include <Metal/MTL4ArgumentTable.hpp>

#include <cstdint>
#include <string>

namespace NS {
class Error;
}

namespace metalcpu::rt {

struct Bindings;

/// An MTL4 argument table: the bind points of a dispatch, set by GPU address or resource
/// ID rather than by object. A dispatch copies what the table holds at that moment
/// (snapshot()), so rewriting the table afterwards does not change recorded work.
class Mtl4ArgumentTable final : public ns::Implements<MTL4::ArgumentTable> {
public:
    static constexpr std::uint64_t kMaxBuffers = Device::kMaxBufferBindings;
    static constexpr std::uint64_t kMaxTextures = 128;
    static constexpr std::uint64_t kMaxSamplers = METALCPU_MAX_SAMPLER_BINDINGS;
    struct Limits {
        std::uint64_t buffers = 0, textures = 0, samplers = 0;
    };

    /// A new table (+1), or nullptr with `error` set when a limit is beyond Metal's.
    static MTL4::ArgumentTable* make(Device* device, const Limits& limits, const NS::String* label,
                                     NS::Error** error);
    const char* className() const override { return "MTL4ArgumentTable"; }

    Device* device() const { return device_; }
    Label& label() { return label_; }

    void setAddress(MTL::GPUAddress address, std::uint64_t stride, std::uint64_t index);
    void setResource(MTL::ResourceID id, std::uint64_t index);
    void setTexture(MTL::ResourceID id, std::uint64_t index);
    void setSamplerState(MTL::ResourceID id, std::uint64_t index);

    /// Fills the buffer, texture and sampler bindings of `out` from the table as it is now.
    /// False, with `error` set, when a bound address lies in no live buffer.
    bool snapshot(Bindings& out, std::string& error) const;

    Mtl4ArgumentTable(Device* device, const Limits& limits) : device_(device), limits_(limits) {}

private:
    Device* device_;
    Limits limits_;
    Label label_;
    MTL::GPUAddress addresses_[kMaxBuffers] = {};
    std::uint64_t strides_[kMaxBuffers] = {}; ///< kept for vertex layouts; compute ignores them
    std::uint64_t resources_[kMaxBuffers] = {};
    std::uint64_t textures_[kMaxTextures] = {};
    std::uint64_t samplers_[kMaxSamplers] = {};
};

} // namespace metalcpu::rt
