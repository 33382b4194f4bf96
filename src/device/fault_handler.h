// How a device process meets a fault: a touch of a buffer's pages it has not used yet is let
// through (the pages are mapped on first use), anything else is recorded for the host and
// ends the process, whose host then fails the command buffer with Metal's error.
#pragma once

#include "isolation/fault_record.h"
#include "isolation/shared_arena.h"

#include <cstdint>

namespace metalcpu::device {

/// Installs the handlers of SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS and SIGABRT and
/// gives the calling thread an alternate signal stack. `directory` says which pages of the
/// arena belong to live allocations; `record` is shared with the host.
void installFaultHandlers(const iso::ArenaDirectory* directory, iso::FaultRecord* record);

/// Gives the calling thread an alternate signal stack, so that a kernel that overflows its
/// stack is still caught (every thread that runs kernels calls it first).
void giveThreadSignalStack();

/// Names what the calling thread runs outside a threadgroup (a channel's thread between
/// dispatches): its fault is charged to the dispatch with this tag and kernel.
void setThreadActivity(std::uint64_t tag, const char* kernel);

} // namespace metalcpu::device
