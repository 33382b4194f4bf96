// One request at a time between a host thread and a device-process thread, through a memory
// file both map: the host writes a request and waits; the device runs it and writes the
// reply. Waiting spins briefly, then sleeps on a futex, so a short dispatch costs a few
// microseconds instead of two wake-ups of a sleeping thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::iso {

/// The shared part of a channel, at the start of its memory file; the payload follows.
struct ChannelHeader {
    std::atomic<std::uint32_t> state;         ///< a ChannelState; the futex both sides wait on
    std::atomic<std::uint32_t> hostSleeping;   ///< 1 while the host sleeps on `state`
    std::atomic<std::uint32_t> deviceSleeping; ///< 1 while the device sleeps on `state`
    std::uint32_t reserved;
    std::atomic<std::uint64_t> payloadBytes; ///< of the request or the reply in the payload
};

enum class ChannelState : std::uint32_t {
    Idle = 0,    ///< nothing to do
    Request = 1, ///< the host wrote a request
    Reply = 2,   ///< the device wrote the reply
    Dead = 3,    ///< the device process is gone: no reply will come (set by the host)
    Closed = 4,  ///< the host closed the channel: the device's thread ends
};

class Channel {
public:
    /// Bytes of the payload a channel holds: a request or a reply larger than this is refused.
    static constexpr std::uint64_t kPayloadBytes = std::uint64_t(64) << 20;

    /// A new channel (host side); nullopt with the reason in `why` when its memory cannot be had.
    static std::optional<Channel> create(std::string* why);
    /// The channel in memory file `file` (device side, which owns the descriptor from then on).
    static std::optional<Channel> attach(int file, std::string* why);

    Channel(Channel&& other) noexcept;
    Channel& operator=(Channel&& other) noexcept;
    ~Channel();

    int file() const { return file_; }

    // Host side.
    /// Writes `request` and wakes the device. false when it does not fit.
    bool post(const std::vector<std::uint8_t>& request);
    enum class Wait { Reply, Dead, TimedOut };
    /// Waits for the reply (copied into `reply`), for the channel to be marked dead, or until
    /// `deadline`.
    Wait awaitReply(std::vector<std::uint8_t>& reply, std::optional<std::chrono::steady_clock::time_point> deadline);
    /// Marks the channel dead (the device process is gone) and wakes its waiter.
    void markDead();
    /// Makes it idle again for a new device process.
    void reset();
    /// Tells the device's thread to end.
    void close();

    // Device side.
    /// Waits for a request (copied into `request`); false when the channel was closed.
    bool awaitRequest(std::vector<std::uint8_t>& request);
    /// Writes the reply and wakes the host. A reply that does not fit is cut to nothing
    /// (the host reads an empty reply as a failure).
    void reply(const std::vector<std::uint8_t>& reply);

private:
    Channel(int file, void* memory) : file_(file), memory_(memory) {}
    ChannelHeader& header() const { return *static_cast<ChannelHeader*>(memory_); }
    std::uint8_t* payload() const;

    int file_ = -1;
    void* memory_ = nullptr;
};

} // namespace metalcpu::iso
