#include "tools/standard_streams.h"

#include "support/files.h"

#include <cstdio>
#include <iostream>
#include <iterator>
#include <optional>
#include <unistd.h>

namespace metalcpu::tools {

std::string binaryOutputRefusal(const char* what) {
    // Clang would write the binary to the terminal; a pipe or a file is what `-o -` is for.
    if (isatty(STDOUT_FILENO))
        return std::string("-o - would write ") + what + " to the terminal; redirect standard output or name a file";
    return {};
}

bool copyFileToStandardOutput(const std::string& path) {
    const std::optional<std::string> bytes = support::readFile(path);
    if (!bytes) return false;
    return std::fwrite(bytes->data(), 1, bytes->size(), stdout) == bytes->size() && std::fflush(stdout) == 0;
}

bool saveStandardInput(const std::string& path) {
    const std::string bytes{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return support::writeFileAtomically(path, bytes);
}

} // namespace metalcpu::tools
