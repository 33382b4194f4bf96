// What a translated file holds besides its translation: the preambles it starts with (math
// settings, source roots), which its compile reads back, and the texts it carries as string
// literals (shader-validation and specialisation flavours). The public half is declared in
// kernel_compiler.h.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace metalcpu::jit {

/// How much of a translated file's start its preambles may take.
constexpr std::size_t kPreambleLimit = 64 * 1024;

/// The first bytes of a file: enough for the preamble of a translated file.
std::string headOf(const std::string& path);

/// The lines that record, after its math settings, the directories a translated file's source
/// could read (SourceAccess's roots): its compile may read them too, to quote the source's
/// lines in messages, but nothing else of the user's.
std::string sourceRootsPreamble(const std::vector<std::filesystem::path>& roots);

/// The roots recorded by sourceRootsPreamble() in the preamble at the start of `translatedCpp`.
std::vector<std::string> recordedSourceRoots(const std::string& translatedCpp);

} // namespace metalcpu::jit
