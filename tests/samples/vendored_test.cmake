# The vendored metal-cpp layout of docs/porting.md (vendored/CMakeLists.txt) against an
# installed metalcpu: without the fix the build stops at the vendored header; with the fix's one
# line it builds and runs.
#   cmake -DPREFIX=<installed metalcpu> -DSOURCE=<this directory>/vendored -DWORK=<scratch dir> -P vendored_test.cmake
file(REMOVE_RECURSE ${WORK})
foreach(fix OFF ON)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build-${fix} -G Ninja
                          -DCMAKE_PREFIX_PATH=${PREFIX} -DAPPLY_FIX=${fix}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status)
    message(FATAL_ERROR "configuring the program failed:\n${output}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build-${fix}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(fix STREQUAL "OFF" AND (NOT status OR NOT output MATCHES "vendored Apple metal-cpp was found before"))
    message(FATAL_ERROR "without the fix, the vendored headers should have been found first:\n${output}")
  elseif(fix STREQUAL "ON" AND status)
    message(FATAL_ERROR "with the fix of docs/porting.md the program should build:\n${output}")
  endif()
endforeach()
execute_process(COMMAND ${WORK}/build-ON/app RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status OR NOT output MATCHES "running on ")
  message(FATAL_ERROR "the fixed program did not run:\n${output}")
endif()
file(REMOVE_RECURSE ${WORK})
