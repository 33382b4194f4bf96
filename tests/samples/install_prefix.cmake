# Installs metalcpu's build into a fresh prefix, the package the consumer tests use as a
# program's build would (the fixture metalcpu_prefix).
#   cmake -DBUILD=<metalcpu build> -DPREFIX=<prefix> -P install_prefix.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status)
  message(FATAL_ERROR "cmake --install failed:\n${output}")
endif()
