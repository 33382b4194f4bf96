// The hazard check between dispatches (METALCPU_SHADER_VALIDATION_CHECKS=hazards): device
// memory one dispatch stores to and another of the same concurrent span touches. A span is
// what a GPU may run at once: the dispatches of a compute encoder of
// MTL::DispatchTypeConcurrent between two memoryBarrier calls, or of a Metal 4 compute encoder
// between two barrierAfterEncoderStages from and to the dispatch stage. metalcpu runs them
// one after the other, so a missing barrier never shows in the results here; this check
// shows it, whatever order they ran in.
//
// How: per span, a shadow of each buffer its dispatches bound, two words per byte: the
// dispatch of the span that last stored to it and the first that loaded it (its ordinal in
// the span, with a bit for an atomic access). An access that meets another dispatch's store,
// or a store that meets another's load, is a hazard, unless both are atomic. The shadows are
// zeroed memory the operating system maps on first touch, so bytes never touched cost nothing; the
// spans are process-wide (a device process runs many encoders' dispatches) and the eight
// most recent are kept.
#pragma once

#include <metalcpu/Validation.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace metalcpu::val {

struct BufferBinding;
struct DispatchInfo;

/// A fresh span identity for an encoder's dispatches up to its next barrier (never 0, which
/// marks a dispatch no other may overlap: a serial encoder's).
std::uint64_t newConcurrentSpan();

/// One dispatch's part in the check: its place in its span and the shadows of its bindings.
class DispatchHazards {
public:
    /// Joins span `info.concurrentSpan` as its next dispatch, with the shadows of the device
    /// and constant buffers of `bindings`.
    DispatchHazards(const DispatchInfo& info, const std::vector<BufferBinding>& bindings);
    ~DispatchHazards();
    DispatchHazards(const DispatchHazards&) = delete;
    DispatchHazards& operator=(const DispatchHazards&) = delete;

    /// An earlier dispatch's access an access of this one meets.
    struct Conflict {
        const BufferBinding* binding = nullptr; ///< the buffer, as this dispatch bound it
        std::uint64_t offset = 0;               ///< of the access, from the buffer's start
        validation::Access access = validation::Access::Load; ///< this dispatch's side
        validation::Access otherAccess = validation::Access::Store;
        bool otherAtomic = false;
        std::uint64_t otherDispatchIndex = 0; ///< in the encoder
        std::string otherKernel;
    };
    /// Records an access of `size` bytes at `address` (`op`: MC_OP_* bits), made by any thread
    /// of the dispatch; returns the first conflict it has with an earlier dispatch of the span.
    /// Addresses outside every binding (a pointer read from memory) are not watched.
    std::optional<Conflict> access(std::uint64_t address, std::uint64_t size, std::uint32_t op);

private:
    struct Span;
    struct Shadow;
    struct Watched {
        std::uint64_t begin = 0, end = 0;
        Shadow* shadow = nullptr;
        const BufferBinding* binding = nullptr;
    };
    /// The span named `id`, made if new; the eight most recently joined are kept.
    static std::shared_ptr<Span> join(std::uint64_t id);

    std::shared_ptr<Span> span_;
    std::uint32_t ordinal_ = 0; ///< this dispatch's, 1 for the span's first
    std::vector<Watched> watched_;
};

} // namespace metalcpu::val
