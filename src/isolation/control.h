// The control connection between a host and its device process: a Unix socket of
// datagrams (SOCK_SEQPACKET) carrying small requests, each answered, and the descriptors of
// memory files (the arena, channels, kernel libraries). Dispatches do not go this way: they
// go through channels (channel.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::iso {

/// The control requests, in the order a device process first sees them.
enum class ControlRequest : std::uint32_t {
    Hello = 1,         ///< the arena, its directory and the fault record: map them, confine, start
    LoadLibrary = 2,   ///< a kernel library's memory file, under a number the host chose
    UnloadLibrary = 3, ///< the host no longer uses a library
    OpenChannel = 4,   ///< a channel's memory file: serve it on a thread of its own
};

/// The version of this protocol; a device process of another version refuses the hello.
inline constexpr std::uint32_t kControlProtocolVersion = 1;

/// The descriptor the device process finds its control socket at.
inline constexpr int kControlDescriptor = 3;

/// The longest control message.
inline constexpr std::size_t kMaxControlMessage = 64 * 1024;

/// Sends one message with `descriptors` attached; false on failure (errno set).
bool sendControl(int socket, const std::vector<std::uint8_t>& message, const std::vector<int>& descriptors = {});

/// Receives one message and the descriptors attached to it (which the caller then owns);
/// false at the end of the connection or on failure.
bool receiveControl(int socket, std::vector<std::uint8_t>& message, std::vector<int>& descriptors);

} // namespace metalcpu::iso
