#include "isolation/channel.h"

#include "support/spin.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace metalcpu::iso {
namespace {

/// The header takes a page of its own; the payload starts after it.
constexpr std::uint64_t kHeaderBytes = 4096;
constexpr std::uint64_t kFileBytes = kHeaderBytes + Channel::kPayloadBytes;

/// How long a waiter spins before it sleeps. A wake-up of a sleeping thread costs 10-20 µs
/// on the virtual machines this runs on; a reply to a short dispatch comes sooner than that.
constexpr auto kHostSpin = std::chrono::microseconds(30);
/// The device's thread spins longer after a reply: the next request of a queue that commits
/// many small command buffers comes right after.
constexpr auto kDeviceSpin = std::chrono::microseconds(100);

/// Futexes on memory shared between processes: not FUTEX_PRIVATE_FLAG.
long futexWait(std::atomic<std::uint32_t>& word, std::uint32_t expected, const timespec* timeout) {
    return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, timeout, nullptr, 0);
}

void futexWake(std::atomic<std::uint32_t>& word) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

std::uint32_t value(ChannelState state) { return static_cast<std::uint32_t>(state); }

/// Stores `state` and wakes the other side if it sleeps. seq_cst on both words, so that a
/// waiter that announces its sleep and then finds the old state is always woken.
void publish(ChannelHeader& header, ChannelState state, std::atomic<std::uint32_t>& otherSleeping) {
    header.state.store(value(state), std::memory_order_seq_cst);
    if (otherSleeping.load(std::memory_order_seq_cst)) futexWake(header.state);
}

/// Waits until `done(state)`, spinning for `spin` first. false when `deadline` passed first.
template <typename Done>
bool waitFor(ChannelHeader& header, std::atomic<std::uint32_t>& sleeping, std::chrono::nanoseconds spin,
             std::optional<std::chrono::steady_clock::time_point> deadline, Done done) {
    using Clock = std::chrono::steady_clock;
    if (support::spinFor(spin, [&] { return done(header.state.load(std::memory_order_acquire)); })) return true;
    for (;;) {
        sleeping.store(1, std::memory_order_seq_cst);
        const std::uint32_t seen = header.state.load(std::memory_order_seq_cst);
        if (done(seen)) {
            sleeping.store(0, std::memory_order_relaxed);
            return true;
        }
        timespec timeout{};
        const timespec* limit = nullptr;
        if (deadline) {
            const auto left = *deadline - Clock::now();
            if (left <= Clock::duration::zero()) {
                sleeping.store(0, std::memory_order_relaxed);
                return false;
            }
            const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
            timeout.tv_sec = static_cast<time_t>(nanoseconds / 1000000000);
            timeout.tv_nsec = static_cast<long>(nanoseconds % 1000000000);
            limit = &timeout;
        }
        futexWait(header.state, seen, limit);
        sleeping.store(0, std::memory_order_relaxed);
    }
}

} // namespace

std::optional<Channel> Channel::create(std::string* why) {
    const int file = memfd_create("metalcpu-channel", MFD_CLOEXEC);
    if (file < 0 || ftruncate(file, static_cast<off_t>(kFileBytes)) != 0) {
        *why = std::string("making a channel: ") + std::strerror(errno);
        if (file >= 0) ::close(file);
        return std::nullopt;
    }
    void* memory = mmap(nullptr, kFileBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, file, 0);
    if (memory == MAP_FAILED) {
        *why = std::string("mapping a channel: ") + std::strerror(errno);
        ::close(file);
        return std::nullopt;
    }
    return Channel(file, memory);
}

std::optional<Channel> Channel::attach(int file, std::string* why) {
    void* memory = mmap(nullptr, kFileBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, file, 0);
    if (memory == MAP_FAILED) {
        *why = std::string("mapping a channel: ") + std::strerror(errno);
        ::close(file);
        return std::nullopt;
    }
    return Channel(file, memory);
}

Channel::Channel(Channel&& other) noexcept : file_(other.file_), memory_(other.memory_) {
    other.file_ = -1;
    other.memory_ = nullptr;
}

Channel& Channel::operator=(Channel&& other) noexcept {
    if (this != &other) {
        this->~Channel();
        new (this) Channel(std::move(other));
    }
    return *this;
}

Channel::~Channel() {
    if (memory_) munmap(memory_, kFileBytes);
    if (file_ >= 0) ::close(file_);
}

std::uint8_t* Channel::payload() const { return static_cast<std::uint8_t*>(memory_) + kHeaderBytes; }

bool Channel::post(const std::vector<std::uint8_t>& request) {
    if (request.size() > kPayloadBytes) return false;
    if (header().state.load(std::memory_order_acquire) == value(ChannelState::Dead)) return false;
    if (!request.empty()) std::memcpy(payload(), request.data(), request.size()); // data() may be null
    header().payloadBytes.store(request.size(), std::memory_order_relaxed);
    // Idle to Request, unless the device process died meanwhile (markDead made it Dead).
    std::uint32_t expected = value(ChannelState::Idle);
    if (!header().state.compare_exchange_strong(expected, value(ChannelState::Request), std::memory_order_seq_cst))
        return false;
    if (header().deviceSleeping.load(std::memory_order_seq_cst)) futexWake(header().state);
    return true;
}

Channel::Wait Channel::awaitReply(std::vector<std::uint8_t>& reply,
                                  std::optional<std::chrono::steady_clock::time_point> deadline) {
    ChannelHeader& shared = header();
    std::uint32_t state = 0;
    const bool arrived = waitFor(shared, shared.hostSleeping, kHostSpin, deadline, [&](std::uint32_t seen) {
        state = seen;
        return seen == value(ChannelState::Reply) || seen == value(ChannelState::Dead);
    });
    if (!arrived) return Wait::TimedOut;
    if (state == value(ChannelState::Dead)) return Wait::Dead;
    // Copied out before it is read: the device process may change shared memory at any time.
    const std::uint64_t bytes = std::min(shared.payloadBytes.load(std::memory_order_relaxed), kPayloadBytes);
    reply.assign(payload(), payload() + bytes);
    // Idle again unless the device died meanwhile (then the next request sees Dead).
    std::uint32_t expected = value(ChannelState::Reply);
    shared.state.compare_exchange_strong(expected, value(ChannelState::Idle));
    return Wait::Reply;
}

void Channel::markDead() {
    // A reply already written stays: that dispatch finished before the process ended.
    std::uint32_t seen = header().state.load(std::memory_order_seq_cst);
    while (seen != value(ChannelState::Reply) && seen != value(ChannelState::Dead) &&
           !header().state.compare_exchange_weak(seen, value(ChannelState::Dead), std::memory_order_seq_cst)) {
    }
    futexWake(header().state);
}

void Channel::reset() { header().state.store(value(ChannelState::Idle), std::memory_order_seq_cst); }

void Channel::close() { publish(header(), ChannelState::Closed, header().deviceSleeping); }

bool Channel::awaitRequest(std::vector<std::uint8_t>& request) {
    ChannelHeader& shared = header();
    std::uint32_t state = 0;
    waitFor(shared, shared.deviceSleeping, kDeviceSpin, std::nullopt, [&](std::uint32_t seen) {
        state = seen;
        return seen == value(ChannelState::Request) || seen == value(ChannelState::Closed) ||
               seen == value(ChannelState::Dead);
    });
    if (state != value(ChannelState::Request)) return false;
    const std::uint64_t bytes = std::min(shared.payloadBytes.load(std::memory_order_relaxed), kPayloadBytes);
    request.assign(payload(), payload() + bytes);
    return true;
}

void Channel::reply(const std::vector<std::uint8_t>& reply) {
    const std::uint64_t bytes = reply.size() <= kPayloadBytes ? reply.size() : 0;
    if (bytes) std::memcpy(payload(), reply.data(), bytes); // data() may be null
    header().payloadBytes.store(bytes, std::memory_order_relaxed);
    publish(header(), ChannelState::Reply, header().hostSleeping);
}

} // namespace metalcpu::iso
