// METALCPU_SHADER_VALIDATION_EXIT_CODE: a process that made shader-validation reports exits
// with a chosen status, for programs without a test framework and for ctest (as
// compute-sanitizer's --error-exitcode does).
#pragma once

#include <cstdint>

namespace metalcpu::val {

/// From now on, a process that made a report nobody expected and exits with status 0 exits
/// with `code` instead (stdio flushed first). A status that is already non-zero is kept. 0 does nothing;
/// the first non-zero code armed wins.
void armExitCode(int code);

/// Counts a report delivered that no owning sink (ValidationReportCollector,
/// FailOnValidationReports) took: nobody expected it.
void countUnexpectedReport();

/// Reports made so far in the process.
std::uint64_t reportsMade();

} // namespace metalcpu::val
