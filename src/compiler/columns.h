// Column recovery: the preprocessor keeps lines but not the spacing inside them.
#pragma once

#include "compiler/source.h"
#include "compiler/token.h"

#include <functional>
#include <optional>
#include <string>

namespace metalcpu::msl {

/// Returns the original text of a file named by a linemarker, or nothing when unavailable.
using OriginalSourceReader = std::function<std::optional<std::string>(const std::string& file)>;

/// `g++ -E` keeps every token on its line and the first token of each line at its column, but
/// writes one space between the tokens of a line however far apart they were. This moves each
/// token back to its column in the original file: the tokens of a line are aligned with the
/// tokens of the same line of the original text (longest common subsequence of spellings).
/// Tokens that came from a macro expansion match nothing and take the column of the macro's
/// name. Files `read` cannot provide keep the preprocessor's columns.
void restoreColumns(TokenList& tokens, const FileTable& files, const OriginalSourceReader& read);

} // namespace metalcpu::msl
