#pragma once

#include <spdlog/spdlog.h>

namespace metalcpu::support {

/// The project's logger ("metalcpu"). Everything the library reports to people goes
/// through it; validation reports additionally go to their own sinks.
spdlog::logger& log();

} // namespace metalcpu::support
