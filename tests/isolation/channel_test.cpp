#include "isolation/channel.h"

#include <gtest/gtest.h>

#include <thread>
#include <unistd.h>

namespace metalcpu::iso {
namespace {

/// The device's end of `host`: the same memory file, mapped again (nullopt, with a failure
/// recorded, when it cannot be).
std::optional<Channel> deviceEnd(const Channel& host) {
    std::string why;
    std::optional<Channel> device = Channel::attach(dup(host.file()), &why);
    EXPECT_TRUE(device) << why;
    return device;
}

std::vector<std::uint8_t> bytes(const std::string& text) { return {text.begin(), text.end()}; }

// Test that requests and replies go back and forth, many times, with payloads of every size
// from none to a megabyte.
TEST(Channel, RequestsAndRepliesAlternate) {
    std::string why;
    std::optional<Channel> host = Channel::create(&why);
    ASSERT_TRUE(host) << why;
    std::optional<Channel> attached = deviceEnd(*host);
    ASSERT_TRUE(attached);
    Channel& device = *attached;
    std::thread server([&] {
        std::vector<std::uint8_t> request;
        while (device.awaitRequest(request)) {
            std::vector<std::uint8_t> reply(request.rbegin(), request.rend());
            device.reply(reply);
        }
    });
    for (std::size_t size : {0u, 1u, 7u, 4096u, 1u << 20}) {
        std::vector<std::uint8_t> request(size);
        for (std::size_t i = 0; i < size; ++i) request[i] = static_cast<std::uint8_t>(i * 7 + size);
        ASSERT_TRUE(host->post(request));
        std::vector<std::uint8_t> reply;
        ASSERT_EQ(host->awaitReply(reply, std::nullopt), Channel::Wait::Reply);
        EXPECT_EQ(reply, std::vector<std::uint8_t>(request.rbegin(), request.rend())) << size;
    }
    for (int i = 0; i < 2000; ++i) {
        ASSERT_TRUE(host->post(bytes(std::to_string(i))));
        std::vector<std::uint8_t> reply;
        ASSERT_EQ(host->awaitReply(reply, std::nullopt), Channel::Wait::Reply);
        std::string text = std::to_string(i);
        ASSERT_EQ(reply, std::vector<std::uint8_t>(text.rbegin(), text.rend()));
    }
    host->close();
    server.join();
}

// Test that a wait ends at its deadline when no reply comes, and that a channel marked dead
// wakes its waiter and refuses new requests until it is reset.
TEST(Channel, DeadlinesAndDeath) {
    std::string why;
    std::optional<Channel> host = Channel::create(&why);
    ASSERT_TRUE(host) << why;
    ASSERT_TRUE(host->post(bytes("nobody answers")));
    std::vector<std::uint8_t> reply;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(host->awaitReply(reply, start + std::chrono::milliseconds(50)), Channel::Wait::TimedOut);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));

    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        host->markDead();
    });
    EXPECT_EQ(host->awaitReply(reply, std::nullopt), Channel::Wait::Dead);
    killer.join();
    EXPECT_FALSE(host->post(bytes("to the dead")));
    host->reset();
    EXPECT_TRUE(host->post(bytes("to the next one")));
}

// Test that a reply written before the channel is marked dead is still read: that dispatch
// finished before its process ended.
TEST(Channel, ReplyBeforeDeathIsKept) {
    std::string why;
    std::optional<Channel> host = Channel::create(&why);
    ASSERT_TRUE(host) << why;
    std::optional<Channel> attached = deviceEnd(*host);
    ASSERT_TRUE(attached);
    Channel& device = *attached;
    ASSERT_TRUE(host->post(bytes("ask")));
    std::vector<std::uint8_t> request;
    ASSERT_TRUE(device.awaitRequest(request));
    device.reply(bytes("done"));
    host->markDead();
    std::vector<std::uint8_t> reply;
    EXPECT_EQ(host->awaitReply(reply, std::nullopt), Channel::Wait::Reply);
    EXPECT_EQ(reply, bytes("done"));
}

// Test that a request larger than the payload is refused rather than cut.
TEST(Channel, OversizedRequestIsRefused) {
    std::string why;
    std::optional<Channel> host = Channel::create(&why);
    ASSERT_TRUE(host) << why;
    EXPECT_FALSE(host->post(std::vector<std::uint8_t>(Channel::kPayloadBytes + 1)));
}

} // namespace
} // namespace metalcpu::iso
