// ShaderValidationReport's text (Apple's wording, docs/validation.md) and JSON.
#include <metalcpu/Validation.hpp>

#include <cstdio>

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

const char* kindName(ReportKind kind) {
    switch (kind) {
    case ReportKind::NullBuffer: return "null-buffer";
    case ReportKind::WildPointer: return "wild-pointer";
    case ReportKind::OutOfBounds: break;
    }
    return "out-of-bounds";
}

const char* spaceName(AddressSpace space) {
    switch (space) {
    case AddressSpace::Constant: return "constant";
    case AddressSpace::Threadgroup: return "threadgroup";
    case AddressSpace::Device: break;
    }
    return "device";
}

} // namespace

std::string ShaderValidationReport::text() const {
    std::string out = std::string("Invalid ") + spaceWord(addressSpace) + (access == Access::Store ? " store" : " load") +
                      " at offset " + std::to_string(offset) + ", executing kernel function: \"" + kernel + "\"\n";
    if (addressSpace != AddressSpace::Threadgroup)
        out += "buffer: " + bufferLabel + ", length:" + std::to_string(bufferLength) + ", resident:Read Write\n";
    out += "pipeline: " + (pipelineLabel.empty() ? std::string("(null)") : pipelineLabel) +
           ", UID: " + kernel + " encoder: \"" + encoderLabel + "\", dispatch: " + std::to_string(dispatchIndex) + "\n";
    if (location.line != 0) {
        const std::string function = location.function.empty() ? kernel : location.function;
        out += "\t* frame #0: " + function + "() - " + reportedFile(location.file) + ":" +
               std::to_string(location.line) + ":" + std::to_string(location.column) + "\n";
    }
    // metalcpu's additions.
    out += "\tthread_position_in_grid: " + position(threadPositionInGrid) +
           ", thread_position_in_threadgroup: " + position(threadPositionInThreadgroup) +
           ", threadgroup_position_in_grid: " + position(threadgroupPositionInGrid) + "\n";
    if (bindingIndex >= 0) {
        out += std::string("\targument: ") + (argumentName.empty() ? "<unnamed>" : argumentName) + " [[" +
               (addressSpace == AddressSpace::Threadgroup ? "threadgroup" : "buffer") + "(" +
               std::to_string(bindingIndex) + ")]], " + std::to_string(size) + "-byte " +
               (access == Access::Store ? "store" : "load") + "\n";
    }
    if (count > 1) out += "\tthis site made " + std::to_string(count) + " such accesses in the dispatch\n";
    return out;
}

std::string ShaderValidationReport::json() const {
    std::string out = "{";
    out += "\"kind\":" + jsonString(kindName(kind));
    out += ",\"addressSpace\":" + jsonString(spaceName(addressSpace));
    out += std::string(",\"access\":") + (access == Access::Store ? "\"store\"" : "\"load\"");
    out += ",\"offset\":" + std::to_string(offset);
    out += ",\"size\":" + std::to_string(size);
    if (hasBuffer) {
        out += ",\"buffer\":" + jsonString(bufferLabel);
        out += ",\"bufferLength\":" + std::to_string(bufferLength);
    }
    out += ",\"bindingIndex\":" + std::to_string(bindingIndex);
    out += ",\"argument\":" + jsonString(argumentName);
    out += ",\"kernel\":" + jsonString(kernel);
    out += ",\"pipeline\":" + jsonString(pipelineLabel);
    out += ",\"encoder\":" + jsonString(encoderLabel);
    out += ",\"dispatch\":" + std::to_string(dispatchIndex);
    out += ",\"threadPositionInGrid\":" + jsonPosition(threadPositionInGrid);
    out += ",\"threadPositionInThreadgroup\":" + jsonPosition(threadPositionInThreadgroup);
    out += ",\"threadgroupPositionInGrid\":" + jsonPosition(threadgroupPositionInGrid);
    out += ",\"file\":" + jsonString(reportedFile(location.file));
    out += ",\"function\":" + jsonString(location.function);
    out += ",\"line\":" + std::to_string(location.line);
    out += ",\"column\":" + std::to_string(location.column);
    out += ",\"count\":" + std::to_string(count);
    out += ",\"text\":" + jsonString(text());
    return out + "}";
}

} // namespace metalcpu::validation
