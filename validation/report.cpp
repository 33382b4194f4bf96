// ShaderValidationReport's text (Apple's wording, docs/validation.md) and JSON.
#include <metalcpu/Validation.hpp>

#include <cstdint>
#include <cstdio>
#include <ostream>

namespace metalcpu::validation {
namespace {

const char* spaceWord(AddressSpace space) {
    // Apple prints "device" for the global address spaces (constant included) and
    // "threadgroup" for the rest.
    return space == AddressSpace::Threadgroup ? "threadgroup" : "device";
}

std::string reportedFile(const std::string& file) {
    // Source compiled from a string shows as /program_source in Apple's reports.
    if (file == "program_source") return "/program_source";
    return file;
}

std::string position(const Position& p) {
    return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " + std::to_string(p.z) + ")";
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string jsonPosition(const Position& p) {
    return "[" + std::to_string(p.x) + "," + std::to_string(p.y) + "," + std::to_string(p.z) + "]";
}

/// The function frame #0 names. An access in the kernel's own body is named as Apple names
/// the kernel, with the template arguments of its instantiation; others by their name.
std::string frameFunction(const ShaderValidationReport& r) {
    const std::string& written = r.location.function;
    if (written.empty()) return r.kernelFrameName.empty() ? r.kernel : r.kernelFrameName;
    if (r.kernelFrameName == written || r.kernelFrameName.rfind(written + "<", 0) == 0) return r.kernelFrameName;
    return written;
}

std::string pipelineLine(const ShaderValidationReport& r) {
    return "pipeline: " + (r.pipelineLabel.empty() ? std::string("(null)") : r.pipelineLabel) + ", UID: " +
           r.pipelineUid + " encoder: \"" + r.encoderLabel + "\", dispatch: " + std::to_string(r.dispatchIndex) + "\n";
}

std::string frameLine(const ShaderValidationReport& r) {
    if (r.location.line == 0) return {};
    return "\t* frame #0: " + frameFunction(r) + "() - " + reportedFile(r.location.file) + ":" +
           std::to_string(r.location.line) + ":" + std::to_string(r.location.column) + "\n";
}

bool isBarrierKind(ReportKind kind) {
    return kind == ReportKind::BarrierDivergence || kind == ReportKind::BarrierAfterReturn ||
           kind == ReportKind::SimdgroupBarrierDivergence;
}

/// The barrier-divergence check's reports (docs/validation.md): no Apple wording to follow, so
/// they keep the layout of the others (kernel, pipeline, frame of the barrier).
std::string barrierText(const ShaderValidationReport& r) {
    const ShaderValidationReport::BarrierRound& b = r.barrier;
    const bool simdgroup = r.kind == ReportKind::SimdgroupBarrierDivergence;
    std::string out = std::string(simdgroup                                   ? "SIMD-group barrier divergence"
                                  : r.kind == ReportKind::BarrierDivergence ? "Threadgroup barrier divergence"
                                                                            : "Threadgroup barrier after returned threads") +
                      ", executing kernel function: \"" + r.kernel + "\"\n";
    out += pipelineLine(r) + frameLine(r);
    out += "\tthreadgroup_position_in_grid: " + position(r.threadgroupPositionInGrid) + ": " +
           std::to_string(b.reached) + " of " + std::to_string(b.threads) +
           (simdgroup ? " active threads of the SIMD-group reached this barrier" : " threads reached this barrier");
    if (b.elsewhere > 0) {
        out += ", " + std::to_string(b.elsewhere) + (simdgroup ? " waited elsewhere" : " waited at another");
        if (b.other.line != 0)
            out += " (" + reportedFile(b.other.file) + ":" + std::to_string(b.other.line) + ":" +
                   std::to_string(b.other.column) + ")";
    }
    if (b.returned > 0) out += ", " + std::to_string(b.returned) + " had returned from the kernel";
    out += "\n\tfirst thread not at it: thread_position_in_grid: " + position(r.threadPositionInGrid) +
           ", thread_position_in_threadgroup: " + position(r.threadPositionInThreadgroup) + "\n";
    if (r.count > 1) out += "\tthe same in " + std::to_string(r.count) + " threadgroups of the dispatch\n";
    return out;
}

std::string hexDigits(std::uint64_t value) {
    char digits[17];
    std::snprintf(digits, sizeof digits, "%llx", static_cast<unsigned long long>(value));
    return digits;
}

/// The texture reports, with the first lines of Apple's templates ("Null texture access
/// executing ...", "MTLResourceUsage flags mismatch or missing for texture executing ...");
/// the frame is the argument's declaration.
std::string textureText(const ShaderValidationReport& r) {
    std::string out = std::string(r.kind == ReportKind::NullTexture
                                      ? "Null texture access"
                                      : "MTLResourceUsage flags mismatch or missing for texture") +
                      " executing kernel function: \"" + r.kernel + "\"\n";
    out += pipelineLine(r) + frameLine(r);
    out += "\targument: " + (r.argumentName.empty() ? std::string("<unnamed>") : r.argumentName) + " [[texture(" +
           std::to_string(r.bindingIndex) + ")]]";
    if (r.kind == ReportKind::NullTexture) return out + ": no texture is bound\n";
    const bool write = (r.texture.needed & 2u) && !(r.texture.usage & 2u);
    return out + ": the texture's usage (0x" + hexDigits(r.texture.usage) + ") lacks MTLTextureUsageShader" +
           (write ? "Write (0x2)" : "Read (0x1)") + ", which the argument's access needs\n";
}

} // namespace

const char* name(ReportKind kind) {
    switch (kind) {
    case ReportKind::NullBuffer: return "null-buffer";
    case ReportKind::WildPointer: return "wild-pointer";
    case ReportKind::ThreadgroupRace: return "threadgroup-race";
    case ReportKind::UninitializedLoad: return "uninitialized-load";
    case ReportKind::BarrierDivergence: return "barrier-divergence";
    case ReportKind::BarrierAfterReturn: return "barrier-after-return";
    case ReportKind::NullTexture: return "null-texture";
    case ReportKind::TextureUsage: return "texture-usage";
    case ReportKind::SimdgroupBarrierDivergence: return "simdgroup-barrier-divergence";
    case ReportKind::DispatchHazard: return "dispatch-hazard";
    case ReportKind::OutOfBounds: break;
    }
    return "out-of-bounds";
}

const char* name(AddressSpace space) {
    switch (space) {
    case AddressSpace::Constant: return "constant";
    case AddressSpace::Threadgroup: return "threadgroup";
    case AddressSpace::Device: break;
    }
    return "device";
}

const char* name(Access access) { return access == Access::Store ? "store" : "load"; }

void PrintTo(ReportKind kind, std::ostream* out) { *out << name(kind); }
void PrintTo(AddressSpace space, std::ostream* out) { *out << name(space); }
void PrintTo(Access access, std::ostream* out) { *out << name(access); }
void PrintTo(const Position& p, std::ostream* out) { *out << "(" << p.x << ", " << p.y << ", " << p.z << ")"; }
void PrintTo(const ShaderValidationReport& report, std::ostream* out) { *out << "\n" << report.text(); }

const char* ShaderValidationReport::raceKind() const {
    if (kind == ReportKind::DispatchHazard) {
        if (other.access == Access::Store) return access == Access::Store ? "write-after-write" : "read-after-write";
        return "write-after-read";
    }
    if (kind != ReportKind::ThreadgroupRace) return "";
    return access == Access::Store && other.access == Access::Store ? "write-write" : "read-write";
}

std::string ShaderValidationReport::text() const {
    if (isBarrierKind(kind)) return barrierText(*this);
    if (kind == ReportKind::NullTexture || kind == ReportKind::TextureUsage) return textureText(*this);
    // Apple's first line for its own kinds; the checks beyond Apple's say what they found in
    // the same shape, so that tools matching "at offset N, executing kernel function" still do.
    std::string what = std::string("Invalid ") + spaceWord(addressSpace) + " " + name(access);
    if (kind == ReportKind::ThreadgroupRace)
        what = std::string("Threadgroup memory race (") + raceKind() + "): " + name(access);
    else if (kind == ReportKind::UninitializedLoad)
        what = "Uninitialized threadgroup load";
    else if (kind == ReportKind::DispatchHazard)
        what = std::string("Dispatch hazard (") + raceKind() + "): " + spaceWord(addressSpace) + " " + name(access);
    std::string out = what + " at offset " + std::to_string(offset) + ", executing kernel function: \"" + kernel + "\"\n";
    if (addressSpace != AddressSpace::Threadgroup) {
        // Apple leaves out ", resident:..." where residency is not tracked: with no buffer
        // bound there is nothing resident. A wild pointer's pseudo-buffer keeps it, as in
        // Apple's reports.
        out += "buffer: " + bufferLabel + ", length:" + std::to_string(bufferLength) +
               (kind == ReportKind::NullBuffer ? "" : ", resident:Read Write") + "\n";
    }
    out += pipelineLine(*this) + frameLine(*this);
    // metalcpu's additions.
    out += "\tthread_position_in_grid: " + position(threadPositionInGrid) +
           ", thread_position_in_threadgroup: " + position(threadPositionInThreadgroup) +
           ", threadgroup_position_in_grid: " + position(threadgroupPositionInGrid) + "\n";
    if (bindingIndex >= 0) {
        out += std::string("\targument: ") + (argumentName.empty() ? "<unnamed>" : argumentName) + " [[" +
               (addressSpace == AddressSpace::Threadgroup ? "threadgroup" : "buffer") + "(" +
               std::to_string(bindingIndex) + ")]], " + std::to_string(size) + "-byte " + name(access) + "\n";
    }
    if (kind == ReportKind::ThreadgroupRace) {
        out += std::string("\traces with ") + (other.atomic ? "an atomic " : "a ") + name(other.access) +
               " by thread_position_in_threadgroup: " + position(other.threadPositionInThreadgroup) +
               " (thread_position_in_grid: " + position(other.threadPositionInGrid) + ")";
        if (other.location.line != 0)
            out += " at " + (other.location.function.empty() ? frameFunction(*this) : other.location.function) + "() - " +
                   reportedFile(other.location.file) + ":" + std::to_string(other.location.line) + ":" +
                   std::to_string(other.location.column);
        out += other.sameSimdgroup ? ", in the same SIMD-group, with no simdgroup_barrier, SIMD-group function or "
                                     "threadgroup barrier between them\n"
                                   : ", in another SIMD-group, with no threadgroup barrier between them\n";
    } else if (kind == ReportKind::UninitializedLoad) {
        out += "\tno thread of the threadgroup stored to these bytes since the threadgroup started\n";
    } else if (kind == ReportKind::DispatchHazard) {
        out += "\tdispatch " + std::to_string(otherDispatch.dispatchIndex) + " of the encoder (kernel function: \"" +
               otherDispatch.kernel + "\") " + (other.atomic ? "atomically " : "") +
               (other.access == Access::Store ? "stored to" : "loaded") +
               " these bytes, with no barrier between the two dispatches: a GPU may run them at once\n";
    }
    if (count > 1)
        out += kind == ReportKind::ThreadgroupRace
                   ? "\tthis pair of sites raced " + std::to_string(count) + " times in the dispatch\n"
                   : "\tthis site made " + std::to_string(count) + " such accesses in the dispatch\n";
    // The first line prints the offset as Apple's format does (%llu): one before the start of
    // the region reads as 2^64 less its distance, which this line says in words.
    if (const auto signedOffset = static_cast<std::int64_t>(offset); signedOffset < 0)
        out += "\tthe offset is " + std::to_string(signedOffset) + ": the access starts " +
               std::to_string(0 - offset) + " bytes before the start of the " +
               (addressSpace == AddressSpace::Threadgroup ? "threadgroup memory" : "buffer") + "\n";
    return out;
}

std::string ShaderValidationReport::json() const {
    std::string out = "{";
    out += "\"kind\":" + jsonString(name(kind));
    out += ",\"addressSpace\":" + jsonString(name(addressSpace));
    out += ",\"access\":" + jsonString(name(access));
    out += ",\"offset\":" + std::to_string(offset);
    out += ",\"size\":" + std::to_string(size);
    if (hasBuffer) {
        out += ",\"buffer\":" + jsonString(bufferLabel);
        out += ",\"bufferLength\":" + std::to_string(bufferLength);
    }
    out += ",\"bindingIndex\":" + std::to_string(bindingIndex);
    out += ",\"argument\":" + jsonString(argumentName);
    out += ",\"kernel\":" + jsonString(kernel);
    out += ",\"kernelFrameName\":" + jsonString(kernelFrameName);
    out += ",\"pipeline\":" + jsonString(pipelineLabel);
    out += ",\"pipelineUid\":" + jsonString(pipelineUid);
    out += ",\"encoder\":" + jsonString(encoderLabel);
    out += ",\"dispatch\":" + std::to_string(dispatchIndex);
    out += ",\"commandBuffer\":" + std::to_string(commandBufferIndex);
    out += ",\"threadPositionInGrid\":" + jsonPosition(threadPositionInGrid);
    out += ",\"threadPositionInThreadgroup\":" + jsonPosition(threadPositionInThreadgroup);
    out += ",\"threadgroupPositionInGrid\":" + jsonPosition(threadgroupPositionInGrid);
    out += ",\"file\":" + jsonString(reportedFile(location.file));
    out += ",\"function\":" + jsonString(location.function);
    out += ",\"line\":" + std::to_string(location.line);
    out += ",\"column\":" + std::to_string(location.column);
    out += ",\"count\":" + std::to_string(count);
    if (kind == ReportKind::ThreadgroupRace) {
        out += ",\"race\":" + jsonString(raceKind());
        out += ",\"other\":{\"access\":" + jsonString(name(other.access));
        out += ",\"atomic\":" + std::string(other.atomic ? "true" : "false");
        out += ",\"sameSimdgroup\":" + std::string(other.sameSimdgroup ? "true" : "false");
        out += ",\"threadPositionInGrid\":" + jsonPosition(other.threadPositionInGrid);
        out += ",\"threadPositionInThreadgroup\":" + jsonPosition(other.threadPositionInThreadgroup);
        out += ",\"file\":" + jsonString(reportedFile(other.location.file));
        out += ",\"function\":" + jsonString(other.location.function);
        out += ",\"line\":" + std::to_string(other.location.line);
        out += ",\"column\":" + std::to_string(other.location.column) + "}";
    }
    if (kind == ReportKind::DispatchHazard) {
        out += ",\"hazard\":" + jsonString(raceKind());
        out += ",\"other\":{\"access\":" + jsonString(name(other.access));
        out += ",\"atomic\":" + std::string(other.atomic ? "true" : "false");
        out += ",\"dispatch\":" + std::to_string(otherDispatch.dispatchIndex);
        out += ",\"kernel\":" + jsonString(otherDispatch.kernel) + "}";
    }
    if (isBarrierKind(kind)) {
        out += ",\"threads\":" + std::to_string(barrier.threads);
        out += ",\"reached\":" + std::to_string(barrier.reached);
        out += ",\"elsewhere\":" + std::to_string(barrier.elsewhere);
        out += ",\"returned\":" + std::to_string(barrier.returned);
        if (barrier.other.line != 0) {
            out += ",\"otherFile\":" + jsonString(reportedFile(barrier.other.file));
            out += ",\"otherLine\":" + std::to_string(barrier.other.line);
            out += ",\"otherColumn\":" + std::to_string(barrier.other.column);
        }
    }
    out += ",\"text\":" + jsonString(text());
    return out + "}";
}

} // namespace metalcpu::validation
