# Installs metalcpu as a CMake package: find_package(metalcpu) gives metalcpu::metal, the
# metalcpu::metal-tool and metalcpu::metallib-tool executables (with metal-ar and xcrun beside
# them in bin/) and metal_add_library(); and,
# when metalcpu was built with GoogleTest and the program finds it too, metalcpu::gtest_main
# (its own export set, so that GoogleTest stays optional for everything else; an INTERFACE
# target whose installed source the program compiles against its own GoogleTest); when
# metalcpu was built with OpenBLAS and the program finds it too, metalcpu::accelerate (its own
# export set as well, with its headers apart from metalcpu's). Also a pkg-config file,
# metalcpu.pc (and metalcpu-accelerate.pc), for builds that are not CMake's.
include(CMakePackageConfigHelpers)

if(METALCPU_BUILD_SHARED)
  # The installed tools find libmetalcpu.so relative to themselves, wherever the prefix is.
  file(RELATIVE_PATH bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
  set_target_properties(metalcpu_metal_tool metalcpu_metallib_tool PROPERTIES INSTALL_RPATH "$ORIGIN/${bin_to_lib}")
endif()

# Installed, metalcpu::metal gives its headers as -I, as add_subdirectory(metalcpu) does, not
# as -isystem, which GCC searches after every -I: a program's own include directories then
# order against them as in a source build, and the one line of docs/porting.md ("metal-cpp
# vendored next to the program's headers") can put them first.
set_target_properties(metalcpu_metal PROPERTIES EXPORT_NO_SYSTEM ON)
install(TARGETS metalcpu_metal metalcpu_metal_tool metalcpu_metallib_tool metalcpu_metal_ar_tool metalcpu_xcrun_tool
  EXPORT metalcpuTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/metalcpu)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/metalcpu)
install(EXPORT metalcpuTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
if(TARGET metalcpu_gtest_main)
  # An INTERFACE target: its source is installed and compiled by each program that links it.
  install(TARGETS metalcpu_gtest_main EXPORT metalcpuGTestTargets)
  install(FILES ${PROJECT_SOURCE_DIR}/validation/gtest_main/gtest_main.cpp DESTINATION ${METALCPU_GTEST_MAIN_INSTALL_DIR})
  install(EXPORT metalcpuGTestTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
endif()
if(TARGET metalcpu_accelerate)
  install(TARGETS metalcpu_accelerate EXPORT metalcpuAccelerateTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/accelerate/include/ DESTINATION ${METALCPU_ACCELERATE_INCLUDE_DIR})
  install(EXPORT metalcpuAccelerateTargets NAMESPACE metalcpu:: DESTINATION ${config_dir})
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/metalcpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/metalcpuConfig.cmake ${PROJECT_BINARY_DIR}/metalcpuConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/MetalAddLibrary.cmake ${PROJECT_SOURCE_DIR}/cmake/MetalcpuOpenBLAS.cmake
  DESTINATION ${config_dir})

# metalcpu.pc finds its prefix from where it lies (${pcfiledir}), so it stays right wherever
# `cmake --install --prefix` puts the package. A static libmetalcpu.a needs its dependencies on
# every link line (Requires, Libs); a shared one only when linking statically (.private).
function(metalcpu_pkg_config_path variable dir)
  if(IS_ABSOLUTE ${dir})
    set(${variable} ${dir} PARENT_SCOPE)
  else()
    set(${variable} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(METALCPU_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH pc_to_prefix /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
  string(REGEX REPLACE "/$" "" pc_to_prefix ${pc_to_prefix})
  set(METALCPU_PC_PREFIX "\${pcfiledir}/${pc_to_prefix}")
endif()
metalcpu_pkg_config_path(METALCPU_PC_LIBDIR ${CMAKE_INSTALL_LIBDIR})
metalcpu_pkg_config_path(METALCPU_PC_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
metalcpu_pkg_config_path(METALCPU_PC_BINDIR ${CMAKE_INSTALL_BINDIR})
set(METALCPU_PC_REQUIRES "tbb spdlog")
set(METALCPU_PC_LIBS "-lboost_context")
foreach(library ${CMAKE_DL_LIBS})
  string(APPEND METALCPU_PC_LIBS " -l${library}")
endforeach()
string(APPEND METALCPU_PC_LIBS " -pthread")
if(METALCPU_BUILD_SHARED)
  set(METALCPU_PC_DEPENDENCIES "Requires.private: ${METALCPU_PC_REQUIRES}\nLibs: -L\${libdir} -lmetalcpu\nLibs.private: ${METALCPU_PC_LIBS}")
else()
  set(METALCPU_PC_DEPENDENCIES "Requires: ${METALCPU_PC_REQUIRES}\nLibs: -L\${libdir} -lmetalcpu ${METALCPU_PC_LIBS}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/metalcpu.pc.in ${PROJECT_BINARY_DIR}/metalcpu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/metalcpu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET metalcpu_accelerate)
  # Its include directory must be the one install(DIRECTORY) above uses.
  if(NOT METALCPU_ACCELERATE_INCLUDE_DIR STREQUAL "${CMAKE_INSTALL_INCLUDEDIR}/metalcpu-accelerate")
    message(FATAL_ERROR "metalcpu-accelerate.pc.in names include/metalcpu-accelerate; keep them in step")
  endif()
  configure_file(${PROJECT_SOURCE_DIR}/cmake/metalcpu-accelerate.pc.in ${PROJECT_BINARY_DIR}/metalcpu-accelerate.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/metalcpu-accelerate.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
