#include "runtime/blit_command_encoder.h"

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/debug_layer.h"

namespace metalcpu::rt {
namespace {

constexpr const char* kClass = "MTLDebugBlitCommandEncoder";
constexpr const char* kCopy = "copyFromBuffer:sourceOffset:toBuffer:destinationOffset:size:";
constexpr const char* kFill = "fillBuffer:range:value:";

/// `(offsetName + sizeName)(end) must be <= [bufferName length](length).`, or "" when the
/// range fits.
std::string rangeError(const char* offsetName, std::uint64_t offset, const char* sizeName, std::uint64_t size,
                       const char* bufferName, std::uint64_t length) {
    std::uint64_t end = 0;
    if (!__builtin_add_overflow(offset, size, &end) && end <= length) return {};
    return std::string("(") + offsetName + " + " + sizeName + ")(" +
           (end < offset ? "overflow" : std::to_string(end)) + ") must be <= [" + bufferName + " length](" +
           std::to_string(length) + ").";
}

} // namespace

void encodeBufferCopy(CommandSink& sink, const char* debugClassName, const MTL::Buffer* source,
                      std::uint64_t sourceOffset, const MTL::Buffer* destination, std::uint64_t destinationOffset,
                      std::uint64_t size) {
    // A mistake is reported by the debug layer (when it is on) and recorded, so that the
    // command buffer fails when it gets there.
    auto reject = [&](unsigned line, const std::string& message) {
        DebugLayer::report({debugClassName, kCopy, line}, message);
        sink.append(InvalidCommand{std::string("copyFromBuffer: ") + message});
    };
    Buffer* from = ns::implOf<Buffer>(source);
    Buffer* to = ns::implOf<Buffer>(destination);
    if (!from) return reject(425, "sourceBuffer must not be nil.");
    if (!to) return reject(426, "destinationBuffer must not be nil.");
    std::string error = rangeError("sourceOffset", sourceOffset, "size", size, "sourceBuffer", from->length());
    if (!error.empty()) return reject(431, error);
    error = rangeError("destinationOffset", destinationOffset, "size", size, "destinationBuffer", to->length());
    if (!error.empty()) return reject(433, error);
    sink.keepAlive(from->asPublicClass());
    sink.keepAlive(to->asPublicClass());
    sink.useBuffer(from, false);
    sink.useBuffer(to, true);
    sink.append(CopyCommand{from, sourceOffset, to, destinationOffset, size});
}

void encodeBufferFill(CommandSink& sink, const char* debugClassName, const MTL::Buffer* buffer, std::uint64_t offset,
                      std::uint64_t length, std::uint8_t value) {
    auto reject = [&](unsigned line, const std::string& message) {
        DebugLayer::report({debugClassName, kFill, line}, message);
        sink.append(InvalidCommand{std::string("fillBuffer: ") + message});
    };
    Buffer* target = ns::implOf<Buffer>(buffer);
    if (!target) return reject(612, "buffer must not be nil.");
    std::string error = rangeError("range.location", offset, "range.length", length, "buffer", target->length());
    if (!error.empty()) return reject(615, error);
    sink.keepAlive(target->asPublicClass());
    sink.useBuffer(target, true);
    sink.append(FillCommand{target, offset, length, value});
}

BlitCommandEncoder::BlitCommandEncoder(CommandBuffer* commandBuffer) : Implements(commandBuffer, kClass) {}

void BlitCommandEncoder::copy(const MTL::Buffer* source, std::uint64_t sourceOffset, const MTL::Buffer* destination,
                              std::uint64_t destinationOffset, std::uint64_t size) {
    if (usable(kCopy)) encodeBufferCopy(*commandBuffer_, kClass, source, sourceOffset, destination, destinationOffset, size);
}

void BlitCommandEncoder::fill(const MTL::Buffer* buffer, std::uint64_t offset, std::uint64_t length,
                              std::uint8_t value) {
    if (usable(kFill)) encodeBufferFill(*commandBuffer_, kClass, buffer, offset, length, value);
}

} // namespace metalcpu::rt
