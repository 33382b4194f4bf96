// @file arguments: command lines too long for a shell, as GCC, Clang and Apple's tools read them.
#pragma once

#include <string>
#include <vector>

namespace metalcpu::tools {

/// Replaces each `@file` argument by the arguments written in the file, as GCC reads them
/// (and Clang, but for the last rule), @file within files expanded in turn (to a depth of
/// 32). A file that cannot be read is an error (in `error`). The rules (docs/tools.md):
/// - white space outside quotes (space, tab, newline, carriage return, vertical tab, form
///   feed) separates arguments;
/// - '...' and "..." group, and the quotes go; the other kind of quote inside is plain text;
///   an unclosed quote runs to the end of the file;
/// - a backslash anywhere, inside either quotes too, makes the next character plain text
///   whatever it is (white space, a quote, a newline, a backslash) and goes itself, so a
///   Windows-looking path a\b is ab;
/// - a backslash that ends the file goes (Clang keeps it).
std::vector<std::string> expandResponseFiles(const std::vector<std::string>& arguments, std::string* error);

} // namespace metalcpu::tools
