#include "isolation/device_program.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

// The bytes of the device program (src/device), built before this file and embedded as
// read-only data; METALCPU_DEVICE_PROGRAM is its path.
asm(".pushsection .rodata.metalcpu_device_program, \"a\"\n"
    ".balign 64\n"
    ".global metalcpu_device_program_begin\n"
    ".hidden metalcpu_device_program_begin\n"
    "metalcpu_device_program_begin:\n"
    ".incbin \"" METALCPU_DEVICE_PROGRAM "\"\n"
    ".global metalcpu_device_program_end\n"
    ".hidden metalcpu_device_program_end\n"
    "metalcpu_device_program_end:\n"
    ".popsection\n");
extern "C" const unsigned char metalcpu_device_program_begin[];
extern "C" const unsigned char metalcpu_device_program_end[];

namespace metalcpu::iso {

int deviceProgramFile(std::string* why) {
    static std::mutex mutex;
    static int file = -1;
    static std::string failure;
    std::lock_guard lock(mutex);
    if (file >= 0) return file;
    if (!failure.empty()) {
        *why = failure;
        return -1;
    }
    const auto size = static_cast<std::size_t>(metalcpu_device_program_end - metalcpu_device_program_begin);
    const int made = memfd_create("metalcpu-device", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    bool written = made >= 0;
    for (std::size_t done = 0; written && done < size;) {
        const ssize_t n = write(made, metalcpu_device_program_begin + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        written = n > 0;
        if (written) done += static_cast<std::size_t>(n);
    }
    // Sealed, so that nothing can change the program between two starts.
    if (!written || fcntl(made, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
        failure = std::string("writing the device program into memory: ") + std::strerror(errno);
        if (made >= 0) close(made);
        *why = failure;
        return -1;
    }
    file = made;
    return file;
}

} // namespace metalcpu::iso
