#include "support/config.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <mutex>

namespace metalcpu::support {
namespace {

std::string read(const char* name, const char* fallback) { return environment(name, fallback); }

int read(const char* name, int fallback) {
    std::string text = environment(name);
    if (text.empty()) return fallback;
    char* end = nullptr;
    errno = 0;
    long value = std::strtol(text.c_str(), &end, 10);
    bool whole = end && *end == '\0' && errno == 0;
    return (whole && value >= INT_MIN && value <= INT_MAX) ? static_cast<int>(value) : fallback;
}

Config load() {
    Config made;
#define METALCPU_CONFIG(field, type, variable, fallback, description) made.field = read(#variable, fallback);
#include "support/config.def"
#undef METALCPU_CONFIG
    return made;
}

Config& mutableConfig() {
    static Config current = load();
    return current;
}

std::mutex& configMutex() {
    static std::mutex mutex;
    return mutex;
}

#define STRINGIFY_DEFAULT(x) #x
const ConfigEntry kEntries[] = {
#define METALCPU_CONFIG(field, type, variable, fallback, description) {#variable, STRINGIFY_DEFAULT(fallback), description},
#include "support/config.def"
#undef METALCPU_CONFIG
};

} // namespace

std::string environment(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return (value && *value) ? std::string(value) : fallback;
}

const Config& config() {
    std::lock_guard lock(configMutex());
    return mutableConfig();
}

void reloadConfig() {
    std::lock_guard lock(configMutex());
    mutableConfig() = load();
}

const ConfigEntry* configEntries(int* count) {
    *count = static_cast<int>(sizeof(kEntries) / sizeof(kEntries[0]));
    return kEntries;
}

} // namespace metalcpu::support
