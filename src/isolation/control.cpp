#include "isolation/control.h"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace metalcpu::iso {
namespace {

constexpr std::size_t kMaxDescriptors = 8;

} // namespace

bool sendControl(int socket, const std::vector<std::uint8_t>& message, const std::vector<int>& descriptors) {
    if (message.size() > kMaxControlMessage || descriptors.size() > kMaxDescriptors) {
        errno = EMSGSIZE;
        return false;
    }
    if (descriptors.empty()) {
        // send(), not sendmsg(): a device process's system-call filter lets sendmsg through
        // for no one (its destination is hidden behind a pointer), sendto only without one.
        for (;;) {
            const ssize_t sent = send(socket, message.data(), message.size(), MSG_NOSIGNAL);
            if (sent >= 0) return static_cast<std::size_t>(sent) == message.size();
            if (errno != EINTR) return false;
        }
    }
    iovec part{const_cast<std::uint8_t*>(message.data()), message.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int) * kMaxDescriptors)] = {};
    if (!descriptors.empty()) {
        header.msg_control = space;
        header.msg_controllen = CMSG_SPACE(sizeof(int) * descriptors.size());
        cmsghdr* attached = CMSG_FIRSTHDR(&header);
        attached->cmsg_level = SOL_SOCKET;
        attached->cmsg_type = SCM_RIGHTS;
        attached->cmsg_len = CMSG_LEN(sizeof(int) * descriptors.size());
        std::memcpy(CMSG_DATA(attached), descriptors.data(), sizeof(int) * descriptors.size());
    }
    for (;;) {
        const ssize_t sent = sendmsg(socket, &header, MSG_NOSIGNAL);
        if (sent >= 0) return static_cast<std::size_t>(sent) == message.size();
        if (errno != EINTR) return false;
    }
}

bool receiveControl(int socket, std::vector<std::uint8_t>& message, std::vector<int>& descriptors) {
    message.resize(kMaxControlMessage);
    descriptors.clear();
    iovec part{message.data(), message.size()};
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int) * kMaxDescriptors)] = {};
    header.msg_control = space;
    header.msg_controllen = sizeof space;
    ssize_t received = 0;
    do received = recvmsg(socket, &header, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    if (received <= 0) return false;
    message.resize(static_cast<std::size_t>(received));
    for (cmsghdr* attached = CMSG_FIRSTHDR(&header); attached; attached = CMSG_NXTHDR(&header, attached)) {
        if (attached->cmsg_level != SOL_SOCKET || attached->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (attached->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int descriptor = -1;
            std::memcpy(&descriptor, CMSG_DATA(attached) + i * sizeof(int), sizeof(int));
            descriptors.push_back(descriptor);
        }
    }
    if (header.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        for (int descriptor : descriptors) close(descriptor);
        descriptors.clear();
        return false;
    }
    return true;
}

} // namespace metalcpu::iso
