#pragma once

// Process state a test changes and must put back: environment variables (re-read by the
// configuration), the working directory, and scratch directories.

#include "support/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace metalcpu::testing {

/// Sets (or, with nullopt, unsets) an environment variable for the scope, then restores it;
/// the configuration is re-read both times.
class ScopedEnvironmentVariable {
public:
    ScopedEnvironmentVariable(const char* name, const std::optional<std::string>& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) setenv(name, value->c_str(), 1);
        else unsetenv(name);
        support::reloadConfig();
    }
    ~ScopedEnvironmentVariable() {
        if (old_) setenv(name_.c_str(), old_->c_str(), 1);
        else unsetenv(name_.c_str());
        support::reloadConfig();
    }
    ScopedEnvironmentVariable(const ScopedEnvironmentVariable&) = delete;
    ScopedEnvironmentVariable& operator=(const ScopedEnvironmentVariable&) = delete;

private:
    std::string name_;
    std::optional<std::string> old_;
};

/// Changes the working directory for the scope, then changes back.
class ScopedWorkingDirectory {
public:
    explicit ScopedWorkingDirectory(const std::filesystem::path& directory) : old_(std::filesystem::current_path()) {
        std::filesystem::current_path(directory);
    }
    ~ScopedWorkingDirectory() { std::filesystem::current_path(old_); }
    ScopedWorkingDirectory(const ScopedWorkingDirectory&) = delete;
    ScopedWorkingDirectory& operator=(const ScopedWorkingDirectory&) = delete;

private:
    std::filesystem::path old_;
};

/// A new empty directory of this process, removed with everything in it at the end of the scope.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        std::string pattern = (std::filesystem::temp_directory_path() / "metalcpu-test-XXXXXX").string();
        if (!mkdtemp(pattern.data())) ADD_FAILURE() << "mkdtemp failed for " << pattern;
        path_ = pattern;
    }
    ~TemporaryDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /// Copies `file` to `name` (a path relative to the directory, whose parents it creates).
    std::filesystem::path copy(const std::filesystem::path& file, const std::filesystem::path& name) const {
        std::filesystem::path to = path_ / name;
        std::filesystem::create_directories(to.parent_path());
        std::filesystem::copy_file(file, to, std::filesystem::copy_options::overwrite_existing);
        return to;
    }

private:
    std::filesystem::path path_;
};

/// The directory of the running executable, where newDefaultLibrary() looks first.
inline std::filesystem::path executableDirectory() {
    return std::filesystem::read_symlink("/proc/self/exe").parent_path();
}

} // namespace metalcpu::testing
