# Checks that metal_add_library() rebuilds a library when a header its kernels include
# changes: builds header_rebuild/ (a copy, in WORK), edits value.h (included with quotes
# beside the .metal file) and then include/scale.h (included from value.h through
# INCLUDE_DIRECTORIES), and after each edit expects a rebuild whose library computes the new
# value; a build without edits must do nothing.
#   cmake -DSOURCE=<header_rebuild dir> -DWORK=<scratch dir> -DMETALCPU_CMAKE_DIR=<metalcpu>/cmake
#         -DMETAL_TOOL=<metal> -DMETALLIB_TOOL=<metallib> -DPROBE=<metalcpu_metallib_probe (consumer/run_kernels.cpp)>
#         -DMAKE_PROGRAM=<ninja> -P header_rebuild_test.cmake
file(REMOVE_RECURSE ${WORK})
file(COPY ${SOURCE}/ DESTINATION ${WORK}/src)
set(library ${WORK}/build/default.metallib)

set(ninja)
if(MAKE_PROGRAM)
  set(ninja -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/build -G Ninja ${ninja}
                        -DMETALCPU_CMAKE_DIR=${METALCPU_CMAKE_DIR} -DMETAL_TOOL=${METAL_TOOL}
                        -DMETALLIB_TOOL=${METALLIB_TOOL}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status)
  message(FATAL_ERROR "configuring the kernels failed:\n${output}")
endif()

# Builds, and sets `built` to the build's output and `value` to what the library computes.
function(build_and_probe)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(status)
    message(FATAL_ERROR "building the kernels failed:\n${output}")
  endif()
  execute_process(COMMAND ${PROBE} ${library} value RESULT_VARIABLE status OUTPUT_VARIABLE probed ERROR_VARIABLE probed)
  if(status OR NOT probed MATCHES "(^|\n)value=(-?[0-9]+)\n")
    message(FATAL_ERROR "running the library's kernel failed:\n${probed}")
  endif()
  set(built "${output}" PARENT_SCOPE)
  set(value ${CMAKE_MATCH_2} PARENT_SCOPE)
endfunction()

# Edits `file` (replacing `from` by `to`), rebuilds, and expects `expected` from the library.
function(edit_and_expect file from to expected)
  file(SHA256 ${library} before)
  # Ninja compares modification times; a second's wait keeps them apart on coarse filesystems.
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  file(READ ${WORK}/src/${file} text)
  string(REPLACE "${from}" "${to}" edited "${text}")
  if(edited STREQUAL text)
    message(FATAL_ERROR "${file} has no `${from}` to edit")
  endif()
  file(WRITE ${WORK}/src/${file} "${edited}")
  build_and_probe()
  file(SHA256 ${library} after)
  if(NOT built MATCHES "Compiling Metal kernels kernel.metal" OR before STREQUAL after)
    message(FATAL_ERROR "editing ${file} did not rebuild default.metallib:\n${built}")
  endif()
  if(NOT value EQUAL expected)
    message(FATAL_ERROR "after editing ${file} the library computes ${value}, not ${expected}")
  endif()
  message(STATUS "editing ${file} rebuilt the library: it computes ${value}")
endfunction()

build_and_probe()
if(NOT value EQUAL 21)
  message(FATAL_ERROR "the first build computes ${value}, not 7 * 3")
endif()
build_and_probe()
if(NOT built MATCHES "no work to do")
  message(FATAL_ERROR "a build without edits did work:\n${built}")
endif()

edit_and_expect(value.h "#define VALUE 7" "#define VALUE 1234" 3702)
edit_and_expect(include/scale.h "#define SCALE 3" "#define SCALE -2" -2468)
file(REMOVE_RECURSE ${WORK})
