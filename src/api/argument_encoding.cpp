// MTL::ArgumentDescriptor (settings) and MTL::ArgumentEncoder, which writes buffers' gpuAddress(),
// textures' and samplers' gpuResourceID() and constant data into an argument buffer at the
// offsets of the struct a kernel reads it as. An encoder from Function::newArgumentEncoder
// takes those offsets from the kernel's reflection (mc_argument: the host compiler's layout of
// the struct, so they cannot disagree); one from Device::newArgumentEncoder lays the
// descriptors out as a C struct of their members in index order.
#include "api/argument_encoding.h"

#include "api/settings.h"
#include "runtime/debug_layer.h"
#include "runtime/device.h"
#include "runtime/label.h"

#include <Foundation/NSArray.hpp>
#include <Metal/MTLBuffer.hpp>
#include <Metal/MTLDevice.hpp>
#include <Metal/MTLSampler.hpp>
#include <Metal/MTLTexture.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::api {
namespace {

class ArgumentDescriptor final : public Settings<ArgumentDescriptor, MTL::ArgumentDescriptor> {
public:
    const char* className() const override { return "MTLArgumentDescriptor"; }

    // Apple documents no defaults; a new MTLArgumentDescriptor reads as all zeros.
    struct State {
        MTL::DataType dataType = MTL::DataTypeNone;
        NS::UInteger index = 0;
        NS::UInteger arrayLength = 0;
        MTL::BindingAccess access = MTL::BindingAccessReadOnly;
        MTL::TextureType textureType = MTL::TextureType1D;
        NS::UInteger constantBlockAlignment = 0;
    } state;
};

constexpr const char* kEncoderClass = "MTLDebugArgumentEncoder";

/// One member of the encoded struct: ids [id, id + elements), `stride` bytes apart from `offset`.
struct Slot {
    std::string name;
    std::uint32_t id = 0;
    std::uint32_t kind = MC_ARGUMENT_CONSTANT; // mc_argument_kind
    std::uint64_t offset = 0;
    std::uint64_t stride = 0;
    std::uint32_t elements = 1;
    /// A pointer member at another argument-buffer struct: that struct's reflection (in the
    /// kernel library the encoder keeps loaded), for newArgumentEncoder(id).
    const mc_argument* pointee = nullptr;
};

/// What keeps a kernel's reflection loaded while an encoder reads it (its library's code).
using Keeper = std::shared_ptr<const void>;

const char* kindName(std::uint32_t kind) {
    switch (kind) {
    case MC_ARGUMENT_BUFFER: return "a buffer";
    case MC_ARGUMENT_TEXTURE: return "a texture";
    case MC_ARGUMENT_SAMPLER: return "a sampler";
    default: return "constant data";
    }
}

class ArgumentEncoder final : public ns::Implements<MTL::ArgumentEncoder> {
public:
    ArgumentEncoder(rt::Device* device, std::vector<Slot> slots, std::uint64_t length, std::uint64_t alignment,
                    Keeper keeper)
        : device_(device), slots_(std::move(slots)), length_(length), alignment_(alignment),
          keeper_(std::move(keeper)) {
        device_->retain();
    }
    ~ArgumentEncoder() override {
        if (buffer_) buffer_->release();
        device_->release();
    }
    const char* className() const override { return "MTLArgumentEncoder"; }

    rt::Device* device() const { return device_; }
    rt::Label& label() { return label_; }
    std::uint64_t encodedLength() const { return length_; }
    std::uint64_t alignment() const { return alignment_; }

    void setArgumentBuffer(const MTL::Buffer* argumentBuffer, std::uint64_t offset, const char* selector) {
        // Held, as Metal holds it, and written through: the encoder writes into it.
        auto* buffer = const_cast<MTL::Buffer*>(argumentBuffer);
        if (buffer && !buffer->contents()) {
            rt::DebugLayer::reject({kEncoderClass, selector, 100},
                                   "argumentBuffer must be CPU accessible (a private buffer has no contents)");
            buffer = nullptr;
        } else if (buffer && (offset > buffer->length() || buffer->length() - offset < length_)) {
            // Metal writes past the buffer's end; here the encoder refuses each write that would.
            rt::DebugLayer::report({kEncoderClass, selector, 101},
                                   "argumentBuffer length (" + std::to_string(buffer->length()) + ") - offset (" +
                                       std::to_string(offset) + ") must be >= encodedLength (" +
                                       std::to_string(length_) + ")");
        }
        if (buffer) buffer->retain();
        if (buffer_) buffer_->release();
        buffer_ = buffer;
        offset_ = offset;
    }
    void setArgumentBufferElement(const MTL::Buffer* buffer, std::uint64_t start, std::uint64_t element) {
        const std::uint64_t stride = (length_ + alignment_ - 1) / alignment_ * alignment_;
        setArgumentBuffer(buffer, start + element * stride, "setArgumentBuffer:startOffset:arrayElement:");
    }

    void write(std::uint32_t kind, std::uint64_t index, std::uint64_t value, const char* selector) {
        if (void* at = place(kind, index, selector)) std::memcpy(at, &value, sizeof value);
    }

    void* constantData(std::uint64_t index) { return place(MC_ARGUMENT_CONSTANT, index, "constantDataAtIndex:"); }

    /// newArgumentEncoderForBufferAtIndex: the encoder of the struct the pointer member `index`
    /// points at, or nullptr (reported) when the member is no pointer at an argument buffer.
    MTL::ArgumentEncoder* nested(std::uint64_t index);

private:
    // The member holding id `index`, or null (reported) when there is none.
    const Slot* slotOf(std::uint64_t index, const char* selector) const {
        for (const Slot& s : slots_)
            if (index >= s.id && index - s.id < s.elements) return &s;
        rt::DebugLayer::reject({kEncoderClass, selector, 110},
                               "index (" + std::to_string(index) + ") is not an argument of this encoder");
        return nullptr;
    }

    // Where resource `index` of `kind` goes in the argument buffer, or null (reported) when the
    // encoder has no such index, it holds another kind, no buffer is set or it is too short.
    void* place(std::uint32_t kind, std::uint64_t index, const char* selector) {
        const Slot* slot = slotOf(index, selector);
        if (!slot) return nullptr;
        if (slot->kind != kind) {
            rt::DebugLayer::reject({kEncoderClass, selector, 111},
                                   "argument at index " + std::to_string(index) + " ('" + slot->name + "') is " +
                                       kindName(slot->kind) + ", not " + kindName(kind));
            return nullptr;
        }
        if (!buffer_) {
            rt::DebugLayer::reject({kEncoderClass, selector, 112},
                                   "no argument buffer set (call setArgumentBuffer:offset: first)");
            return nullptr;
        }
        const std::uint64_t at = offset_ + slot->offset + (index - slot->id) * slot->stride;
        const std::uint64_t bytes = kind == MC_ARGUMENT_CONSTANT ? slot->stride : sizeof(std::uint64_t);
        if (at > buffer_->length() || buffer_->length() - at < bytes) {
            rt::DebugLayer::reject({kEncoderClass, selector, 113},
                                   "argument at index " + std::to_string(index) + " (offset " + std::to_string(at) +
                                       ") lies outside the argument buffer (length " +
                                       std::to_string(buffer_->length()) + "); nothing written");
            return nullptr;
        }
        return static_cast<char*>(buffer_->contents()) + at;
    }

    rt::Device* device_;
    rt::Label label_;
    std::vector<Slot> slots_;
    std::uint64_t length_;
    std::uint64_t alignment_;
    MTL::Buffer* buffer_ = nullptr;
    std::uint64_t offset_ = 0;
    Keeper keeper_;
};

// Size and alignment of one element of a constant of `type` (MSL's: a 3-component vector is
// laid out as 4, a matrix is its columns); nothing for a type an argument buffer cannot hold.
std::optional<std::uint64_t> constantSize(MTL::DataType type) {
    struct Family {
        MTL::DataType first;
        std::uint64_t scalar;
    };
    // Each family: scalar, 2-, 3- and 4-component vectors, in MTL::DataType's order.
    static constexpr Family kVectors[] = {
        {MTL::DataTypeFloat, 4}, {MTL::DataTypeHalf, 2},  {MTL::DataTypeInt, 4},   {MTL::DataTypeUInt, 4},
        {MTL::DataTypeShort, 2}, {MTL::DataTypeUShort, 2}, {MTL::DataTypeChar, 1}, {MTL::DataTypeUChar, 1},
        {MTL::DataTypeBool, 1},  {MTL::DataTypeLong, 8},  {MTL::DataTypeULong, 8}, {MTL::DataTypeBFloat, 2},
    };
    for (const Family& f : kVectors) {
        const int n = static_cast<int>(type) - static_cast<int>(f.first);
        if (n >= 0 && n < 4) return f.scalar * (n == 0 ? 1 : n == 2 ? 4 : n + 1);
    }
    // FloatCxR and HalfCxR: C columns of R-component vectors.
    for (const Family& f : {Family{MTL::DataTypeFloat2x2, 4}, Family{MTL::DataTypeHalf2x2, 2}}) {
        const int n = static_cast<int>(type) - static_cast<int>(f.first);
        if (n >= 0 && n < 9) {
            const std::uint64_t columns = 2 + n / 3, rows = 2 + n % 3;
            return columns * f.scalar * (rows == 3 ? 4 : rows);
        }
    }
    return std::nullopt;
}

MTL::ArgumentEncoder* make(rt::Device* device, std::vector<Slot> slots, std::uint64_t length, std::uint64_t align,
                           Keeper keeper = nullptr) {
    return ns::make<ArgumentEncoder>(device, std::move(slots), length, align, std::move(keeper));
}

// An encoder for a reflected struct: its `count` members, `size` bytes aligned to `align`.
MTL::ArgumentEncoder* reflected(rt::Device* device, const mc_argument* members, mc_u32 count, std::uint64_t size,
                                std::uint64_t align, Keeper keeper) {
    std::vector<Slot> slots;
    for (mc_u32 i = 0; i < count; ++i) {
        const mc_argument& a = members[i];
        const std::uint32_t elements = std::max<std::uint32_t>(a.array_length, 1);
        // Only a pointer member's struct has an encoder of its own (a struct member's is its type's).
        const bool nested = a.kind == MC_ARGUMENT_BUFFER && a.members;
        slots.push_back(Slot{a.name, a.id, a.kind, a.offset, a.size / elements, elements, nested ? &a : nullptr});
    }
    return make(device, std::move(slots), size, std::max<std::uint64_t>(align, 1), std::move(keeper));
}

MTL::ArgumentEncoder* ArgumentEncoder::nested(std::uint64_t index) {
    constexpr const char* kSelector = "newArgumentEncoderForBufferAtIndex:";
    const Slot* slot = slotOf(index, kSelector);
    if (!slot) return nullptr;
    if (!slot->pointee) {
        rt::DebugLayer::reject({kEncoderClass, kSelector, 114},
                               "argument at index " + std::to_string(index) + " ('" + slot->name + "') is " +
                                   (slot->kind == MC_ARGUMENT_BUFFER ? "a pointer at no argument-buffer struct"
                                                                     : kindName(slot->kind)) +
                                   ", not a pointer to an argument buffer");
        return nullptr;
    }
    const mc_argument& a = *slot->pointee;
    return reflected(device_, a.members, a.member_count, a.pointee_size, a.pointee_align, keeper_);
}

} // namespace

MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const mc_kernel& kernel, NS::UInteger bufferIndex,
                                         std::shared_ptr<const void> keeper) {
    constexpr rt::DebugLayer::Site site = {"MTLDebugFunction", "newArgumentEncoderWithBufferIndex:", 120};
    const mc_param* param = nullptr;
    for (mc_u32 i = 0; i < kernel.param_count; ++i)
        if (kernel.params[i].kind == MC_PARAM_BUFFER && kernel.params[i].index == bufferIndex) param = &kernel.params[i];
    if (!param) {
        rt::DebugLayer::reject(site, std::string("function '") + kernel.name + "' has no buffer at index " +
                                         std::to_string(bufferIndex));
        return nullptr;
    }
    if (param->argument_count == 0) {
        rt::DebugLayer::reject(site, std::string("buffer ") + std::to_string(bufferIndex) + " ('" + param->name +
                                         "') of function '" + kernel.name +
                                         "' is not an argument buffer: it points at no struct whose members carry "
                                         "[[id(n)]] or hold textures or samplers");
        return nullptr;
    }
    return reflected(device, param->arguments, param->argument_count, param->pointee_size, param->pointee_align,
                     std::move(keeper));
}

MTL::ArgumentEncoder* newArgumentEncoder(rt::Device* device, const NS::Array* arguments) {
    constexpr rt::DebugLayer::Site site = {"MTLDebugDevice", "newArgumentEncoderWithArguments:", 130};
    const NS::UInteger count = arguments ? arguments->count() : 0;
    if (count == 0) {
        rt::DebugLayer::reject(site, "arguments must not be empty");
        return nullptr;
    }
    std::vector<Slot> slots;
    std::uint64_t cursor = 0, alignment = 1;
    for (NS::UInteger i = 0; i < count; ++i) {
        auto* d = arguments->object<MTL::ArgumentDescriptor>(i);
        auto* descriptor = ns::implOf<ArgumentDescriptor>(d);
        if (!descriptor) {
            rt::DebugLayer::reject(site, "arguments[" + std::to_string(i) + "] is not an MTLArgumentDescriptor");
            return nullptr;
        }
        const ArgumentDescriptor::State& s = descriptor->state;
        if (!slots.empty() && s.index < slots.back().id + slots.back().elements) {
            rt::DebugLayer::reject(site, "arguments must be sorted by index, without overlaps (index " +
                                             std::to_string(s.index) + " at position " + std::to_string(i) + ")");
            return nullptr;
        }
        Slot slot{"", static_cast<std::uint32_t>(s.index), MC_ARGUMENT_CONSTANT, 0, 8,
                  static_cast<std::uint32_t>(std::max<NS::UInteger>(s.arrayLength, 1))};
        std::uint64_t align = 8;
        if (s.dataType == MTL::DataTypePointer) slot.kind = MC_ARGUMENT_BUFFER;
        else if (s.dataType == MTL::DataTypeTexture) slot.kind = MC_ARGUMENT_TEXTURE;
        else if (s.dataType == MTL::DataTypeSampler) slot.kind = MC_ARGUMENT_SAMPLER;
        else if (std::optional<std::uint64_t> size = constantSize(s.dataType)) {
            slot.stride = *size;
            align = std::max<std::uint64_t>(*size & (~*size + 1), s.constantBlockAlignment); // lowest set bit
        } else {
            rt::DebugLayer::reject(site, "arguments[" + std::to_string(i) + "] has data type " +
                                             std::to_string(static_cast<int>(s.dataType)) +
                                             ", which metalcpu's argument buffers cannot hold");
            return nullptr;
        }
        cursor = (cursor + align - 1) / align * align;
        slot.offset = cursor;
        slot.name = "index " + std::to_string(s.index);
        cursor += slot.stride * slot.elements;
        alignment = std::max(alignment, align);
        slots.push_back(std::move(slot));
    }
    return make(device, std::move(slots), (cursor + alignment - 1) / alignment * alignment, alignment);
}

} // namespace metalcpu::api

using Descriptor = metalcpu::api::ArgumentDescriptor;
using Encoder = metalcpu::api::ArgumentEncoder;
using metalcpu::ns::implOf;

METALCPU_ALLOC_INIT(MTL::ArgumentDescriptor, Descriptor)
MTL::ArgumentDescriptor* MTL::ArgumentDescriptor::argumentDescriptor() {
    return metalcpu::ns::autoreleased(alloc());
}
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::DataType, dataType, setDataType, dataType)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, index, setIndex, index)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, arrayLength, setArrayLength, arrayLength)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::BindingAccess, access, setAccess, access)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, MTL::TextureType, textureType, setTextureType, textureType)
METALCPU_VALUE(MTL::ArgumentDescriptor, Descriptor, NS::UInteger, constantBlockAlignment, setConstantBlockAlignment,
               constantBlockAlignment)

NS::String* MTL::ArgumentEncoder::label() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->label().get() : nullptr;
}
void MTL::ArgumentEncoder::setLabel(const NS::String* label) {
    if (auto* self = implOf<Encoder>(this)) self->label().set(label);
}
MTL::Device* MTL::ArgumentEncoder::device() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->device() : nullptr;
}
NS::UInteger MTL::ArgumentEncoder::encodedLength() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->encodedLength() : 0;
}
NS::UInteger MTL::ArgumentEncoder::alignment() const {
    auto* self = implOf<Encoder>(this);
    return self ? self->alignment() : 0;
}
void MTL::ArgumentEncoder::setArgumentBuffer(const Buffer* argumentBuffer, NS::UInteger offset) {
    if (auto* self = implOf<Encoder>(this)) self->setArgumentBuffer(argumentBuffer, offset, "setArgumentBuffer:offset:");
}
void MTL::ArgumentEncoder::setArgumentBuffer(const Buffer* argumentBuffer, NS::UInteger startOffset,
                                             NS::UInteger arrayElement) {
    if (auto* self = implOf<Encoder>(this)) self->setArgumentBufferElement(argumentBuffer, startOffset, arrayElement);
}
void MTL::ArgumentEncoder::setBuffer(const Buffer* buffer, NS::UInteger offset, NS::UInteger index) {
    if (auto* self = implOf<Encoder>(this))
        self->write(MC_ARGUMENT_BUFFER, index, buffer ? buffer->gpuAddress() + offset : 0, "setBuffer:offset:atIndex:");
}
void MTL::ArgumentEncoder::setBuffers(const Buffer* const buffers[], const NS::UInteger offsets[], NS::Range range) {
    if (!buffers || !offsets) return;
    for (NS::UInteger i = 0; i < range.length; ++i) setBuffer(buffers[i], offsets[i], range.location + i);
}
void MTL::ArgumentEncoder::setTexture(const Texture* texture, NS::UInteger index) {
    if (auto* self = implOf<Encoder>(this))
        self->write(MC_ARGUMENT_TEXTURE, index, texture ? texture->gpuResourceID()._impl : 0, "setTexture:atIndex:");
}
void MTL::ArgumentEncoder::setTextures(const Texture* const textures[], NS::Range range) {
    if (!textures) return;
    for (NS::UInteger i = 0; i < range.length; ++i) setTexture(textures[i], range.location + i);
}
void MTL::ArgumentEncoder::setSamplerState(const SamplerState* sampler, NS::UInteger index) {
    if (auto* self = implOf<Encoder>(this))
        self->write(MC_ARGUMENT_SAMPLER, index, sampler ? sampler->gpuResourceID()._impl : 0,
                    "setSamplerState:atIndex:");
}
void MTL::ArgumentEncoder::setSamplerStates(const SamplerState* const samplers[], NS::Range range) {
    if (!samplers) return;
    for (NS::UInteger i = 0; i < range.length; ++i) setSamplerState(samplers[i], range.location + i);
}
void* MTL::ArgumentEncoder::constantData(NS::UInteger index) {
    auto* self = implOf<Encoder>(this);
    return self ? self->constantData(index) : nullptr;
}

// Pipelines, command buffers, acceleration structures and function tables are not things a
// compute kernel here can hold: refused by name.
namespace {
void refuse(const MTL::ArgumentEncoder* encoder, const char* selector) {
    if (implOf<Encoder>(encoder))
        metalcpu::rt::DebugLayer::reject({metalcpu::api::kEncoderClass, selector, 140},
                                         std::string(selector) + " is not supported by metalcpu");
}
} // namespace
void MTL::ArgumentEncoder::setComputePipelineState(const ComputePipelineState*, NS::UInteger) {
    refuse(this, "setComputePipelineState:atIndex:");
}
void MTL::ArgumentEncoder::setComputePipelineStates(const ComputePipelineState* const*, NS::Range) {
    refuse(this, "setComputePipelineStates:withRange:");
}
void MTL::ArgumentEncoder::setIndirectCommandBuffer(const IndirectCommandBuffer*, NS::UInteger) {
    refuse(this, "setIndirectCommandBuffer:atIndex:");
}
void MTL::ArgumentEncoder::setIndirectCommandBuffers(const IndirectCommandBuffer* const*, NS::Range) {
    refuse(this, "setIndirectCommandBuffers:withRange:");
}
void MTL::ArgumentEncoder::setAccelerationStructure(const AccelerationStructure*, NS::UInteger) {
    refuse(this, "setAccelerationStructure:atIndex:");
}
void MTL::ArgumentEncoder::setVisibleFunctionTable(const VisibleFunctionTable*, NS::UInteger) {
    refuse(this, "setVisibleFunctionTable:atIndex:");
}
void MTL::ArgumentEncoder::setVisibleFunctionTables(const VisibleFunctionTable* const*, NS::Range) {
    refuse(this, "setVisibleFunctionTables:withRange:");
}
void MTL::ArgumentEncoder::setIntersectionFunctionTable(const IntersectionFunctionTable*, NS::UInteger) {
    refuse(this, "setIntersectionFunctionTable:atIndex:");
}
void MTL::ArgumentEncoder::setIntersectionFunctionTables(const IntersectionFunctionTable* const*, NS::Range) {
    refuse(this, "setIntersectionFunctionTables:withRange:");
}
MTL::ArgumentEncoder* MTL::ArgumentEncoder::newArgumentEncoder(NS::UInteger index) {
    auto* self = implOf<Encoder>(this);
    return self ? self->nested(index) : nullptr;
}
