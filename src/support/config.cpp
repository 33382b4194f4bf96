#include "support/config.h"

#include "support/log.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <string_view>

extern char** environ;

namespace metalcpu::support {
namespace {

void read(const char* name, const char* fallback, std::string& value, std::vector<std::string>&) {
    value = environment(name, fallback);
}

/// A whole number in int's range; anything else keeps `fallback` and is a problem.
void read(const char* name, int fallback, int& value, std::vector<std::string>& problems) {
    value = fallback;
    const std::string text = environment(name);
    if (text.empty()) return;
    char* end = nullptr;
    errno = 0;
    const long number = std::strtol(text.c_str(), &end, 10);
    if (end && *end == '\0' && errno == 0 && number >= INT_MIN && number <= INT_MAX) {
        value = static_cast<int>(number);
        return;
    }
    problems.push_back(std::string(name) + "=" + text + " is not a whole number; using " + std::to_string(fallback));
}

/// A number of seconds from 0 to 1e9 (fractions allowed), as METALCPU_GPU_TIMEOUT takes. A
/// value that is not is replaced by the default in load(), so readers only convert it.
bool secondsNamed(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && value >= 0 && value <= 1e9;
}

#define STRINGIFY_DEFAULT(x) #x
const ConfigEntry kEntries[] = {
#define METALCPU_CONFIG(field, type, variable, fallback, description) {#variable, STRINGIFY_DEFAULT(fallback), description},
#include "support/config.def"
#undef METALCPU_CONFIG
};

/// Edits (insertions, deletions, substitutions) that turn `a` into `b`.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(previous, current);
    }
    return previous[b.size()];
}

/// The variable metalcpu reads that `name` most likely misspells, or null.
const char* nearestVariable(std::string_view name) {
    const char* nearest = nullptr;
    std::size_t best = 3; // three edits or more make another name, not a typo
    for (const ConfigEntry& entry : kEntries) {
        const std::size_t distance = editDistance(name, entry.variable);
        if (distance < best) {
            best = distance;
            nearest = entry.variable;
        }
    }
    return nearest;
}

/// A METALCPU_ variable that is set but read by nobody is most likely a typo, which would
/// otherwise leave the program running with a setting its user believes changed.
void findUnknownVariables(std::vector<std::string>& problems) {
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const std::size_t equals = text.find('=');
        const std::string_view name = text.substr(0, equals);
        if (!name.starts_with("METALCPU_") || equals == std::string_view::npos || equals + 1 == text.size()) continue;
        const auto known = [&](const ConfigEntry& read) { return name == read.variable; };
        if (std::any_of(std::begin(kEntries), std::end(kEntries), known)) continue;
        std::string message = std::string(name) + " is not a variable metalcpu reads";
        if (const char* nearest = nearestVariable(name)) message += std::string(" (did you mean ") + nearest + "?)";
        problems.push_back(message + "; it is ignored (docs/configuration.md lists them)");
    }
}

/// The values config.def gives each variable the environment does not set.
Config defaults() {
    Config made;
#define METALCPU_CONFIG(field, type, variable, fallback, description) made.field = fallback;
#include "support/config.def"
#undef METALCPU_CONFIG
    return made;
}

Config load() {
    Config made;
#define METALCPU_CONFIG(field, type, variable, fallback, description) read(#variable, fallback, made.field, made.problems);
#include "support/config.def"
#undef METALCPU_CONFIG
    if (!logLevelNamed(made.logLevel)) {
        const std::string fallback = defaults().logLevel;
        made.problems.push_back("METALCPU_LOG_LEVEL=" + made.logLevel +
                                " is not a log level (trace, debug, info, warn, error, critical, off); using " +
                                fallback);
        made.logLevel = fallback;
    }
    if (made.isolation != "" && made.isolation != "process" && made.isolation != "none") {
        made.problems.push_back("METALCPU_ISOLATION=" + made.isolation + " is not process or none; taking the default");
        made.isolation = defaults().isolation;
    }
    if (!secondsNamed(made.gpuTimeout)) {
        const std::string fallback = defaults().gpuTimeout;
        made.problems.push_back("METALCPU_GPU_TIMEOUT=" + made.gpuTimeout + " is not a number of seconds; using " +
                                fallback);
        made.gpuTimeout = fallback;
    }
    findUnknownVariables(made.problems);
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
