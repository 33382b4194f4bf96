#include "exec/shader_log.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace metalcpu::exec {
namespace {

constexpr std::uint64_t kAddressMask = (std::uint64_t(1) << METALCPU_REGION_TAG_SHIFT) - 1;

/// printf into a std::string with one argument of the type `spec` expects.
template <class T>
void append(std::string& out, const std::string& spec, T value) {
    char buffer[512];
    const int n = std::snprintf(buffer, sizeof buffer, spec.c_str(), value);
    if (n < 0) return;
    if (static_cast<std::size_t>(n) < sizeof buffer) {
        out.append(buffer, static_cast<std::size_t>(n));
        return;
    }
    std::string large(static_cast<std::size_t>(n) + 1, '\0');
    std::snprintf(large.data(), large.size(), spec.c_str(), value);
    out.append(large.data(), static_cast<std::size_t>(n));
}

long long asSigned(const mc_log_argument& a) {
    if (a.kind == MC_LOG_FLOAT) return static_cast<long long>(std::bit_cast<double>(a.bits));
    return static_cast<long long>(a.bits);
}
unsigned long long asUnsigned(const mc_log_argument& a) {
    if (a.kind == MC_LOG_FLOAT) return static_cast<unsigned long long>(std::bit_cast<double>(a.bits));
    return a.bits;
}
double asDouble(const mc_log_argument& a) {
    switch (a.kind) {
    case MC_LOG_FLOAT: return std::bit_cast<double>(a.bits);
    case MC_LOG_SIGNED: return static_cast<double>(static_cast<long long>(a.bits));
    default: return static_cast<double>(a.bits);
    }
}
std::string asString(const mc_log_argument& a) {
    if (a.kind != MC_LOG_STRING) return "<not a string>";
    const char* text = reinterpret_cast<const char*>(a.bits & kAddressMask);
    if (!text) return "(null)";
    return std::string(text, strnlen(text, kMaxStringArgument));
}

bool isFlag(char c) { return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

} // namespace

std::string formatShaderLogMessage(const char* format, const mc_log_argument* args, std::uint32_t argCount) {
    std::string out;
    std::uint32_t next = 0;
    const auto take = [&]() -> const mc_log_argument* { return next < argCount ? &args[next++] : nullptr; };
    for (const char* p = format; *p;) {
        if (*p != '%') {
            out += *p++;
            continue;
        }
        const char* start = p++;
        if (*p == '%') {
            out += '%';
            ++p;
            continue;
        }
        // %[flags][width][.precision][length]conversion; '*' takes an int argument.
        std::string spec = "%";
        while (isFlag(*p)) spec += *p++;
        const auto number = [&] {
            if (*p == '*') {
                ++p;
                const mc_log_argument* a = take();
                long long v = a ? asSigned(*a) : 0;
                if (v > 1000) v = 1000; // a kernel cannot make the host print megabytes of padding
                if (v < -1000) v = -1000;
                spec += std::to_string(v);
                return;
            }
            int digits = 0;
            while (isDigit(*p)) {
                if (++digits <= 3) spec += *p;
                ++p;
            }
        };
        number();
        if (*p == '.') {
            spec += *p++;
            number();
        }
        while (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 't' || *p == 'j' || *p == 'q') ++p;
        const char conversion = *p;
        if (!conversion || !std::strchr("diouxXcfFeEgGaAsp", conversion)) {
            out.append(start, static_cast<std::size_t>(p - start)); // not a conversion: as written
            continue;
        }
        ++p;
        const mc_log_argument* a = take();
        if (!a) {
            out += "<missing>";
            continue;
        }
        switch (conversion) {
        case 'd':
        case 'i': append(out, spec + "lld", asSigned(*a)); break;
        case 'o':
        case 'u':
        case 'x':
        case 'X': append(out, spec + "ll" + conversion, asUnsigned(*a)); break;
        case 'c': append(out, spec + "c", static_cast<int>(static_cast<unsigned char>(asUnsigned(*a)))); break;
        case 's': append(out, spec + "s", asString(*a).c_str()); break;
        case 'p': append(out, spec + "p", reinterpret_cast<const void*>(a->bits & kAddressMask)); break;
        default: append(out, spec + conversion, asDouble(*a)); break;
        }
    }
    return out;
}

void ShaderLog::record(std::uint32_t level, const char* subsystem, const char* category, const char* format,
                       const mc_log_argument* args, std::uint32_t argCount) {
    if (level < minimumLevel_ || !format) return;
    ShaderLogMessage message;
    message.level = level;
    message.subsystem = subsystem ? std::string(subsystem, strnlen(subsystem, kMaxStringArgument)) : std::string();
    message.category = category ? std::string(category, strnlen(category, kMaxStringArgument)) : std::string();
    message.text = formatShaderLogMessage(format, args, argCount);
    const std::uint64_t bytes = message.subsystem.size() + message.category.size() + message.text.size();
    std::lock_guard lock(mutex_);
    if (used_ + bytes > capacity_) {
        ++dropped_;
        return;
    }
    used_ += bytes;
    messages_.push_back(std::move(message));
}

std::vector<ShaderLogMessage> ShaderLog::take() {
    std::lock_guard lock(mutex_);
    std::vector<ShaderLogMessage> taken;
    taken.swap(messages_);
    return taken;
}

std::uint64_t ShaderLog::dropped() const {
    std::lock_guard lock(mutex_);
    return dropped_;
}

std::uint64_t ShaderLog::remainingCapacity() const {
    std::lock_guard lock(mutex_);
    return capacity_ > used_ ? capacity_ - used_ : 0;
}

void ShaderLog::absorb(std::vector<ShaderLogMessage> messages, std::uint64_t dropped) {
    std::lock_guard lock(mutex_);
    dropped_ += dropped;
    for (ShaderLogMessage& message : messages) {
        // Checked again: the other log's messages come from a process kernels can write into.
        const std::uint64_t bytes = message.subsystem.size() + message.category.size() + message.text.size();
        if (message.level < minimumLevel_ || used_ + bytes > capacity_) {
            ++dropped_;
            continue;
        }
        used_ += bytes;
        messages_.push_back(std::move(message));
    }
}

} // namespace metalcpu::exec
