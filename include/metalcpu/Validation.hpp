// metalcpu's shader-validation reports, for programs and tests that want them as data.
//
// With MTL_SHADER_VALIDATION=1 (or a pipeline whose descriptor enables shader validation),
// every invalid load or store a kernel makes is reported in Apple's words and contained.
// Besides the text (stderr with MTL_SHADER_VALIDATION_REPORT_TO_STDERR=1, the library's log,
// an optional JSON-lines file), each report is delivered as a ShaderValidationReport to the
// installed sinks. <metalcpu/ValidationTesting.hpp> builds GoogleTest helpers on this.
// docs/validation.md describes the whole layer.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace metalcpu::validation {

/// What went wrong.
enum class ReportKind {
    OutOfBounds, ///< outside the range bound to the buffer or threadgroup memory it came from
    NullBuffer,  ///< through a buffer argument with nothing bound
    WildPointer, ///< an address outside every allocation ("Out of bounds of user address space")
    /// Beyond Apple (METALCPU_SHADER_VALIDATION_CHECKS=races): two threads of one threadgroup
    /// touched the same threadgroup-memory byte, at least one storing, not both atomically,
    /// with no threadgroup barrier between them (in different SIMD-groups) or no SIMD-group
    /// synchronisation either (in one SIMD-group: `other.sameSimdgroup`). `other` is the
    /// earlier access of the pair.
    ThreadgroupRace,
    /// Beyond Apple (METALCPU_SHADER_VALIDATION_CHECKS=uninitialized): a load of threadgroup
    /// memory no thread of the threadgroup had stored to since the threadgroup started.
    UninitializedLoad,
    /// METALCPU_SHADER_VALIDATION_CHECKS=barriers: threads of one threadgroup waited at
    /// different threadgroup barriers in the same round (a GPU hangs or pairs them wrongly).
    BarrierDivergence,
    /// METALCPU_SHADER_VALIDATION_CHECKS=barriers: threads of a threadgroup waited at a
    /// barrier that the group's other threads had returned from the kernel without reaching
    /// (`if (i >= n) return;` before a barrier). Undefined in Metal; some GPUs count the
    /// returned threads as arrived, others hang (docs/validation.md).
    BarrierAfterReturn,
    /// A [[texture(n)]] argument with nothing bound ("Null texture access"), reported when the
    /// dispatch is encoded, at the argument's declaration (Apple's shader validation reports it
    /// when the kernel touches the texture).
    NullTexture,
    /// A [[texture(n)]] argument bound to a texture whose usage lacks what the argument's
    /// access needs (MTLTextureUsageShaderRead/ShaderWrite), reported as NullTexture is.
    TextureUsage,
    /// METALCPU_SHADER_VALIDATION_CHECKS=barriers: threads of one SIMD-group waited at a
    /// `simdgroup_barrier` while other threads of that SIMD-group, which had not returned,
    /// were elsewhere (another barrier, a SIMD-group function). Metal asks every active thread
    /// of the SIMD-group to reach it (docs/validation.md).
    SimdgroupBarrierDivergence,
    /// Beyond Apple (METALCPU_SHADER_VALIDATION_CHECKS=hazards): device memory one dispatch
    /// stored to and a later dispatch of the same encoder touched (or the reverse: a store to
    /// bytes an earlier one loaded), not both atomically, with no barrier between the two
    /// where a GPU may run them at once: a compute encoder of MTL::DispatchTypeConcurrent
    /// without memoryBarrier, or a Metal 4 compute encoder without
    /// barrierAfterEncoderStages(MTL::StageDispatch, MTL::StageDispatch, ...).
    /// `otherDispatch` is the earlier dispatch; `other.access` and `other.atomic` its access.
    DispatchHazard,
};

enum class AddressSpace { Device, Constant, Threadgroup };

enum class Access { Load, Store };

/// Lower-case names, as in the JSON form: "out-of-bounds", "null-buffer", "wild-pointer",
/// "threadgroup-race", "uninitialized-load", "barrier-divergence", "barrier-after-return",
/// "null-texture", "texture-usage",
/// "simdgroup-barrier-divergence", "dispatch-hazard";
/// "device", "constant", "threadgroup"; "load", "store".
const char* name(ReportKind kind);
const char* name(AddressSpace space);
const char* name(Access access);

struct Position {
    std::uint32_t x = 0, y = 0, z = 0;
    bool operator==(const Position& other) const { return x == other.x && y == other.y && z == other.z; }
};

/// Where in the kernel source the access is written.
struct SourceLocation {
    std::string file;     ///< "program_source" for source strings, else the .metal path
    std::string function; ///< the function the access is in, as written (no template arguments)
    std::uint32_t line = 0, column = 0;
};

/// How GoogleTest prints them (it finds PrintTo by argument-dependent lookup), declared with
/// the types so that every file prints them alike, whatever it includes: a kind, space or
/// access by its name, a position as "(x, y, z)", a report as its text on a new line.
void PrintTo(ReportKind kind, std::ostream* out);
void PrintTo(AddressSpace space, std::ostream* out);
void PrintTo(Access access, std::ostream* out);
void PrintTo(const Position& position, std::ostream* out);

/// One invalid access: of the `count` made at the same site in one dispatch, the one of the
/// thread that comes first in dispatch order (lowest threadgroup, then lowest thread in it),
/// the same in every run whatever order the threadgroups ran in.
struct ShaderValidationReport {
    ReportKind kind = ReportKind::OutOfBounds;
    AddressSpace addressSpace = AddressSpace::Device;
    Access access = Access::Load;
    std::uint64_t offset = 0; ///< bytes from the start of the buffer (or threadgroup allocation)
    std::uint64_t size = 0;   ///< bytes the access touches

    bool hasBuffer = false;       ///< false for threadgroup memory
    std::string bufferLabel;      ///< "<unnamed>", "<nil>" or "Out of bounds of user address space" when fitting
    std::uint64_t bufferLength = 0;
    std::int32_t bindingIndex = -1; ///< [[buffer(n)]] or [[threadgroup(n)]]; -1 when not reached through one
    std::string argumentName;       ///< the kernel parameter the pointer came from, when known

    std::string kernel;        ///< the kernel function's name (its [[host_name]] if it has one)
    /// The kernel function as Apple's frames name it: "sum_sincos<float>" for an explicit
    /// instantiation of a kernel template, else the function's name; empty when not known.
    /// The frame of an access in the kernel's own body prints it.
    std::string kernelFrameName;
    std::string pipelineLabel; ///< empty when the pipeline has no label
    /// The pipeline's Shader Validation UID: the same for the same library and function in
    /// every run, so it can be pasted into MTL_SHADER_VALIDATION_ENABLE_PIPELINES or
    /// _DISABLE_PIPELINES (MTL_SHADER_VALIDATION_DUMP_PIPELINES=1 lists every pipeline's).
    std::string pipelineUid;
    std::string encoderLabel;  ///< the encoder's label, else its index in the command buffer
    std::uint64_t dispatchIndex = 0; ///< which dispatch of its encoder
    /// Its command buffer's place among those the process committed: 1 for the first, and so
    /// on (0 when not known). Compared with commandBuffersCommitted() taken at some moment, it
    /// tells work committed before that moment from work committed after.
    std::uint64_t commandBufferIndex = 0;

    Position threadPositionInGrid;
    Position threadPositionInThreadgroup;
    Position threadgroupPositionInGrid;
    SourceLocation location;
    std::uint64_t count = 1; ///< times this site made this invalid access in the dispatch

    /// ReportKind::ThreadgroupRace: the other access of the pair, made first, by another thread
    /// of the same threadgroup (threadgroupPositionInGrid).
    struct OtherAccess {
        Access access = Access::Load;
        bool atomic = false;
        Position threadPositionInGrid;
        Position threadPositionInThreadgroup;
        SourceLocation location;
        /// The other thread is in the same SIMD-group, and no SIMD-group synchronisation
        /// (`simdgroup_barrier`, a SIMD-group function) nor threadgroup barrier is between the
        /// two accesses; else it is in another SIMD-group, with no threadgroup barrier between.
        bool sameSimdgroup = false;
    };
    OtherAccess other;
    /// ReportKind::DispatchHazard: the earlier dispatch of the pair, in the same encoder.
    struct OtherDispatch {
        std::uint64_t dispatchIndex = 0; ///< which dispatch of the encoder
        std::string kernel;              ///< its kernel function's name
    };
    OtherDispatch otherDispatch;
    /// A race: "write-write" when both accesses store, else "read-write". A dispatch hazard:
    /// "read-after-write", "write-after-read" or "write-after-write" (the earlier dispatch's
    /// access first). Empty for other kinds.
    const char* raceKind() const;
    /// Barrier reports (BarrierDivergence, BarrierAfterReturn, SimdgroupBarrierDivergence):
    /// `location` is the barrier, the thread positions are the first thread of the group (of
    /// the SIMD-group, for a SIMD-group barrier) that was not at it, and
    /// `threadgroupPositionInGrid` the first group, in dispatch order, in which it happened; `count` says in how
    /// many groups. Only a group's first divergent round is reported: the rounds after it
    /// follow from it.
    struct BarrierRound {
        std::uint32_t threads = 0;   ///< in that group
        std::uint32_t reached = 0;   ///< of them at this barrier
        std::uint32_t elsewhere = 0; ///< at other barriers
        std::uint32_t returned = 0;  ///< returned from the kernel without reaching it
        SourceLocation other;        ///< the first other barrier (line 0: none)
    };
    BarrierRound barrier;
    /// TextureUsage: the bound texture's MTLTextureUsage and the usage the argument's access
    /// needs (bindingIndex is the [[texture(n)]] index for both texture kinds).
    struct TextureUse {
        std::uint64_t usage = 0;
        std::uint64_t needed = 0;
    };
    TextureUse texture;

    /// Apple's report text (`Invalid device store at offset 4, executing kernel function:
    /// "f"` and the lines that follow), then metalcpu's additions, one per line.
    std::string text() const;
    /// The report as one line of JSON.
    std::string json() const;
};

void PrintTo(const ShaderValidationReport& report, std::ostream* out);

/// Receives reports when a dispatch with reports finishes, on the thread that ran it.
class ReportSink {
public:
    virtual ~ReportSink();
    virtual void report(const ShaderValidationReport& report) = 0;
};

/// How a sink takes part in the delivery of a report.
enum class SinkRole {
    Observer, ///< receives every report (logging, counting)
    /// Receives every report and answers for it: a test that expects reports
    /// (ValidationReportCollector) or fails on them itself (FailOnValidationReports).
    Owner,
    /// Receives only the reports no Owner received: the GoogleTest listener, which fails the
    /// running test on reports nobody expected.
    Fallback,
};

/// Installs and removes a sink (not owned). Thread-safe. A sink removed receives nothing
/// more; removeReportSink returns only after deliveries to it on other threads have finished,
/// except when it is called from inside a report() (any sink's, on this thread): it then
/// returns at once, so a sink may remove itself or others while it handles a report.
void addReportSink(ReportSink* sink, SinkRole role = SinkRole::Observer);
void removeReportSink(ReportSink* sink);

/// Whether shader validation is on for the process (MTL_SHADER_VALIDATION).
bool shaderValidationEnabled();

/// What to change when kernels ran without shader validation, for a person: "Run with
/// MTL_SHADER_VALIDATION=1" while it is off; with it on, which of Apple's switches left the
/// pipelines out (MTL_SHADER_VALIDATION_DEFAULT_STATE=none, ..._DISABLE_PIPELINES) or that
/// their descriptors disabled it.
std::string whyDispatchesWereNotValidated();

/// Kernel dispatches the process has run so far: all of them, and those whose pipeline has
/// shader validation. A test that ran kernels, none of them validated, checked nothing.
struct DispatchCounts {
    std::uint64_t total = 0;
    std::uint64_t validated = 0;
};
DispatchCounts dispatchCounts();

/// How many command buffers the process has committed so far.
std::uint64_t commandBuffersCommitted();

/// API validation's reports that let the program go on (MTL_DEBUG_LAYER=1 with
/// MTL_DEBUG_LAYER_ERROR_MODE=nslog): how many the process has made so far. In that mode the
/// call a report names is dropped or goes on as documented (docs/validation-api.md), so a
/// dispatch it dropped is never seen by shader validation; the GoogleTest listener fails the
/// test that made one.
std::uint64_t apiValidationReportCount();

/// The texts of the reports made after the first `count` (a value apiValidationReportCount()
/// returned earlier, or `next` of an earlier call), in order, as the layer printed them. Only the
/// latest 256 are kept; a line says how many earlier ones were not. `next`, when given, is the
/// count the returned texts reach: the `count` of the next call, so that a report made meanwhile
/// on another thread is neither lost nor returned twice.
std::vector<std::string> apiValidationReportsSince(std::uint64_t count, std::uint64_t* next = nullptr);

/// Waits until every command buffer committed in the process before the call has completed:
/// its dispatches ran, their reports were delivered, its completed handlers returned. On a
/// command queue's thread (in a completed handler or a sink) it returns at once, since it
/// would wait for itself there. A command buffer that cannot run — committed behind one that
/// was enqueue()d and never committed — is waited for forever, as waitUntilCompleted() would.
void waitForPendingWork();

/// How the GoogleTest helpers (<metalcpu/ValidationTesting.hpp>) wait for a test's work:
/// waitForPendingWork(), bounded. When it has waited 5 s (or half the limit, if that is
/// shorter) it prints `[ WAITING  ] <who> waits for ...` on stdout, naming how many command
/// buffers are pending; after METALCPU_SHADER_VALIDATION_WAIT_LIMIT seconds (60 by default; 0:
/// no limit) it gives up and returns why, for the caller to fail the test with. Empty when
/// everything completed. Command buffers it gave up on are not waited for by later calls, so
/// one that never completes fails one test, not every test after it.
std::string waitForPendingWorkOrGiveUp(const std::string& who);

} // namespace metalcpu::validation
