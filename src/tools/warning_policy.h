// -Werror, -Werror=x and -Wno-error=x, applied to the messages of a build: the front end's
// and the host compiler's alike, so that warnings the tool leaves out (metalcpu's generated
// code: jit/compiler_messages.h) can never fail a build.
#pragma once

#include "tools/tool_options.h"

#include <string>

namespace metalcpu::tools {

struct PolicyResult {
    std::string text; ///< the messages, those that are errors now reading "error: ... [-Werror,-Wx]"
    int errors = 0;   ///< warnings made errors
};

/// `messages` with every warning that `options` makes an error turned into one, or, with -w,
/// with every warning (its quoted lines and notes too) left out. A warning's name is its
/// "[-Wx]" tag; a warning without one is an error only under -Werror; a warning that a file
/// will have no shader-validation flavour (jit::kValidationUnavailable) is never one.
PolicyResult applyWarningPolicy(const std::string& messages, const WarningOptions& options);

} // namespace metalcpu::tools
