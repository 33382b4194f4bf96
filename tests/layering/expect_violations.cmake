# Runs the layering check on a tree that breaks its rules (FIXTURE) and fails unless the check
# fails reporting exactly the lines of FIXTURE/expected_violations.txt: the check can fail, and
# it says which file, which include and which rule.
#
#   cmake -DCHECK=check_layering.cmake -DFIXTURE=fixtures/violations -P expect_violations.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${FIXTURE} -P ${CHECK}
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "the check passed ${FIXTURE}, which breaks the layering:\n${output}")
endif()
file(STRINGS ${FIXTURE}/expected_violations.txt expected)
set(missing)
foreach(line IN LISTS expected)
  string(FIND "${output}" "${line}\n" at)
  if(at EQUAL -1)
    string(APPEND missing "\n  ${line}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "the check did not report:${missing}\nIt said:\n${output}")
endif()
list(LENGTH expected count)
if(NOT output MATCHES "\n *${count} layering violation\\(s\\)")
  message(FATAL_ERROR "the check reported other violations than the ${count} expected:\n${output}")
endif()
