# The matmul benchmark's CPU reference (matmul_reference.cpp) compiled and linked with nothing
# but what `pkg-config metalcpu metalcpu-accelerate` gives, against an installed metalcpu, and
# run: cblas_sgemm and vDSP_mmul must match its triple loop.
#   cmake -DSOURCE=<this directory> -DWORK=<scratch dir> -DPKG_CONFIG_DIR=<prefix>/<libdir>/pkgconfig
#         -DCXX=<C++ compiler> -P pkg_config_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} ${PKG_CONFIG_DIR})
foreach(kind cflags libs)
  execute_process(COMMAND ${PKG_CONFIG} --${kind} metalcpu metalcpu-accelerate
                  RESULT_VARIABLE status OUTPUT_VARIABLE flags ERROR_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(status)
    message(FATAL_ERROR "pkg-config --${kind} metalcpu metalcpu-accelerate failed:\n${flags}")
  endif()
  separate_arguments(${kind} UNIX_COMMAND "${flags}")
endforeach()
execute_process(COMMAND ${PKG_CONFIG} --variable=libdir metalcpu OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${CXX} -std=c++17 ${cflags} ${SOURCE}/matmul_reference.cpp -o ${WORK}/matmul_reference
                        -Wl,-rpath,${libdir} ${libs}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status)
  message(FATAL_ERROR "building with pkg-config's flags failed:\n${output}")
endif()
execute_process(COMMAND ${WORK}/matmul_reference RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status OR NOT output MATCHES "256x128x96: cblas_sgemm [0-9.]+ GFLOPS, matches")
  message(FATAL_ERROR "the program built with pkg-config did not match its references:\n${output}")
endif()
file(REMOVE_RECURSE ${WORK})
