// The debug layer's reports that let the program go on (MTL_DEBUG_LAYER_ERROR_MODE=nslog),
// kept for tests: the GoogleTest listener fails the test during which one was made, since the
// command it names was dropped and shader validation never sees it (docs/testing.md).
#pragma once

#include <string>

namespace metalcpu::val {

/// Records one report, as the debug layer printed it (`-[class selector]:line: failed
/// assertion `...'`). Thread-safe.
void noteApiValidationReport(const std::string& text);

} // namespace metalcpu::val
