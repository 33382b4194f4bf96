# Builds consumer/ (every metal_add_library() option, metal_install_library(),
# mlx_build_metallib()) with one generator against an installed metalcpu and checks, with
# run_kernels started from another directory, that each library sits where it should and
# computes what its sources, headers, definitions and options say; that a build without edits
# does nothing; that editing a DEPENDS file rebuilds the kernels; that installing puts each
# library where it belongs; under a multi-config generator, that each configuration has its own
# default.metallib beside its own program. CHECK_ERRORS=ON also checks the messages for misuse.
#   cmake -DSOURCE=<consumer dir> -DWORK=<scratch dir> -DPREFIX=<metalcpu prefix>
#         -DGENERATOR=<generator> [-DMAKE_PROGRAM=<ninja>] [-DCHECK_ERRORS=ON] [-DSHARED=ON]
#         -P consumer_test.cmake
file(REMOVE_RECURSE ${WORK})
file(COPY ${SOURCE}/ DESTINATION ${WORK}/src)
file(MAKE_DIRECTORY ${WORK}/elsewhere)
set(build ${WORK}/build)
set(configure -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX})
if(MAKE_PROGRAM AND GENERATOR MATCHES "Ninja")
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(GENERATOR MATCHES "Multi-Config")
  set(config_dir /Release)
else()
  set(config_dir "")
  list(APPEND configure -DCMAKE_BUILD_TYPE=Release)
endif()

if(CHECK_ERRORS)
  foreach(case target_defined_later imported_target)
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/error-${case} ${configure} -DEXPECT_ERROR=${case}
                    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
    string(REGEX REPLACE "[ \n]+" " " output "${output}")
    if(case STREQUAL "target_defined_later")
      set(expected "TARGET later is not a target; define it")
    else()
      set(expected "TARGET metalcpu::metal-tool is imported")
    endif()
    if(NOT status OR NOT output MATCHES "${expected}")
      message(FATAL_ERROR "configuring the ${case} misuse did not fail with \"${expected}\":\n${output}")
    endif()
  endforeach()
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${build} ${configure}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status)
  message(FATAL_ERROR "configuring the consumer failed:\n${output}")
endif()
if(NOT output MATCHES "MTLLIB_BUILD_TARGET=${build}/mlx/mlx_ext.metallib\n")
  message(FATAL_ERROR "mlx_build_metallib() did not set MTLLIB_BUILD_TARGET to the library:\n${output}")
endif()

# Builds `config` (and `target`, when given); sets `built` to the build's output.
function(build config)
  set(target_args)
  if(ARGN)
    set(target_args --target ${ARGN})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${build} --config ${config} -j 2 ${target_args}
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status)
    message(FATAL_ERROR "building the consumer (${config}) failed:\n${output}")
  endif()
  set(built "${output}" PARENT_SCOPE)
endfunction()

# Runs run_kernels (from another directory, so that only the library beside it can be the
# default one) and expects `expected` (a regular expression) in its output.
function(expect_kernels program library expected)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=METALCPU_DEFAULT_LIBRARY ${program} ${library} ${ARGN}
                  WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status OR NOT output MATCHES "${expected}")
    message(FATAL_ERROR "`${program} ${library} ${ARGN}` did not print ${expected}:\n${output}")
  endif()
endfunction()

build(Release)
set(program ${build}/programs${config_dir}/run_kernels)
expect_kernels(${program} default "scale_a=1010\nscale_b=118\ngenerated=4242\nhost_shared_constant=37\n"
               scale_a scale_b generated)
expect_kernels(${program} ${build}/Release/libs/extra.metallib "extra=99\n" extra)
expect_kernels(${program} ${build}${config_dir}/plugin_kernels.metallib "extra=99\n" extra)
expect_kernels(${program} ${build}/mlx/mlx_ext.metallib "axpby=43\n" axpby)
if(SHARED)
  include(${CMAKE_CURRENT_LIST_DIR}/linked_libraries.cmake)
  expect_linked_libmetalcpu(${program})
endif()

build(Release)
if(built MATCHES "Compiling Metal kernels|Linking Metal library")
  message(FATAL_ERROR "a build without edits rebuilt kernels:\n${built}")
endif()

# Ninja and make compare modification times; a second's wait keeps them apart.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(APPEND ${WORK}/src/kernels/tuning.txt "# edited\n")
build(Release)
if(NOT built MATCHES "Compiling Metal kernels kernels/a/scale\\.metal"
   OR NOT built MATCHES "Linking Metal library default\\.metallib")
  message(FATAL_ERROR "editing a DEPENDS file did not rebuild default.metallib:\n${built}")
endif()

if(GENERATOR MATCHES "Multi-Config")
  build(Debug run_kernels)
  expect_kernels(${build}/programs/Debug/run_kernels default "scale_a=1010\n" scale_a)
  if(NOT EXISTS ${build}/programs/Release/default.metallib)
    message(FATAL_ERROR "building Debug removed Release's default.metallib")
  endif()
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --install ${build} --config Release --prefix ${WORK}/install
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status)
  message(FATAL_ERROR "installing the consumer failed:\n${output}")
endif()
foreach(file bin/default.metallib lib/plugin_kernels.metallib share/consumer/extra.metallib)
  if(NOT EXISTS ${WORK}/install/${file})
    message(FATAL_ERROR "metal_install_library() did not install ${file}:\n${output}")
  endif()
endforeach()
expect_kernels(${WORK}/install/bin/run_kernels default "scale_a=1010\n" scale_a)
file(REMOVE_RECURSE ${WORK})
