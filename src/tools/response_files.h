// @file arguments: command lines too long for a shell, as GCC, Clang and Apple's tools read them.
#pragma once

#include <string>
#include <vector>

namespace metalcpu::tools {

/// Replaces each `@file` argument by the arguments written in the file, as GCC and Clang
/// read them: separated by white space, with '...' and "..." quoting and backslash escapes,
/// @file within files expanded in turn (to a depth of 32). A file that cannot be read is an
/// error (in `error`).
std::vector<std::string> expandResponseFiles(const std::vector<std::string>& arguments, std::string* error);

} // namespace metalcpu::tools
