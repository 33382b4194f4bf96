#include "isolation/dispatch_messages.h"

#include "isolation/wire.h"
#include "validation/allocations.h"

#include <cstdio>

namespace metalcpu::iso {
namespace {

using validation::ShaderValidationReport;

/// Enumerations travel as their values; a value outside the enumeration fails the message.
template <typename Enum>
Enum enumeration(Reader& in, Enum last) {
    const auto raw = in.value<std::uint32_t>();
    if (raw > static_cast<std::uint32_t>(last)) in.fail();
    return static_cast<Enum>(raw > static_cast<std::uint32_t>(last) ? 0 : raw);
}

void writePosition(Writer& out, const validation::Position& p) {
    out.value(p.x);
    out.value(p.y);
    out.value(p.z);
}
validation::Position readPosition(Reader& in) {
    validation::Position p;
    p.x = in.value<std::uint32_t>();
    p.y = in.value<std::uint32_t>();
    p.z = in.value<std::uint32_t>();
    return p;
}

void writeReport(Writer& out, const ShaderValidationReport& r) {
    out.value(static_cast<std::uint32_t>(r.kind));
    out.value(static_cast<std::uint32_t>(r.addressSpace));
    out.value(static_cast<std::uint32_t>(r.access));
    out.value(r.offset);
    out.value(r.size);
    out.value(static_cast<std::uint8_t>(r.hasBuffer));
    out.string(r.bufferLabel);
    out.value(r.bufferLength);
    out.value(r.bindingIndex);
    out.string(r.argumentName);
    out.string(r.kernel);
    out.string(r.kernelFrameName);
    out.string(r.pipelineLabel);
    out.string(r.pipelineUid);
    out.string(r.encoderLabel);
    out.value(r.dispatchIndex);
    out.value(r.commandBufferIndex);
    writePosition(out, r.threadPositionInGrid);
    writePosition(out, r.threadPositionInThreadgroup);
    writePosition(out, r.threadgroupPositionInGrid);
    out.string(r.location.file);
    out.string(r.location.function);
    out.value(r.location.line);
    out.value(r.location.column);
    out.value(r.count);
    out.value(static_cast<std::uint32_t>(r.other.access));
    out.value(static_cast<std::uint8_t>(r.other.atomic));
    out.value(static_cast<std::uint8_t>(r.other.sameSimdgroup));
    writePosition(out, r.other.threadPositionInGrid);
    writePosition(out, r.other.threadPositionInThreadgroup);
    out.string(r.other.location.file);
    out.string(r.other.location.function);
    out.value(r.other.location.line);
    out.value(r.other.location.column);
    out.value(r.barrier.threads);
    out.value(r.barrier.reached);
    out.value(r.barrier.elsewhere);
    out.value(r.barrier.returned);
    out.string(r.barrier.other.file);
    out.value(r.barrier.other.line);
    out.value(r.barrier.other.column);
    out.value(r.otherDispatch.dispatchIndex);
    out.string(r.otherDispatch.kernel);
}

ShaderValidationReport readReport(Reader& in) {
    ShaderValidationReport r;
    r.kind = enumeration(in, validation::ReportKind::DispatchHazard); // the last kind
    r.addressSpace = enumeration(in, validation::AddressSpace::Threadgroup);
    r.access = enumeration(in, validation::Access::Store);
    r.offset = in.value<std::uint64_t>();
    r.size = in.value<std::uint64_t>();
    r.hasBuffer = in.value<std::uint8_t>() != 0;
    r.bufferLabel = in.string();
    r.bufferLength = in.value<std::uint64_t>();
    r.bindingIndex = in.value<std::int32_t>();
    r.argumentName = in.string();
    r.kernel = in.string();
    r.kernelFrameName = in.string();
    r.pipelineLabel = in.string();
    r.pipelineUid = in.string();
    r.encoderLabel = in.string();
    r.dispatchIndex = in.value<std::uint64_t>();
    r.commandBufferIndex = in.value<std::uint64_t>();
    r.threadPositionInGrid = readPosition(in);
    r.threadPositionInThreadgroup = readPosition(in);
    r.threadgroupPositionInGrid = readPosition(in);
    r.location.file = in.string();
    r.location.function = in.string();
    r.location.line = in.value<std::uint32_t>();
    r.location.column = in.value<std::uint32_t>();
    r.count = in.value<std::uint64_t>();
    r.other.access = enumeration(in, validation::Access::Store);
    r.other.atomic = in.value<std::uint8_t>() != 0;
    r.other.sameSimdgroup = in.value<std::uint8_t>() != 0;
    r.other.threadPositionInGrid = readPosition(in);
    r.other.threadPositionInThreadgroup = readPosition(in);
    r.other.location.file = in.string();
    r.other.location.function = in.string();
    r.other.location.line = in.value<std::uint32_t>();
    r.other.location.column = in.value<std::uint32_t>();
    r.barrier.threads = in.value<std::uint32_t>();
    r.barrier.reached = in.value<std::uint32_t>();
    r.barrier.elsewhere = in.value<std::uint32_t>();
    r.barrier.returned = in.value<std::uint32_t>();
    r.barrier.other.file = in.string();
    r.barrier.other.line = in.value<std::uint32_t>();
    r.barrier.other.column = in.value<std::uint32_t>();
    r.otherDispatch.dispatchIndex = in.value<std::uint64_t>();
    r.otherDispatch.kernel = in.string();
    return r;
}

constexpr char kAllocationMarker[] = "\x01metalcpu-allocation:";

/// The host's label for the allocation a marker names; the marker itself when there is none.
std::string hostLabel(const std::string& label) {
    constexpr std::size_t markerLength = sizeof kAllocationMarker - 1;
    if (label.compare(0, markerLength, kAllocationMarker) != 0) return label;
    unsigned long long begin = 0;
    if (std::sscanf(label.c_str() + markerLength, "%llx", &begin) != 1) return "<unnamed>";
    auto allocation = val::AllocationRegistry::shared().find(begin);
    if (!allocation || allocation->begin != begin || !allocation->label) return "<unnamed>";
    return allocation->label();
}

} // namespace

std::string allocationLabel(std::uint64_t begin) {
    char text[64];
    std::snprintf(text, sizeof text, "%s%llx", kAllocationMarker, static_cast<unsigned long long>(begin));
    return text;
}

// ---- Requests --------------------------------------------------------------------------

std::vector<std::uint8_t> encodeDispatch(const DispatchMessage& message) {
    const exec::Dispatch& d = *message.dispatch;
    Writer out;
    out.value(message.tag);
    out.value(message.library);
    out.string(d.kernelName);
    out.value(d.parameters); // its texture and sampler pointers are replaced on arrival
    for (int i = 0; i < 3; ++i) out.value(d.threadgroups[i]);
    for (int i = 0; i < 3; ++i) out.value(d.gridThreads[i]);
    for (std::uint64_t length : d.threadgroupArgumentLengths) out.value(length);
    out.value(d.threadgroupMemoryLimit);

    std::uint64_t textures = 0, samplers = 0, tensors = 0;
    for (const mc_texture* t : d.parameters.textures) textures += t != nullptr;
    for (const mc_sampler* s : d.parameters.samplers) samplers += s != nullptr;
    for (int i = 0; i < METALCPU_MAX_BUFFER_BINDINGS; ++i)
        for (const mc_tensor& tensor : d.tensors) tensors += d.parameters.buffers[i] == &tensor;
    out.value(textures);
    for (std::uint32_t i = 0; i < METALCPU_MAX_TEXTURE_BINDINGS; ++i)
        if (d.parameters.textures[i]) {
            out.value(i);
            out.value(*d.parameters.textures[i]);
        }
    out.value(samplers);
    for (std::uint32_t i = 0; i < METALCPU_MAX_SAMPLER_BINDINGS; ++i)
        if (d.parameters.samplers[i]) {
            out.value(i);
            out.value(*d.parameters.samplers[i]);
        }
    out.value(tensors);
    for (std::uint32_t i = 0; i < METALCPU_MAX_BUFFER_BINDINGS; ++i)
        for (const mc_tensor& tensor : d.tensors)
            if (d.parameters.buffers[i] == &tensor) {
                out.value(i);
                out.value(tensor);
            }

    out.value(static_cast<std::uint8_t>(message.validation != nullptr));
    if (const val::DispatchValidation* v = message.validation) {
        const val::DispatchInfo& info = v->info();
        out.string(info.kernel);
        out.string(info.kernelFrameName);
        out.string(info.pipelineLabel);
        out.string(info.pipelineUid);
        out.string(info.encoderLabel);
        out.value(info.dispatchIndex);
        out.value(info.concurrentSpan);
        out.value(message.commandBufferIndex);
        out.value(static_cast<std::uint32_t>(v->purpose()));
        const val::ShaderValidationSettings& settings = v->settings();
        out.value(static_cast<std::uint32_t>(settings.failMode));
        out.value(static_cast<std::uint8_t>(settings.globalMemory));
        out.value(static_cast<std::uint8_t>(settings.threadgroupMemory));
        out.value(static_cast<std::uint8_t>(settings.extraChecks.races | settings.extraChecks.uninitialized << 1 |
                                            settings.extraChecks.barriers << 2 | settings.extraChecks.hazards << 3));
        out.value(static_cast<std::uint64_t>(v->bindings().size()));
        for (const val::BufferBinding& b : v->bindings()) {
            out.value(b.index);
            out.string(b.argumentName);
            out.value(static_cast<std::uint32_t>(b.space));
            out.value(static_cast<std::uint8_t>(b.bound));
            out.value(b.boundAddress);
            out.value(b.resourceBegin);
            out.value(b.resourceLength);
            out.string(b.label);
        }
    }
    out.value(static_cast<std::uint8_t>(message.log.has_value()));
    if (message.log) {
        out.value(message.log->minimumLevel);
        out.value(message.log->capacity);
    }
    return std::move(out.bytes());
}

std::unique_ptr<ReceivedDispatch> decodeDispatch(const std::vector<std::uint8_t>& bytes) {
    Reader in(bytes);
    auto received = std::make_unique<ReceivedDispatch>();
    exec::Dispatch& d = received->dispatch;
    received->tag = in.value<std::uint64_t>();
    received->library = in.value<LibraryId>();
    received->kernel = in.string();
    d.kernelName = received->kernel;
    d.parameters = in.value<mc_dispatch>();
    for (std::uint32_t& t : d.threadgroups) t = in.value<std::uint32_t>();
    for (std::uint32_t& t : d.gridThreads) t = in.value<std::uint32_t>();
    for (std::uint64_t& length : d.threadgroupArgumentLengths) length = in.value<std::uint64_t>();
    d.threadgroupMemoryLimit = in.value<std::uint64_t>();

    // Pointers of the host's heap: what they pointed at comes next.
    for (const mc_texture*& t : d.parameters.textures) t = nullptr;
    for (const mc_sampler*& s : d.parameters.samplers) s = nullptr;
    const std::uint64_t textures = in.count(sizeof(std::uint32_t) + sizeof(mc_texture));
    received->textures.reserve(textures);
    for (std::uint64_t n = 0; n < textures && in.ok(); ++n) {
        const auto index = in.value<std::uint32_t>();
        received->textures.push_back(in.value<mc_texture>());
        if (index >= METALCPU_MAX_TEXTURE_BINDINGS) return nullptr;
        d.parameters.textures[index] = &received->textures.back();
    }
    const std::uint64_t samplers = in.count(sizeof(std::uint32_t) + sizeof(mc_sampler));
    received->samplers.reserve(samplers);
    for (std::uint64_t n = 0; n < samplers && in.ok(); ++n) {
        const auto index = in.value<std::uint32_t>();
        received->samplers.push_back(in.value<mc_sampler>());
        if (index >= METALCPU_MAX_SAMPLER_BINDINGS) return nullptr;
        d.parameters.samplers[index] = &received->samplers.back();
    }
    const std::uint64_t tensors = in.count(sizeof(std::uint32_t) + sizeof(mc_tensor));
    d.tensors.reserve(tensors);
    for (std::uint64_t n = 0; n < tensors && in.ok(); ++n) {
        const auto index = in.value<std::uint32_t>();
        d.tensors.push_back(in.value<mc_tensor>());
        if (index >= METALCPU_MAX_BUFFER_BINDINGS) return nullptr;
        d.parameters.buffers[index] = &d.tensors.back();
    }

    if (in.value<std::uint8_t>()) {
        val::DispatchInfo info;
        info.kernel = in.string();
        info.kernelFrameName = in.string();
        info.pipelineLabel = in.string();
        info.pipelineUid = in.string();
        info.encoderLabel = in.string();
        info.dispatchIndex = in.value<std::uint64_t>();
        info.concurrentSpan = in.value<std::uint64_t>();
        received->commandBufferIndex = in.value<std::uint64_t>();
        const auto purpose = enumeration(in, val::DispatchValidation::Purpose::NullBindingGuard);
        val::ShaderValidationSettings settings;
        settings.enabled = true;
        settings.failMode = enumeration(in, val::FailMode::Allow);
        settings.globalMemory = in.value<std::uint8_t>() != 0;
        settings.threadgroupMemory = in.value<std::uint8_t>() != 0;
        const auto extra = in.value<std::uint8_t>();
        settings.extraChecks.races = extra & 1;
        settings.extraChecks.uninitialized = extra & 2;
        settings.extraChecks.barriers = extra & 4;
        settings.extraChecks.hazards = extra & 8;
        // The host prints and aborts (MTL_SHADER_VALIDATION_ABORT_ON_FAULT) once it has the
        // reports; the device process never stops for it.
        settings.abortOnFault = false;
        std::vector<val::BufferBinding> bindings(in.count(48));
        for (val::BufferBinding& b : bindings) {
            b.index = in.value<std::uint32_t>();
            b.argumentName = in.string();
            b.space = enumeration(in, validation::AddressSpace::Threadgroup);
            b.bound = in.value<std::uint8_t>() != 0;
            b.boundAddress = in.value<std::uint64_t>();
            b.resourceBegin = in.value<std::uint64_t>();
            b.resourceLength = in.value<std::uint64_t>();
            b.label = in.string();
            if (b.index >= METALCPU_MAX_BUFFER_BINDINGS) in.fail();
        }
        if (!in.ok()) return nullptr;
        received->validation = std::make_unique<val::DispatchValidation>(std::move(info), std::move(bindings),
                                                                         std::move(settings), purpose);
    }
    if (in.value<std::uint8_t>()) {
        const auto level = in.value<std::uint32_t>();
        const auto capacity = in.value<std::uint64_t>();
        received->log = std::make_unique<exec::ShaderLog>(level, capacity);
    }
    if (!in.atEnd()) return nullptr;
    d.observer = received->validation.get();
    d.log = received->log.get();
    return received;
}

// ---- Replies ---------------------------------------------------------------------------

std::vector<std::uint8_t> encodeOutcome(const DispatchOutcome& outcome) {
    Writer out;
    out.value(static_cast<std::uint8_t>(outcome.result.ok));
    out.string(outcome.result.error);
    out.value(static_cast<std::uint8_t>(outcome.validated));
    if (outcome.validated) {
        out.value(static_cast<std::uint64_t>(outcome.findings.reports.size()));
        for (const ShaderValidationReport& report : outcome.findings.reports) writeReport(out, report);
        out.value(outcome.findings.droppedSites);
        out.value(static_cast<std::uint8_t>(outcome.pageFaulted));
    }
    out.value(static_cast<std::uint64_t>(outcome.log.size()));
    for (const exec::ShaderLogMessage& message : outcome.log) {
        out.value(message.level);
        out.string(message.subsystem);
        out.string(message.category);
        out.string(message.text);
    }
    out.value(outcome.logDropped);
    return std::move(out.bytes());
}

std::optional<DispatchOutcome> decodeOutcome(const std::vector<std::uint8_t>& bytes, std::uint64_t logCapacity) {
    Reader in(bytes);
    DispatchOutcome outcome;
    outcome.result.ok = in.value<std::uint8_t>() != 0;
    outcome.result.error = in.string();
    outcome.validated = in.value<std::uint8_t>() != 0;
    if (outcome.validated) {
        // A report takes at least its fixed-size fields.
        const std::uint64_t reports = in.count(100);
        if (reports > kMaxOutcomeReports) return std::nullopt;
        outcome.findings.reports.resize(reports);
        for (ShaderValidationReport& report : outcome.findings.reports) {
            report = readReport(in);
            report.bufferLabel = hostLabel(report.bufferLabel);
        }
        outcome.findings.droppedSites = in.value<std::uint64_t>();
        outcome.pageFaulted = in.value<std::uint8_t>() != 0;
    }
    // Each kept message takes at least a byte of the log's capacity, or it is an empty one:
    // either way no more than the capacity fit.
    const std::uint64_t messages = in.count(28);
    if (messages > logCapacity) return std::nullopt;
    outcome.log.resize(messages);
    for (exec::ShaderLogMessage& message : outcome.log) {
        message.level = in.value<std::uint32_t>();
        message.subsystem = in.string();
        message.category = in.string();
        message.text = in.string();
    }
    outcome.logDropped = in.value<std::uint64_t>();
    if (!in.atEnd()) return std::nullopt;
    return outcome;
}

} // namespace metalcpu::iso
