// METALCPU_SHADER_VALIDATION_EXIT_CODE: a process that made shader-validation reports nobody
// expected exits with a chosen status, for programs without a test framework and for ctest (as
// compute-sanitizer's --error-exitcode does).
#pragma once

#include <cstdint>

namespace metalcpu::val {

/// The variable's name, for messages.
inline constexpr const char* kExitCodeVariable = "METALCPU_SHADER_VALIDATION_EXIT_CODE";

/// What a value of METALCPU_SHADER_VALIDATION_EXIT_CODE asks for.
struct ExitCodeSetting {
    int code = 0;         ///< 1 to 255; 0 when unset, empty, "0" or invalid: the status stays
    bool invalid = false; ///< set to something other than 0 to 255 in decimal digits: ignored
};

/// Reads a value of the variable (null when it is unset). Allocates nothing: it also runs
/// inside exit().
ExitCodeSetting parseExitCode(const char* text);

/// Warns when the variable is set to something that is not an exit status (or, without
/// glibc, set at all): a program would otherwise believe its CI fails on reports when it does
/// not.
void warnAboutTheExitCodeSetting();

/// Counts a report delivered that no owning sink (ValidationReportCollector,
/// FailOnValidationReports) took: nobody expected it.
void countUnexpectedReport();

} // namespace metalcpu::val
