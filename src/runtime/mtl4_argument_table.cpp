#include "runtime/mtl4_argument_table.h"

#include "foundation/factories.h"
#include "runtime/buffer.h"
#include "runtime/debug_layer.h"
#include "runtime/dispatch_builder.h"
#include "runtime/errors.h"
#include "runtime/resource_descriptors.h"
#include "runtime/sampler_state.h"
#include "runtime/tensor.h"
#include "runtime/texture.h"

#include <Foundation/NSError.hpp>

#include <cstdio>
#include <string>

namespace metalcpu::rt {
namespace {

constexpr const char* kClass = "MTL4DebugArgumentTable";
constexpr const char* kErrorDomain = "MTLArgumentTableErrorDomain";

/// Whether `index` is below the table's `limit` for `kind`; reported (always refused) if not.
bool withinLimit(const char* selector, std::uint64_t index, std::uint64_t limit, const char* kind) {
    if (index < limit) return true;
    DebugLayer::reject({kClass, selector, 120},
                       "Argument table only supports " + std::to_string(limit) + " " + kind + " bindings");
    return false;
}

} // namespace

MTL4::ArgumentTable* Mtl4ArgumentTable::make(Device* device, const Limits& limits, const NS::String* label,
                                             NS::Error** error) {
    std::string problem;
    auto tooMany = [](const char* what, std::uint64_t most) {
        return std::string("max ") + what + " bind count must not be more than " + std::to_string(most) + ".";
    };
    if (limits.buffers > kMaxBuffers) problem = tooMany("buffer", kMaxBuffers);
    else if (limits.textures > kMaxTextures) problem = tooMany("texture", kMaxTextures);
    else if (limits.samplers > kMaxSamplers) problem = tooMany("sampler state", kMaxSamplers);
    if (!problem.empty()) {
        DebugLayer::report({"MTLDebugDevice", "newArgumentTableWithDescriptor:error:", 3120}, problem);
        setError(error, kErrorDomain, 1, problem); // autoreleased, as Metal hands out errors
        return nullptr;
    }
    MTL4::ArgumentTable* table = ns::make<Mtl4ArgumentTable>(device, limits);
    ns::implOf<Mtl4ArgumentTable>(table)->label().set(label);
    return table;
}

void Mtl4ArgumentTable::setAddress(MTL::GPUAddress address, std::uint64_t stride, std::uint64_t index) {
    if (!withinLimit("setAddress:atIndex:", index, limits_.buffers, "buffer")) return;
    addresses_[index] = address;
    strides_[index] = stride;
    resources_[index] = 0;
}

void Mtl4ArgumentTable::setResource(MTL::ResourceID id, std::uint64_t index) {
    if (!withinLimit("setResource:atBufferIndex:", index, limits_.buffers, "buffer")) return;
    resources_[index] = id._impl;
    addresses_[index] = 0;
}

void Mtl4ArgumentTable::setTexture(MTL::ResourceID id, std::uint64_t index) {
    if (withinLimit("setTexture:atIndex:", index, limits_.textures, "texture")) textures_[index] = id._impl;
}

void Mtl4ArgumentTable::setSamplerState(MTL::ResourceID id, std::uint64_t index) {
    if (withinLimit("setSamplerState:atIndex:", index, limits_.samplers, "sampler")) samplers_[index] = id._impl;
}

bool Mtl4ArgumentTable::snapshot(Bindings& out, std::string& error) const {
    for (std::uint64_t i = 0; i < limits_.buffers; ++i) {
        out.buffers[i] = BufferBinding{};
        out.tensors[i] = resources_[i] ? Tensor::fromResourceID(MTL::ResourceID{resources_[i]}) : nullptr;
        if (!addresses_[i]) continue;
        BufferDirectory::Location found = device_->bufferDirectory().find(addresses_[i]);
        if (!found.buffer) {
            char text[120];
            std::snprintf(text, sizeof text, "the address 0x%llx bound at buffer index %llu is in no live buffer",
                          static_cast<unsigned long long>(addresses_[i]), static_cast<unsigned long long>(i));
            error = text;
            return false;
        }
        out.buffers[i] = BufferBinding{found.buffer, found.offset, nullptr, 0};
    }
    // Kernels see the first METALCPU_MAX_*_BINDINGS bind points; a table may have more.
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(limits_.textures, METALCPU_MAX_TEXTURE_BINDINGS); ++i)
        out.textures[i] = textures_[i] ? ResourceDescriptors::shared().texture(textures_[i]) : nullptr;
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(limits_.samplers, METALCPU_MAX_SAMPLER_BINDINGS); ++i)
        out.samplers[i] = samplers_[i] ? ResourceDescriptors::shared().sampler(samplers_[i]) : nullptr;
    return true;
}

} // namespace metalcpu::rt
