// Make-style dependency files (depfiles): what the preprocessor writes with -MD, read back,
// and what the `metal` tool writes for -MD/-MMD/-M (docs/tools.md, "Dependencies").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace metalcpu::jit {

/// The prerequisites of the rules in a depfile, in order, each once, with make's escapes
/// undone (`\ ` is a space, `\#` a '#', `$$` a '$'; a backslash before a newline continues the
/// line). Targets are left out.
std::vector<std::string> readMakePrerequisites(std::string_view depfile);

/// A target or prerequisite written for make: spaces and '#' escaped with a backslash, '$' as
/// "$$" (GCC's -MQ quoting).
std::string quoteForMake(std::string_view name);

/// The depfile text for `targets` (already written for make, as -MT gives them) depending on
/// `prerequisites` (file names, quoted here), one per line; then an empty rule for each of
/// `phonyTargets` (-MP: every header), so that make goes on when one has been removed.
std::string formatMakeRule(const std::vector<std::string>& targets, const std::vector<std::string>& prerequisites,
                           const std::vector<std::string>& phonyTargets = {});

} // namespace metalcpu::jit
