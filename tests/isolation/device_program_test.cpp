// The device program's side of the control protocol, met directly (without DeviceProcess).
#include "isolation/control.h"
#include "isolation/device_program.h"
#include "isolation/wire.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace metalcpu::iso {
namespace {

// Test that a device program refuses the hello of another protocol version, saying so, and
// ends: a program linked with another metalcpu cannot drive it.
TEST(DeviceProgram, RefusesAHelloOfAnotherVersion) {
    std::string why;
    const int program = deviceProgramFile(&why);
    ASSERT_GE(program, 0) << why;
    int sockets[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const int socketAbove = fcntl(sockets[1], F_DUPFD_CLOEXEC, 10);
    const int programAbove = fcntl(program, F_DUPFD_CLOEXEC, 10);
    posix_spawn_file_actions_adddup2(&actions, socketAbove, kControlDescriptor);
    posix_spawn_file_actions_adddup2(&actions, programAbove, kControlDescriptor + 1);
    posix_spawn_file_actions_addclosefrom_np(&actions, kControlDescriptor + 2);
    char name[] = "metalcpu-device";
    char* argv[] = {name, nullptr};
    char* envp[] = {nullptr};
    const std::string path = "/proc/self/fd/" + std::to_string(kControlDescriptor + 1);
    pid_t child = 0;
    ASSERT_EQ(posix_spawn(&child, path.c_str(), &actions, nullptr, argv, envp), 0);
    posix_spawn_file_actions_destroy(&actions);
    for (int descriptor : {sockets[1], socketAbove, programAbove}) close(descriptor);

    Writer hello;
    hello.value(static_cast<std::uint32_t>(ControlRequest::Hello));
    hello.value(kControlProtocolVersion + 1);
    hello.value(std::uint64_t(0x200000000000ull));
    hello.value(std::uint64_t(1) << 20);
    hello.value(std::uint64_t(4096));
    const int files[] = {memfd_create("a", MFD_CLOEXEC), memfd_create("b", MFD_CLOEXEC), memfd_create("c", MFD_CLOEXEC)};
    ASSERT_TRUE(sendControl(sockets[0], hello.bytes(), {files[0], files[1], files[2]}));
    for (int file : files) close(file);
    pollfd wait{sockets[0], POLLIN, 0};
    ASSERT_EQ(poll(&wait, 1, 60000), 1);
    std::vector<std::uint8_t> answer;
    std::vector<int> descriptors;
    ASSERT_TRUE(receiveControl(sockets[0], answer, descriptors));
    Reader in(answer);
    EXPECT_EQ(in.value<std::uint8_t>(), 0) << "it accepted another version";
    (void)in.value<std::int32_t>();
    (void)in.value<std::uint8_t>();
    (void)in.string();
    const std::string failure = in.string();
    EXPECT_TRUE(in.atEnd());
    EXPECT_NE(failure.find("another version"), std::string::npos) << failure;
    close(sockets[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status)) << status;
}

} // namespace
} // namespace metalcpu::iso
