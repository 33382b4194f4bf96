# Builds samples/matmul as an outside project (port/CMakeLists.txt) and runs it.
#   cmake -DMODE=find_package|add_subdirectory -DSOURCE=<metalcpu source> -DBUILD=<metalcpu build>
#         -DWORK=<scratch dir> -P port_test.cmake
file(REMOVE_RECURSE ${WORK})
set(app ${SOURCE}/samples/matmul)
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
                  RESULT_VARIABLE status OUTPUT_QUIET)
  if(status)
    message(FATAL_ERROR "cmake --install failed")
  endif()
  set(configure -DCMAKE_PREFIX_PATH=${WORK}/prefix)
else()
  set(configure -DMETALCPU_SOURCE_DIR=${SOURCE})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/tests/samples/port -B ${WORK}/build -G Ninja
                        -DAPP_DIR=${app} ${configure} RESULT_VARIABLE status)
if(status)
  message(FATAL_ERROR "configuring the ported program failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build -j 2 RESULT_VARIABLE status)
if(status)
  message(FATAL_ERROR "building the ported program failed")
endif()
execute_process(COMMAND ${WORK}/build/matmul --sizes 64 --repeat 1 WORKING_DIRECTORY ${WORK}/build
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status OR NOT output MATCHES "mat_mul_register_8x4 +64x  64x  64 .* ok")
  message(FATAL_ERROR "the ported program did not compute the right results")
endif()
file(REMOVE_RECURSE ${WORK})
