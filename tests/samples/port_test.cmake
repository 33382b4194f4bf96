# Builds samples/matmul and the validation sample's GoogleTest suite as an outside project
# (port/CMakeLists.txt) and runs them; with find_package, also configures it where GoogleTest
# cannot be found, which must still give metalcpu::metal.
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
                        -DAPP_DIR=${app} -DVALIDATION_DIR=${SOURCE}/samples/validation ${configure}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status)
  message(FATAL_ERROR "configuring the ported program failed")
endif()
# metalcpu::gtest_main is compiled by the program, against its GoogleTest: an INTERFACE target
# with gtest_main.cpp as its source (installed with the package), never a prebuilt archive.
if(MODE STREQUAL "find_package")
  set(gtest_main_source "${WORK}/prefix/share/metalcpu/gtest_main.cpp")
else()
  set(gtest_main_source "${SOURCE}/validation/gtest_main/gtest_main.cpp")
endif()
if(NOT output MATCHES "metalcpu::gtest_main: found, INTERFACE_LIBRARY, sources ([^\n]*)\n"
   OR NOT CMAKE_MATCH_1 MATCHES "gtest_main\\.cpp" OR NOT EXISTS "${gtest_main_source}")
  message(FATAL_ERROR "metalcpu::gtest_main must be an INTERFACE target whose source is ${gtest_main_source}")
endif()
file(GLOB_RECURSE prebuilt ${WORK}/prefix/*gtest_main*.a)
if(prebuilt)
  message(FATAL_ERROR "a prebuilt gtest_main archive was installed: ${prebuilt}")
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
execute_process(COMMAND ${CMAKE_COMMAND} -E env MTL_SHADER_VALIDATION=1 ${WORK}/build/validation_gtest
                WORKING_DIRECTORY ${WORK}/build RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status OR NOT output MATCHES "\\[  PASSED  \\] 3 tests")
  message(FATAL_ERROR "the suite linked with metalcpu::gtest_main did not pass")
endif()
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/tests/samples/port -B ${WORK}/build-without-gtest -G Ninja
                          -DAPP_DIR=${app} -DWITHOUT_GTEST=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON ${configure}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status OR NOT output MATCHES "metalcpu::gtest_main: not found")
    message(FATAL_ERROR "without GoogleTest, find_package(metalcpu) must still work:\n${output}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK})
