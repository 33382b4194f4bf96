#include "runtime/buffer_directory.h"

#include "runtime/buffer.h"

#include <mutex>

namespace metalcpu::rt {

namespace {
std::uint64_t beginOf(const Buffer* buffer) { return reinterpret_cast<std::uint64_t>(buffer->memory()); }
} // namespace

void BufferDirectory::add(Buffer* buffer) {
    if (!buffer->memory()) return;
    std::unique_lock lock(mutex_);
    byBegin_[beginOf(buffer)] = buffer;
}

void BufferDirectory::remove(Buffer* buffer) {
    if (!buffer->memory()) return;
    std::unique_lock lock(mutex_);
    auto found = byBegin_.find(beginOf(buffer));
    if (found != byBegin_.end() && found->second == buffer) byBegin_.erase(found);
}

BufferDirectory::Location BufferDirectory::find(std::uint64_t address) const {
    std::shared_lock lock(mutex_);
    auto after = byBegin_.upper_bound(address);
    if (after == byBegin_.begin()) return {};
    const auto& [begin, buffer] = *std::prev(after);
    if (address - begin >= buffer->length()) return {};
    return {buffer, address - begin};
}

} // namespace metalcpu::rt
