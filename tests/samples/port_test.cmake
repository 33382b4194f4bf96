# Builds samples/matmul and the validation sample's GoogleTest suite as an outside project
# (port/CMakeLists.txt) and runs them. find_package: against an installed prefix, and also
# configured where GoogleTest cannot be found, which must still give metalcpu::metal.
# add_subdirectory with SHARED=ON: metalcpu is built inside the project (Debug) as a shared library
# (BUILD_SHARED_LIBS=ON), which the programs must load; that build is installed, and the
# installed package is checked as the fixture's is (consumer_test.cmake, pkg_config_test.cmake).
#   cmake -DMODE=find_package -DPREFIX=<metalcpu prefix> | -DMODE=add_subdirectory [-DSHARED=ON]
#         -DSOURCE=<metalcpu source> -DWORK=<scratch dir> [-DMAKE_PROGRAM=<ninja>] [-DLIBDIR=lib64]
#         -P port_test.cmake
# LIBDIR is GNUInstallDirs' CMAKE_INSTALL_LIBDIR on this system (lib when not given).
file(REMOVE_RECURSE ${WORK})
if(NOT LIBDIR)
  set(LIBDIR lib)
endif()
set(app ${SOURCE}/samples/matmul)
if(MODE STREQUAL "find_package")
  set(configure -DCMAKE_PREFIX_PATH=${PREFIX})
else()
  # A Debug build, as a program under development usually is, and metalcpu with it: the one
  # build of the library at -O0 with assertions on, and half the compile time of -O2.
  set(configure -DMETALCPU_SOURCE_DIR=${SOURCE} -DCMAKE_BUILD_TYPE=Debug)
  if(SHARED)
    list(APPEND configure -DBUILD_SHARED_LIBS=ON -DMETALCPU_INSTALL=ON)
  endif()
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
  set(gtest_main_source "${PREFIX}/share/metalcpu/gtest_main.cpp")
else()
  set(gtest_main_source "${SOURCE}/validation/gtest_main/gtest_main.cpp")
endif()
if(NOT output MATCHES "metalcpu::gtest_main: found, INTERFACE_LIBRARY, sources ([^\n]*)\n"
   OR NOT CMAKE_MATCH_1 MATCHES "gtest_main\\.cpp" OR NOT EXISTS "${gtest_main_source}")
  message(FATAL_ERROR "metalcpu::gtest_main must be an INTERFACE target whose source is ${gtest_main_source}")
endif()
if(MODE STREQUAL "find_package")
  file(GLOB_RECURSE prebuilt ${PREFIX}/*gtest_main*.a)
  if(prebuilt)
    message(FATAL_ERROR "a prebuilt gtest_main archive was installed: ${prebuilt}")
  endif()
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
# docs/testing.md's ctest line: the tests gtest_discover_tests registered, each under validation.
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/build --output-on-failure --no-tests=error
                        -R "^ValidationExample[.]"
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(status OR NOT output MATCHES "100% tests passed, 0 tests failed out of 3")
  message(FATAL_ERROR "ctest did not run the suite's 3 tests and pass")
endif()
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/tests/samples/port -B ${WORK}/build-without-gtest -G Ninja
                          -DAPP_DIR=${app} -DWITHOUT_GTEST=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON ${configure}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status OR NOT output MATCHES "metalcpu::gtest_main: not found")
    message(FATAL_ERROR "without GoogleTest, find_package(metalcpu) must still work:\n${output}")
  endif()
endif()

if(SHARED)
  include(${CMAKE_CURRENT_LIST_DIR}/linked_libraries.cmake)
  expect_linked_libmetalcpu(${WORK}/build/matmul)
  expect_linked_libmetalcpu(${WORK}/build/validation_gtest)
  set(prefix ${WORK}/prefix)
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${WORK}/build --prefix ${prefix}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status OR NOT EXISTS ${prefix}/${LIBDIR}/cmake/metalcpu/metalcpuConfig.cmake)
    message(FATAL_ERROR "installing the shared metalcpu failed:\n${output}")
  endif()
  file(GLOB shared_objects ${prefix}/${LIBDIR}/libmetalcpu.so*)
  file(GLOB archives ${prefix}/${LIBDIR}/libmetalcpu.a)
  if(NOT shared_objects OR archives)
    message(FATAL_ERROR "the shared build must install libmetalcpu.so and no libmetalcpu.a:\n${output}")
  endif()
  foreach(check consumer pkg_config)
    execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE=${SOURCE}/tests/samples/consumer -DWORK=${WORK}/${check}
                            -DPREFIX=${prefix} -DPKG_CONFIG_DIR=${prefix}/${LIBDIR}/pkgconfig -DGENERATOR=Ninja
                            -DMAKE_PROGRAM=${MAKE_PROGRAM} -DSHARED=ON -P ${CMAKE_CURRENT_LIST_DIR}/${check}_test.cmake
                    RESULT_VARIABLE status)
    if(status)
      message(FATAL_ERROR "the installed shared metalcpu failed ${check}_test.cmake")
    endif()
  endforeach()
endif()
file(REMOVE_RECURSE ${WORK})
