#include "support/files.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace metalcpu::support {

std::optional<std::string> readFile(const std::string& path) {
    struct stat info {};
    // A directory opens like a file but reads as nothing.
    if (stat(path.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string createUniqueFile(const std::string& prefix) {
    std::string pattern = prefix + ".XXXXXX";
    int fd = mkstemp(pattern.data());
    if (fd < 0) return {};
    close(fd);
    return pattern;
}

bool writeFileAtomically(const std::string& path, const std::string& contents) {
    // A name of its own for every writer: threads and processes may write the same path at once.
    std::string temporary = createUniqueFile(path + ".tmp");
    if (temporary.empty()) return false;
    bool written = false;
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        written = static_cast<bool>(out);
    }
    std::error_code error;
    if (written) fs::rename(temporary, path, error);
    if (!written || error) {
        fs::remove(temporary, error);
        return false;
    }
    return true;
}

bool makeDirectories(const std::string& path, unsigned mode) {
    std::error_code error;
    fs::path current;
    for (const fs::path& part : fs::path(path)) {
        current /= part;
        if (!fs::exists(current, error)) {
            if (mkdir(current.c_str(), mode) != 0 && !fs::is_directory(current, error)) return false;
        }
    }
    return fs::is_directory(path, error);
}

std::string makeTemporaryDirectory(const std::string& prefix) {
    std::error_code error;
    fs::path temporary = fs::temp_directory_path(error);
    return makeUniqueDirectory(error ? "/tmp/" + prefix : (temporary / prefix).string());
}

std::string makeUniqueDirectory(const std::string& prefix) {
    std::string pattern = prefix + "XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return {};
    return pattern;
}

void removeTree(const std::string& path) {
    std::error_code error;
    fs::remove_all(path, error);
}

std::string executableDirectory() {
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? std::string() : self.parent_path().string();
}

bool fileExists(const std::string& path) {
    struct stat info;
    return stat(path.c_str(), &info) == 0;
}

} // namespace metalcpu::support
