#pragma once

#include <string>
#include <vector>

namespace metalcpu::support {

/// Every setting read from the environment, read once per process (config.def lists them).
struct Config {
#define METALCPU_CONFIG(field, type, variable, fallback, description) type field;
#include "support/config.def"
#undef METALCPU_CONFIG
    /// What is wrong with the environment it was read from, one sentence each: a METALCPU_
    /// variable metalcpu does not read (a misspelling), or a value it cannot use and replaced
    /// with the default. warnAboutConfiguration() (log.h) logs them, each once.
    std::vector<std::string> problems;
};

/// The process's configuration, read from the environment at first use.
const Config& config();

/// Re-reads the environment; for tests that change variables.
void reloadConfig();

/// One row per variable: name, default and description (docs/configuration.md is checked against it).
struct ConfigEntry {
    const char* variable;
    const char* fallback;
    const char* description;
};
const ConfigEntry* configEntries(int* count);

/// The value of an environment variable, or `fallback` when unset or empty.
std::string environment(const char* name, const std::string& fallback = {});

} // namespace metalcpu::support
