#!/bin/sh
# Regenerates tests/compiler/golden/*.expected.{cpp,errors} from the current front end.
# Usage: tests/compiler/update_golden.sh [build-dir]   (default: build)
# Review the diff before committing: the expectations are the specification.
set -e
build=${1:-build}
cmake --build "$build" --target metalcpu_compiler_tests
METALCPU_UPDATE_GOLDEN=1 "$build/tests/compiler/metalcpu_compiler_tests" --gtest_filter='Compiler/Golden.Translation/*'
"$build/tests/compiler/metalcpu_compiler_tests" --gtest_filter='Compiler/Golden.*'
