# Builds consumer/pkg_config.mk (a program and its kernels, compiled and linked with what
# `pkg-config metalcpu` gives) with make against an installed metalcpu, and runs it from
# another directory: its kernels must compute what they were compiled with.
#   cmake -DSOURCE=<consumer dir> -DWORK=<scratch dir> -DPKG_CONFIG_DIR=<prefix>/lib/pkgconfig
#         [-DSHARED=ON] -P pkg_config_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/build ${WORK}/elsewhere)
find_program(MAKE make REQUIRED)
execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${PKG_CONFIG_DIR}
                        ${MAKE} -f ${SOURCE}/pkg_config.mk SRC=${SOURCE}
                WORKING_DIRECTORY ${WORK}/build RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status)
  message(FATAL_ERROR "building with pkg-config's flags failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=METALCPU_DEFAULT_LIBRARY
                        ${WORK}/build/run_kernels default scale_a scale_b
                WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status OR NOT output MATCHES "scale_a=1010\nscale_b=118\n")
  message(FATAL_ERROR "the program built with pkg-config did not compute scale_a=1010, scale_b=118:\n${output}")
endif()
if(SHARED)
  include(${CMAKE_CURRENT_LIST_DIR}/linked_libraries.cmake)
  expect_linked_libmetalcpu(${WORK}/build/run_kernels)
endif()
file(REMOVE_RECURSE ${WORK})
