#!/bin/sh
# Runs a GoogleTest program with the given arguments (a --gtest_filter selecting one suite)
# and fails when it fails or when the filter selected no test, which GoogleTest itself
# counts as a pass: a renamed suite must not turn its ctest entry silently green.
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
[ $status -eq 0 ] || exit $status
printf '%s\n' "$output" | grep -q '^\[  PASSED  \] [1-9]' || { echo "gtest_selected.sh: no test ran" >&2; exit 1; }
