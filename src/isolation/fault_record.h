// What a device process leaves behind when a kernel faults: written by its signal handler
// into a page it shares with the host, just before it ends, and read by the host to end the
// faulting command buffer with Metal's error.
#pragma once

#include <atomic>
#include <cstdint>

namespace metalcpu::iso {

struct FaultRecord {
    std::atomic<std::uint32_t> written; ///< 1 once the fields below are complete
    std::int32_t signal;                ///< SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT
    std::int32_t code;                  ///< its si_code
    std::uint32_t stackOverflow;        ///< 1 when the address was just beyond a stack's end
    std::uint64_t address;              ///< si_addr: the address touched, or the instruction
    std::uint64_t instruction;          ///< where the faulting instruction is
    std::uint64_t requestTag;           ///< the dispatch that faulted (0: none was running on that thread)
    std::uint32_t systemCall;           ///< SIGSYS: the system call the filter refused
    std::uint32_t reserved;
    char kernel[256];                   ///< the faulting dispatch's kernel, NUL-terminated
};

/// The size of the memory file holding a FaultRecord.
inline constexpr std::uint64_t kFaultRecordBytes = 4096;
static_assert(sizeof(FaultRecord) <= kFaultRecordBytes);

} // namespace metalcpu::iso
