// A dispatch as it travels to a device process, and what comes back: the executor's
// exec::Dispatch with its textures, samplers and tensors by value, what the device needs to
// make the dispatch's shader validation and shader log, and in return the result, the
// validation's findings and the logged messages.
#pragma once

#include "exec/dispatch.h"
#include "exec/shader_log.h"
#include "validation/dispatch_validation.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::iso {

/// Which kernel library of the host a dispatch's kernel is in: the number the host gave the
/// library when it sent it to the device process.
using LibraryId = std::uint64_t;

/// What the host sends for one dispatch.
struct DispatchMessage {
    std::uint64_t tag = 0; ///< names the dispatch in the device's fault record
    LibraryId library = 0;
    const exec::Dispatch* dispatch = nullptr;      ///< its kernel is found by name in `library`
    const val::DispatchValidation* validation = nullptr; ///< null: not validated
    std::uint64_t commandBufferIndex = 0;
    /// Shader logging of the dispatch's command buffer; absent: messages are discarded.
    struct Log {
        std::uint32_t minimumLevel = 0;
        std::uint64_t capacity = 0; ///< bytes of messages its log buffer still takes
    };
    std::optional<Log> log;
};
std::vector<std::uint8_t> encodeDispatch(const DispatchMessage& message);

/// The same dispatch, made again in the device process.
struct ReceivedDispatch {
    std::uint64_t tag = 0;
    LibraryId library = 0;
    std::string kernel;
    exec::Dispatch dispatch; ///< kernel to be looked up; textures, samplers and tensors point below
    std::vector<mc_texture> textures;
    std::vector<mc_sampler> samplers;
    std::unique_ptr<val::DispatchValidation> validation;
    std::uint64_t commandBufferIndex = 0;
    std::unique_ptr<exec::ShaderLog> log;
};
/// nullptr when the message is malformed.
std::unique_ptr<ReceivedDispatch> decodeDispatch(const std::vector<std::uint8_t>& bytes);

/// What a dispatch run in a device process produced.
struct DispatchOutcome {
    exec::DispatchResult result;
    bool validated = false;            ///< the dispatch had validation: `findings` and `pageFaulted` hold
    val::DispatchValidation::Findings findings;
    bool pageFaulted = false;
    std::vector<exec::ShaderLogMessage> log;
    std::uint64_t logDropped = 0;
};
std::vector<std::uint8_t> encodeOutcome(const DispatchOutcome& outcome);
/// The most reports a dispatch's validation makes (validation's kMaxSites; the rest are
/// counted in droppedSites).
inline constexpr std::uint64_t kMaxOutcomeReports = 1024;

/// nullopt when the reply is malformed (the device process is not trusted: a kernel may
/// have written anything into it), which includes more reports than kMaxOutcomeReports or
/// more log messages than `logCapacity`, the capacity the request sent (so a forged count
/// cannot make the host allocate more than an honest reply would). Reports whose buffer
/// label the device process could not know are given the host's labels (allocationLabel()).
std::optional<DispatchOutcome> decodeOutcome(const std::vector<std::uint8_t>& bytes, std::uint64_t logCapacity);

/// The label a device process gives a report about an allocation of the host's (an address
/// read from memory): a marker with the allocation's address, which decodeOutcome() replaces
/// with the buffer's label as the host knows it.
std::string allocationLabel(std::uint64_t begin);

} // namespace metalcpu::iso
