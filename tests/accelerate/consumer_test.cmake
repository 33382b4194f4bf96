# metalcpu::accelerate from an installed metalcpu: builds and runs consumer/ against the
# package in PREFIX; then checks that the target also comes unasked, that without OpenBLAS the
# package is still found without the target, and that asking for it then fails.
#   cmake -DSOURCE=<metalcpu source> -DPREFIX=<installed metalcpu> -DWORK=<scratch dir> -P consumer_test.cmake
file(REMOVE_RECURSE ${WORK})
set(consumer ${SOURCE}/tests/accelerate/consumer)

function(configure_consumer build)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${consumer} -B ${WORK}/${build} -G Ninja
                          -DCMAKE_PREFIX_PATH=${PREFIX} ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  set(status ${status} PARENT_SCOPE)
  set(output "${output}" PARENT_SCOPE)
endfunction()

configure_consumer(build)
if(status)
  message(FATAL_ERROR "configuring the program failed:\n${output}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build -j 2 RESULT_VARIABLE status)
if(status)
  message(FATAL_ERROR "building the program failed")
endif()
execute_process(COMMAND ${WORK}/build/matmul_reference RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status OR NOT output MATCHES "256x128x96: cblas_sgemm [0-9.]+ GFLOPS, matches")
  message(FATAL_ERROR "the program built against the installed package did not match its references")
endif()

configure_consumer(build-without-component -DWITHOUT_ACCELERATE=ON)
if(status OR NOT output MATCHES "metalcpu::accelerate: found")
  message(FATAL_ERROR "with OpenBLAS installed, find_package(metalcpu) gives metalcpu::accelerate unasked:\n${output}")
endif()
configure_consumer(build-without-openblas -DWITHOUT_ACCELERATE=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenBLAS=ON)
if(status OR NOT output MATCHES "metalcpu::accelerate: not found")
  message(FATAL_ERROR "without OpenBLAS, find_package(metalcpu) must still work, without the target:\n${output}")
endif()
configure_consumer(build-component-without-openblas -DCMAKE_DISABLE_FIND_PACKAGE_OpenBLAS=ON)
if(NOT status OR NOT output MATCHES "metalcpu::accelerate needs OpenBLAS")
  message(FATAL_ERROR "find_package(metalcpu COMPONENTS accelerate) must fail without OpenBLAS:\n${output}")
endif()
file(REMOVE_RECURSE ${WORK})
